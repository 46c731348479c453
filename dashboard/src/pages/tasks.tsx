// Tasks: the tenant's tasks (GET /api/tasks) kept current by the live feed (GET /api/tasks/stream,
// Server-Sent Events read with fetch so the key stays in a header), filtered by agent, state and
// context; a task's detail with its messages and artifacts, and cancel.
import { useEffect, useState } from 'preact/hooks';
import { call, describe, get, streamEvents } from '../api';
import { Busy, ErrorNotice } from '../parts/notice';
import { useAction, useLoad } from '../parts/use-load';
import { href } from '../route';
import { plural, type AgentRow } from './agents';

const STATES = [
  'submitted',
  'working',
  'input-required',
  'completed',
  'failed',
  'canceled',
  'rejected',
];
const FINAL = new Set(['completed', 'failed', 'canceled', 'rejected']);

interface Part {
  kind: string;
  text?: string;
  data?: unknown;
  name?: string;
  mimeType?: string;
  uri?: string;
}
interface TaskRow {
  id: string;
  contextId: string;
  senderId: string;
  recipientId: string;
  createdAt: string;
  updatedAt: string;
  status: { state: string; timestamp: string; message?: string };
  messages: Array<{ role: string; messageId: string; parts: Part[] }>;
  artifacts: Array<{ artifactId: string; name?: string; parts: Part[] }>;
}

