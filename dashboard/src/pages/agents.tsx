// Agents: the tenant's agents with status, queue depth and rating; create (key and webhook secret
// shown once); edit card, description, category, tags, location tags, visibility; rotate; delete.
import { useState } from 'preact/hooks';
import { call, get } from '../api';
import { TextField, VisibilityField, type Visibility } from '../parts/fields';
import { Busy, ErrorNotice, OnceSecret } from '../parts/notice';
import { useAction, useLoad } from '../parts/use-load';

export interface AgentRow {
  agentId: string;
  name: string;
  description: string;
  alias: string | null;
  transport: string;
  url: string | null;
  visibility: Visibility;
  category: string | null;
  tags: string[];
  status: 'online' | 'http' | 'offline';
  queueDepth: number | null;
  rating: { average: number | null; count: number };
}

const LOCATION = 'location:';
const splitList = (s: string) =>
  s
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

export function AgentsPage() {
  const list = useLoad(() => get<{ agents: AgentRow[] }>('/api/agents'), []);
  const [secrets, setSecrets] = useState<{ title: string; values: [string, string][] }>();
  const [editing, setEditing] = useState<string>();
  const act = useAction();

  const rotate = (a: AgentRow) =>
    act.run(async () => {
      if (!confirm(`Rotate the key of ${a.name}? Its current key stops working at once.`)) return;
      const r = await call<{ apiKey: string }>(
        'POST',
        `/api/agents/${encodeURIComponent(a.agentId)}/keys`
      );
      setSecrets({ title: `New key of ${a.name}`, values: [['API key', r.apiKey]] });
    });
  const remove = (a: AgentRow) =>
    act.run(async () => {
      if (!confirm(`Delete ${a.name}? Its keys stop working and it leaves the directory.`)) return;
      await call('DELETE', `/api/agents/${encodeURIComponent(a.agentId)}`);
      list.reload();
    });

  return (
    <section aria-labelledby="agents-h">
      <h1 id="agents-h">Agents</h1>
      <CreateAgent
        onCreated={(title, values) => {
          setSecrets({ title, values });
          list.reload();
        }}
      />
      {secrets ? (
        <div class="panel once" role="region" aria-label={secrets.title}>
          <h2>{secrets.title}</h2>
          {secrets.values.map(([label, value]) => (
            <OnceSecret key={label} label={label} value={value} />
          ))}
          <button type="button" onClick={() => setSecrets(undefined)}>
            I have copied it
          </button>
        </div>
      ) : null}
      <ErrorNotice error={list.error ?? act.error} />
      <Busy when={list.loading || act.busy} />
      <div class="table-wrap">
        <table class="stack">
          <caption>{list.data ? plural(list.data.agents.length, 'agent') : 'Agents'}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Queue</th>
              <th scope="col">Rating</th>
              <th scope="col">Visibility</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.agents.map((a) => (
              <tr key={a.agentId} data-agent={a.agentId}>
                <th scope="row">
                  {a.name}
                  <div class="sub mono">{a.agentId}</div>
                </th>
                <td data-label="Status">
                  <span class={`pill ${a.status}`}>{statusText(a.status)}</span>
                </td>
                <td data-label="Queue">{a.queueDepth ?? '–'}</td>
                <td data-label="Rating">
                  {a.rating.average === null
                    ? 'none'
                    : `${a.rating.average.toFixed(1)} (${a.rating.count})`}
                </td>
                <td data-label="Visibility">{a.visibility}</td>
                <td class="actions">
                  <button
                    type="button"
                    onClick={() => setEditing(editing === a.agentId ? undefined : a.agentId)}
                  >
                    Edit
                  </button>
                  <button type="button" onClick={() => void rotate(a)}>
                    Rotate key
                  </button>
                  <button type="button" class="danger" onClick={() => void remove(a)}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {editing && list.data ? (
        <EditAgent
          agent={list.data.agents.find((a) => a.agentId === editing)}
          onDone={() => {
            setEditing(undefined);
            list.reload();
          }}
        />
      ) : null}
    </section>
  );
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function statusText(s: AgentRow['status']): string {
  return s === 'online' ? 'online (WebSocket)' : s === 'http' ? 'HTTP' : 'offline';
}

function CreateAgent({
  onCreated,
}: {
  onCreated: (title: string, values: [string, string][]) => void;
}) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [url, setUrl] = useState('');
  const [category, setCategory] = useState('');
  const [tags, setTags] = useState('');
  const [visibility, setVisibility] = useState<Visibility>('private');
  const act = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void act.run(async () => {
      const r = await call<{ agent: { name: string }; apiKey: string; webhookSecret?: string }>(
        'POST',
        '/api/agents',
        {
          name,
          visibility,
          ...(description ? { description } : {}),
          ...(url ? { url } : {}),
          ...(category ? { category } : {}),
          ...(tags ? { tags: splitList(tags) } : {}),
        }
      );
      const values: [string, string][] = [['API key', r.apiKey]];
      if (r.webhookSecret) values.push(['Webhook secret', r.webhookSecret]);
      onCreated(`Agent ${r.agent.name} created`, values);
      setName('');
      setDescription('');
      setUrl('');
      setCategory('');
      setTags('');
    });
  };
  return (
    <details class="panel">
      <summary>Create an agent</summary>
      <form onSubmit={submit} class="grid">
        <TextField label="Name" name="name" required value={name} onValue={setName} />
        <TextField
          label="Description"
          name="description"
          value={description}
          onValue={setDescription}
        />
        <TextField
          label="URL (HTTP agents; empty for a WebSocket agent)"
          name="url"
          url
          value={url}
          onValue={setUrl}
        />
        <TextField label="Category" name="category" value={category} onValue={setCategory} />
        <TextField label="Tags (comma-separated)" name="tags" value={tags} onValue={setTags} />
        <VisibilityField value={visibility} onValue={setVisibility} />
        <button type="submit" disabled={act.busy}>
          Create agent
        </button>
        <Busy when={act.busy} label="Creating…" />
        <ErrorNotice error={act.error} />
      </form>
    </details>
  );
}

function EditAgent({ agent, onDone }: { agent: AgentRow | undefined; onDone: () => void }) {
  const plain = agent?.tags.filter((t) => !t.startsWith(LOCATION)) ?? [];
  const places =
    agent?.tags.filter((t) => t.startsWith(LOCATION)).map((t) => t.slice(LOCATION.length)) ?? [];
  const [description, setDescription] = useState(agent?.description ?? '');
  const [category, setCategory] = useState(agent?.category ?? '');
  const [tags, setTags] = useState(plain.join(', '));
  const [locations, setLocations] = useState(places.join('; '));
  const [visibility, setVisibility] = useState(agent?.visibility ?? 'private');
  const [card, setCard] = useState('');
  const act = useAction();
  if (!agent) return null;
  const submit = (e: Event) => {
    e.preventDefault();
    void act.run(async () => {
      const patch: Record<string, unknown> = {
        description,
        visibility,
        category: category || null,
        tags: [
          ...splitList(tags),
          ...locations
            .split(';')
            .map((l) => l.trim())
            .filter(Boolean)
            .map((l) => LOCATION + l),
        ],
      };
      if (card.trim()) {
        try {
          patch.card = JSON.parse(card) as unknown;
        } catch {
          throw new Error('The card is not valid JSON.');
        }
      }
      await call('PATCH', `/api/agents/${encodeURIComponent(agent.agentId)}`, patch);
      onDone();
    });
  };
  return (
    <form class="panel grid" onSubmit={submit} aria-label={`Edit ${agent.name}`}>
      <h2>Edit {agent.name}</h2>
      <TextField
        label="Description"
        name="description"
        value={description}
        onValue={setDescription}
      />
      <TextField label="Category" name="category" value={category} onValue={setCategory} />
      <TextField label="Tags (comma-separated)" name="tags" value={tags} onValue={setTags} />
      <TextField
        label="Locations (semicolon-separated addresses, geocoded by the hub)"
        name="locations"
        value={locations}
        onValue={setLocations}
      />
      <VisibilityField value={visibility} onValue={setVisibility} />
      <label class="wide">
        Agent card (JSON; leave empty to keep the current card)
        <textarea
          name="card"
          rows={5}
          class="mono"
          value={card}
          onInput={(e) => setCard(e.currentTarget.value)}
        />
      </label>
      <div class="row">
        <button type="submit" disabled={act.busy}>
          Save
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
      <Busy when={act.busy} label="Saving…" />
      <ErrorNotice error={act.error} />
    </form>
  );
}
