// Webhooks: create (secret shown once), change events, send a test (which also re-enables a
// failing webhook), recent deliveries with status and retries, delete.
import { useState } from 'preact/hooks';
import { call, get } from '../api';
import { Busy, ErrorNotice, OnceSecret } from '../parts/notice';
import { useAction, useLoad } from '../parts/use-load';

// The hub's account events (README "Account webhooks"); a wrong name is refused naming `events`.
const EVENTS = [
  'message.sent',
  'message.delivered',
  'message.received',
  'message.failed',
  'credits.low_balance',
  'credits.purchased',
] as const;

interface Webhook {
  id: string;
  url: string;
  events: string[];
  status: 'active' | 'failing';
  lastError: string | null;
  createdAt: string;
}

interface Delivery {
  id: string;
  event: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  nextAt: string;
  createdAt: string;
}

export function WebhooksPage() {
  const list = useLoad(() => get<{ webhooks: Webhook[] }>('/api/webhooks'), []);
  const [secret, setSecret] = useState<string>();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['message.failed']);
  const create = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void create.run(async () => {
      const r = await call<{ secret?: string }>('POST', '/api/webhooks', { url, events });
      setSecret(r.secret);
      setUrl('');
      list.reload();
    });
  };
  return (
    <section aria-labelledby="webhooks-h">
      <h1 id="webhooks-h">Webhooks</h1>
      <form class="panel grid" onSubmit={submit} aria-label="Add a webhook">
        <h2>Add a webhook</h2>
        <label class="wide">
          Receiver URL
          <input
            name="url"
            type="url"
            required
            value={url}
            onInput={(e) => setUrl(e.currentTarget.value)}
          />
        </label>
        <EventPicker value={events} onChange={setEvents} legend="Events" />
        <button type="submit" disabled={create.busy}>
          Add webhook
        </button>
        <Busy when={create.busy} label="Adding…" />
        <ErrorNotice error={create.error} />
      </form>
      {secret ? (
        <div class="panel once">
          <OnceSecret label="Signing secret" value={secret} />
          <button type="button" onClick={() => setSecret(undefined)}>
            I have copied it
          </button>
        </div>
      ) : null}
      <ErrorNotice error={list.error} />
      <Busy when={list.loading} label="Loading…" />
      {list.data?.webhooks.length === 0 ? <p>No webhooks yet.</p> : null}
      {list.data?.webhooks.map((w) => (
        <WebhookCard key={w.id} hook={w} onChanged={list.reload} />
      ))}
    </section>
  );
}

function EventPicker({
  value,
  onChange,
  legend,
}: {
  value: string[];
  onChange: (v: string[]) => void;
  legend: string;
}) {
  return (
    <fieldset class="wide events">
      <legend>{legend}</legend>
      {EVENTS.map((ev) => (
        <label key={ev} class="check">
          <input
            type="checkbox"
            checked={value.includes(ev)}
            onChange={(e) =>
              onChange(e.currentTarget.checked ? [...value, ev] : value.filter((x) => x !== ev))
            }
          />
          {ev}
        </label>
      ))}
    </fieldset>
  );
}

function WebhookCard({ hook, onChanged }: { hook: Webhook; onChanged: () => void }) {
  const [events, setEvents] = useState(hook.events);
  const [result, setResult] = useState<string>();
  const [showDeliveries, setShowDeliveries] = useState(false);
  const act = useAction();
  const path = `/api/webhooks/${encodeURIComponent(hook.id)}`;
  const test = () =>
    act.run(async () => {
      setResult(undefined);
      const r = await call<{ delivered: boolean; error?: string; status: string }>(
        'POST',
        `${path}/test`
      );
      setResult(
        r.delivered
          ? `Test delivered: the receiver answered 2xx. The webhook is ${r.status}.`
          : `Test not delivered: ${r.error ?? 'no answer'}. The webhook is ${r.status}.`
      );
      onChanged();
    });
  const save = () =>
    act.run(async () => {
      await call('PATCH', path, { events });
      setResult('Events saved.');
      onChanged();
    });
  const remove = () =>
    act.run(async () => {
      if (!confirm(`Delete the webhook to ${hook.url}? Its pending deliveries are dropped.`))
        return;
      await call('DELETE', path);
      onChanged();
    });
  return (
    <article class="panel" data-webhook={hook.id} aria-label={`Webhook ${hook.url}`}>
      <h2 class="mono wrap">{hook.url}</h2>
      <p>
        <span class={`pill ${hook.status}`}>{hook.status}</span>{' '}
        {hook.status === 'failing'
          ? 'Its last delivery failed every retry: it gets one attempt per event until one succeeds.'
          : null}
        {hook.lastError ? <span class="sub"> Last error: {hook.lastError}</span> : null}
      </p>
      <EventPicker value={events} onChange={setEvents} legend="Events" />
      <div class="row">
        <button type="button" onClick={() => void save()} disabled={act.busy}>
          Save events
        </button>
        <button type="button" onClick={() => void test()} disabled={act.busy}>
          {hook.status === 'failing' ? 'Re-enable (send a test)' : 'Send a test'}
        </button>
        <button
          type="button"
          aria-expanded={showDeliveries}
          onClick={() => setShowDeliveries(!showDeliveries)}
        >
          Recent deliveries
        </button>
        <button type="button" class="danger" onClick={() => void remove()} disabled={act.busy}>
          Delete
        </button>
      </div>
      <Busy when={act.busy} />
      {result ? (
        <p class="notice" role="status" data-testid="webhook-result">
          {result}
        </p>
      ) : null}
      <ErrorNotice error={act.error} />
      {showDeliveries ? <Deliveries path={`${path}/deliveries`} /> : null}
    </article>
  );
}

function Deliveries({ path }: { path: string }) {
  const list = useLoad(() => get<{ deliveries: Delivery[] }>(path), [path]);
  return (
    <div class="table-wrap">
      <ErrorNotice error={list.error} />
      <table>
        <caption>
          Recent deliveries of events{' '}
          <button type="button" class="link" onClick={list.reload}>
            Refresh
          </button>
        </caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last error</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.deliveries.length === 0 ? (
            <tr>
              <td colSpan={5}>
                No event deliveries yet (tests are answered at once and not listed).
              </td>
            </tr>
          ) : null}
          {list.data?.deliveries.map((d) => (
            <tr key={d.id}>
              <td>{new Date(d.createdAt).toLocaleString()}</td>
              <td>{d.event}</td>
              <td>
                <span class={`pill ${d.status}`}>{d.status}</span>
                {d.status === 'pending' ? (
                  <span class="sub"> next try {new Date(d.nextAt).toLocaleTimeString()}</span>
                ) : null}
              </td>
              <td>
                {d.attempts} of {d.maxAttempts}
              </td>
              <td>{d.lastError ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