export function TasksPage() {
  const agents = useLoad(() => get<{ agents: AgentRow[] }>('/api/agents'), []);
  const [agentId, setAgentId] = useState('');
  const [state, setState] = useState('');
  const [contextId, setContextId] = useState('');
  const [tasks, setTasks] = useState<TaskRow[]>([]);
  const [feed, setFeed] = useState<'connecting' | 'live' | 'retrying'>('connecting');
  const [error, setError] = useState<string>();

  const query = new URLSearchParams({
    ...(agentId ? { agentId } : {}),
    ...(state ? { state } : {}),
    ...(contextId.trim() ? { contextId: contextId.trim() } : {}),
  }).toString();

  useEffect(() => {
    const stop = new AbortController();
    const matches = (t: TaskRow) =>
      (!agentId || t.senderId === agentId || t.recipientId === agentId) &&
      (!state || t.status.state === state) &&
      (!contextId.trim() || t.contextId === contextId.trim());
    const merge = (t: TaskRow) =>
      setTasks((list) => {
        const rest = list.filter((x) => x.id !== t.id);
        return matches(t) ? [t, ...rest].slice(0, 200) : rest;
      });
    const run = async () => {
      for (let attempt = 0; !stop.signal.aborted; attempt++) {
        try {
          setFeed('connecting');
          // Open the feed first, then read the list: nothing changed in between is missed.
          const stream = streamEvents(
            `/api/tasks/stream${query ? `?${query}` : ''}`,
            (data) => merge((JSON.parse(data) as { task: TaskRow }).task),
            stop.signal
          );
          const first = await get<{ tasks: TaskRow[] }>(`/api/tasks${query ? `?${query}` : ''}`);
          setTasks(first.tasks);
          setError(undefined);
          setFeed('live');
          attempt = 0;
          await stream;
        } catch (e) {
          if (stop.signal.aborted) return;
          setError(`The live feed stopped: ${describe(e)} Reconnecting…`);
        }
        setFeed('retrying');
        await new Promise((r) => setTimeout(r, Math.min(10_000, 1000 * 2 ** attempt)));
      }
    };
    void run();
    return () => stop.abort();
  }, [query]);

  return (
    <section aria-labelledby="tasks-h">
      <h1 id="tasks-h">Tasks</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter tasks">
        <label>
          Agent
          <select value={agentId} onChange={(e) => setAgentId(e.currentTarget.value)}>
            <option value="">all agents</option>
            {agents.data?.agents.map((a) => (
              <option key={a.agentId} value={a.agentId}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          State
          <select value={state} onChange={(e) => setState(e.currentTarget.value)}>
            <option value="">any state</option>
            {STATES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Context
          <input
            value={contextId}
            placeholder="contextId"
            onChange={(e) => setContextId(e.currentTarget.value)}
          />
        </label>
      </form>
      <p class="feed" role="status" data-feed={feed}>
        <span class={`dot ${feed}`} aria-hidden="true" />
        {feed === 'live'
          ? 'Live: new and changed tasks appear here as they happen.'
          : feed === 'connecting'
            ? 'Connecting to the live feed…'
            : 'Feed interrupted, reconnecting…'}
      </p>
      <ErrorNotice error={error} />
      <div class="table-wrap">
        <table class="stack">
          <caption>{plural(tasks.length, 'task')} (newest changes first)</caption>
          <thead>
            <tr>
              <th scope="col">Task</th>
              <th scope="col">From → to</th>
              <th scope="col">State</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {tasks.map((t) => (
              <tr key={t.id} data-task={t.id}>
                <th scope="row">
                  <a href={href('tasks', t.id)} class="mono">
                    {t.id.slice(0, 13)}…
                  </a>
                </th>
                <td class="mono small" data-label="From → to">
                  {t.senderId} → {t.recipientId}
                </td>
                <td data-label="State">
                  <span class={`pill ${t.status.state}`}>{t.status.state}</span>
                </td>
                <td data-label="Updated">{new Date(t.updatedAt).toLocaleTimeString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function PartView({ part }: { part: Part }) {
  if (part.kind === 'text') return <p class="part">{part.text}</p>;
  if (part.kind === 'data') return <pre class="part">{JSON.stringify(part.data, null, 2)}</pre>;
  return (
    <p class="part">
      File {part.name ?? ''} {part.mimeType ?? ''} {part.uri ?? '(inline)'}
    </p>
  );
}

export function TaskDetail({ id }: { id: string }) {
  const task = useLoad(() => get<{ task: TaskRow }>(`/api/tasks/${encodeURIComponent(id)}`), [id]);
  const act = useAction();
  // The cancel's answer is the task as it now stands; the index behind GET may lag a moment.
  const [after, setAfter] = useState<TaskRow>();
  const t = after ?? task.data?.task;
  const cancel = () =>
    act.run(async () => {
      if (!confirm('Cancel this task? Its recipient is told to stop.')) return;
      const r = await call<{ task: TaskRow }>(
        'POST',
        `/api/tasks/${encodeURIComponent(id)}/cancel`
      );
      setAfter(r.task);
    });
  return (
    <section aria-labelledby="task-h">
      <p>
        <a href={href('tasks')}>← All tasks</a>
      </p>
      <h1 id="task-h" class="mono wrap">
        Task {id}
      </h1>
      <ErrorNotice error={task.error ?? act.error} />
      <Busy when={task.loading || act.busy} />
      {t ? (
        <>
          <dl class="facts">
            <dt>State</dt>
            <dd>
              <span class={`pill ${t.status.state}`}>{t.status.state}</span>{' '}
              {t.status.message ?? ''}
            </dd>
            <dt>From</dt>
            <dd class="mono">{t.senderId}</dd>
            <dt>To</dt>
            <dd class="mono">{t.recipientId}</dd>
            <dt>Context</dt>
            <dd class="mono">{t.contextId}</dd>
            <dt>Created</dt>
            <dd>{new Date(t.createdAt).toLocaleString()}</dd>
            <dt>Updated</dt>
            <dd>{new Date(t.updatedAt).toLocaleString()}</dd>
          </dl>
          {FINAL.has(t.status.state) ? null : (
            <button type="button" class="danger" onClick={() => void cancel()} disabled={act.busy}>
              Cancel task
            </button>
          )}
          <h2>Messages</h2>
          {t.messages.length === 0 ? <p>No messages.</p> : null}
          {t.messages.map((m) => (
            <article key={m.messageId} class={`message ${m.role}`}>
              <h3>{m.role === 'user' ? 'Sender' : 'Recipient'}</h3>
              {m.parts.map((p, i) => (
                <PartView key={i} part={p} />
              ))}
            </article>
          ))}
          <h2>Artifacts</h2>
          {t.artifacts.length === 0 ? <p>No artifacts.</p> : null}
          {t.artifacts.map((a) => (
            <article key={a.artifactId} class="message">
              <h3>{a.name ?? a.artifactId}</h3>
              {a.parts.map((p, i) => (
                <PartView key={i} part={p} />
              ))}
            </article>
          ))}
        </>
      ) : null}
    </section>
  );
}
