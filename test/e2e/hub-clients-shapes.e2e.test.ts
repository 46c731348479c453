// The hub dialect as the published hub clients read it (decisions.md §11), driven the way they
// drive it: plain fetch JSON-RPC on /a2a, the raw text/event-stream of their streaming client,
// and `ws` agents. Checked here: status.message is a string (POST /a2a results, ListTasks items,
// task_update frames, SSE, account webhooks); each SSE `data:` line's result is a wrapper with
// exactly one of task|message|statusUpdate|artifactUpdate; message.metadata reaches the recipient's
// `message` frame.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { forgedEnvelope, testHubConfig, until } from '../support/test-hub.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { connectWsAgent, type Frame, type TestWsAgent } from '../support/ws-agent.js';
import { rpc, text } from '../support/rpc.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant, createWebhook } from '../../infra/db/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let hooks: WebhookReceiver;
let alice: TestWsAgent;
let bob: TestWsAgent;
const keys = { alice: '', bob: '' };
const ids = { alice: '', bob: '', down: '' };

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db, { PARTITIONS: '4' }), silentLogger);
  const acme = await createTenant(hub.sql, { name: 'Acme' });
  const a = await createAgent(hub.sql, { tenantId: acme.id, name: 'alice' });
  const b = await createAgent(hub.sql, { tenantId: acme.id, name: 'bob' });
  // An HTTP agent whose endpoint refuses connections: with x-ttl 0 its task fails at once.
  const down = await createAgent(hub.sql, {
    tenantId: acme.id,
    name: 'down',
    url: `http://127.0.0.1:${await closedPort()}/a2a`,
  });
  keys.alice = a.apiKey;
  keys.bob = b.apiKey;
  ids.alice = a.agent.id;
  ids.bob = b.agent.id;
  ids.down = down.agent.id;
  hooks = await startWebhookReceiver();
  hooks.secret = (
    await createWebhook(hub.sql, { tenantId: acme.id, url: hooks.url, events: ['message.failed'] })
  ).secret;
  // Alice is connected too: task_update frames go to a task's sender.
  alice = await connectWsAgent(hub.url, keys.alice);
  bob = await connectWsAgent(hub.url, keys.bob);
  await until(() => hub.presence.isOnline(ids.alice) && hub.presence.isOnline(ids.bob));
});

afterAll(async () => {
  await alice?.close();
  await bob?.close();
  await hub?.stop();
  await hooks?.close();
  await nats?.close();
  await db?.drop();
});

// ---- what those clients do, in a few lines ----------------------------------------------------

interface WireTask {
  kind: string;
  id: string;
  contextId: string;
  status: { state: string; timestamp: string; message?: unknown };
  history: Array<{ kind: string; role: string; parts: Array<{ kind: string }> }>;
  artifacts: Array<{ parts: Array<{ kind: string }> }>;
}

async function call(method: string, params: unknown, key = keys.alice): Promise<unknown> {
  const r = await rpc(hub.url, key, method, params);
  expect(r.error, `${method} ${JSON.stringify(r.error)}`).toBeUndefined();
  return r.result;
}

async function sendToBob(body: string, extra: Record<string, unknown> = {}): Promise<WireTask> {
  return (await call('SendMessage', {
    message: text(body),
    configuration: { agentId: ids.bob },
    ...extra,
  })) as WireTask;
}

/** Bob's `message` frame of the task; then the frames he sends back for it. */
async function bobGets(taskId: string): Promise<Frame> {
  let frame: Frame | undefined;
  await until(() => {
    frame = bob.frames.find((f) => f.type === 'message' && f.taskId === taskId);
    return frame !== undefined;
  });
  return frame!;
}

/** Bob's `message` frame whose text is `body` (for sends whose task id the caller cannot see yet). */
async function bobGetsText(body: string): Promise<Frame> {
  const has = (f: Frame) =>
    f.type === 'message' &&
    (f.payload as { parts: Array<{ text?: string }> }).parts.some((p) => p.text === body);
  await until(() => bob.frames.some(has));
  return bob.frames.find(has)!;
}

function bobAnswers(taskId: string, state: string, message?: string, artifact?: unknown): void {
  bob.send({
    type: 'task_response',
    taskId,
    status: message === undefined ? { state } : { state, message },
    ...(artifact ? { artifact } : {}),
    lastChunk: artifact === undefined || (artifact as { last?: boolean }).last !== false,
  });
}

async function taskUpdate(taskId: string, state: string): Promise<WireTask> {
  let task: WireTask | undefined;
  await until(() => {
    task = alice.frames
      .filter((f) => f.type === 'task_update')
      .map((f) => f.task as WireTask)
      .find((t) => t.id === taskId && t.status.state === state);
    return task !== undefined;
  });
  return task!;
}

interface Sse {
  contentType: string;
  /** Every `data:` line as their client reads it (`line.startsWith('data: ')`). */
  lines: string[];
  results: Array<Record<string, unknown>>;
}

/** One streaming call as their TaskStream makes it, read to the end as raw text/event-stream. */
async function openSse(method: string, params: unknown): Promise<() => Promise<Sse>> {
  const res = await fetch(`${hub.url}/a2a`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${keys.alice}`,
      accept: 'text/event-stream',
      'a2a-version': '1.0',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: Date.now(), method, params }),
  });
  expect(res.status).toBe(200);
  return async () => {
    const raw = await res.text();
    const lines = raw.split('\n').filter((l) => l.startsWith('data:'));
    const results = lines.map((l) => {
      const msg = JSON.parse(l.slice(6)) as { result?: Record<string, unknown>; error?: unknown };
      expect(msg.error).toBeUndefined();
      return msg.result!;
    });
    return { contentType: res.headers.get('content-type') ?? '', lines, results };
  };
}

const WRAPPER_KEYS = ['task', 'message', 'statusUpdate', 'artifactUpdate'];

/** Every result is a wrapper with exactly one known key; returns those keys in order. */
function wrapperKeys(s: Sse): string[] {
  expect(s.contentType).toMatch(/^text\/event-stream/);
  expect(s.lines.every((l) => l.startsWith('data: '))).toBe(true);
  return s.results.map((r) => {
    const k = Object.keys(r);
    expect(k, JSON.stringify(r)).toHaveLength(1);
    expect(WRAPPER_KEYS).toContain(k[0]);
    return k[0]!;
  });
}

const states = (s: Sse) =>
  s.results.flatMap((r) => {
    const u = r.statusUpdate as { status: { state: string } } | undefined;
    return u ? [u.status.state] : [];
  });

/** What the Python and Go clients require of a status: a string message, or none. */
function expectStringStatus(t: WireTask): void {
  expect(['string', 'undefined'], JSON.stringify(t.status)).toContain(typeof t.status.message);
}

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

// ---- status.message ------------------------------------------------------------------------

describe('status.message is a string in the hub dialect', () => {
  let failedId = '';
  let canceledId = '';

  it('a failed task: GetTask, tasks/get and its task_update frame', async () => {
    const sent = await sendToBob('weather in Atlantis');
    failedId = sent.id;
    await bobGets(sent.id);
    bobAnswers(sent.id, 'failed', 'no such city');
    const frame = await taskUpdate(sent.id, 'failed');
    expect(frame.status.message).toBe('no such city');
    for (const method of ['GetTask', 'tasks/get']) {
      const t = (await call(method, { id: sent.id })) as WireTask;
      expect(t.status).toMatchObject({ state: 'failed', message: 'no such city' });
      // The structured messages stay where the dialect carries messages.
      expect(t.history[0]).toMatchObject({ kind: 'message', role: 'user' });
    }
  });

  it('a canceled task: CancelTask, GetTask, and the task_update frames of both parties', async () => {
    const sent = await sendToBob('a long job');
    canceledId = sent.id;
    await bobGets(sent.id);
    const canceled = (await call('tasks/cancel', { id: sent.id })) as WireTask;
    expect(canceled.status.state).toBe('canceled');
    expect(typeof canceled.status.message).toBe('string');
    const got = (await call('GetTask', { id: sent.id })) as WireTask;
    expect(got.status).toEqual(canceled.status);
    expect((await taskUpdate(sent.id, 'canceled')).status).toEqual(canceled.status);
    let toBob: Frame | undefined;
    await until(() => {
      toBob = bob.frames.find(
        (f) => f.type === 'task_update' && (f.task as WireTask).id === sent.id
      );
      return toBob !== undefined;
    });
    expect((toBob!.task as WireTask).status).toEqual(canceled.status);
  });

  it('every item of a ListTasks page (both method names), and a blocking SendMessage result', async () => {
    const asked = rpc(hub.url, keys.alice, 'message/send', {
      message: text('book a table'),
      configuration: { agentId: ids.bob, blocking: true },
    });
    const m = await bobGetsText('book a table');
    bobAnswers(m.taskId as string, 'input-required', 'for how many?');
    const answer = (await asked).result as unknown as WireTask;
    expect(answer.status).toMatchObject({ state: 'input-required', message: 'for how many?' });

    for (const method of ['ListTasks', 'tasks/list']) {
      // The list is an index written a moment after each change.
      let page: { tasks: WireTask[] } = { tasks: [] };
      await until(async () => {
        page = (await call(method, {})) as typeof page;
        const listed = new Set(page.tasks.map((t) => t.id));
        return [failedId, canceledId, answer.id].every((id) => listed.has(id));
      });
      for (const t of page.tasks) expectStringStatus(t);
      const byId = new Map(page.tasks.map((t) => [t.id, t]));
      expect(byId.get(failedId)?.status.message).toBe('no such city');
      expect(typeof byId.get(canceledId)?.status.message).toBe('string');
    }
    bobAnswers(answer.id, 'completed');
  });

  it('a failed task’s message.failed webhook carries the reason as a string, as GetTask does', async () => {
    const sent = (await call('SendMessage', {
      message: text('anyone there?'),
      configuration: { agentId: ids.down, 'x-ttl': 0 },
    })) as WireTask;
    await until(() => hooks.received.some((h) => h.json.data.taskId === sent.id));
    const hook = hooks.received.find((h) => h.json.data.taskId === sent.id)!;
    expect(hook.signatureValid).toBe(true);
    expect(hook.json.event).toBe('message.failed');
    const t = (await call('GetTask', { id: sent.id })) as WireTask;
    expect(t.status.state).toBe('failed');
    expect(typeof t.status.message).toBe('string');
    expect(hook.json.data.error).toBe(t.status.message);
    // No structured message anywhere in the payload.
    expect(hook.body).not.toContain('"parts"');
  });
});

// ---- SSE on /a2a -------------------------------------------------------------------------------

describe('SSE on /a2a: one wrapper per event, hub-dialect contents', () => {
  it('SendStreamingMessage: task, then statusUpdate/artifactUpdate until completed', async () => {
    const read = await openSse('SendStreamingMessage', {
      message: text('tell me a story'),
      configuration: { agentId: ids.bob },
    });
    const m = await bobGetsText('tell me a story');
    const taskId = m.taskId as string;
    const chunk = (t: string, last: boolean) => ({
      artifactId: 'story',
      name: 'story',
      parts: [{ kind: 'text', text: t }],
      last,
    });
    bobAnswers(taskId, 'working', 'writing', chunk('Once upon a time', false));
    bobAnswers(taskId, 'completed', 'the end', chunk('they lived happily.', true));
    const s = await read();

    const keysSeen = wrapperKeys(s);
    expect(keysSeen[0]).toBe('task');
    expect(keysSeen).toContain('artifactUpdate');
    expect(keysSeen.at(-1)).toBe('statusUpdate');
    const first = s.results[0]!.task as WireTask;
    expect(first).toMatchObject({ kind: 'task', id: taskId, status: { state: 'submitted' } });
    expect(first.history[0]?.parts[0]).toMatchObject({ kind: 'text' });
    expect(states(s)[0]).toBe('working');
    expect(states(s).at(-1)).toBe('completed');
    const updates = s.results.flatMap((r) =>
      r.statusUpdate ? [r.statusUpdate as { taskId: string; status: WireTask['status'] }] : []
    );
    for (const u of updates) {
      expect(u.taskId).toBe(taskId);
      expect(['string', 'undefined']).toContain(typeof u.status.message);
    }
    expect(updates.at(-1)?.status.message).toBe('the end');
    const artifacts = s.results.flatMap((r) =>
      r.artifactUpdate
        ? [r.artifactUpdate as { artifact: { parts: Array<{ kind: string; text: string }> } }]
        : []
    );
    expect(artifacts.flatMap((a) => a.artifact.parts)).toEqual([
      { kind: 'text', text: 'Once upon a time' },
      { kind: 'text', text: 'they lived happily.' },
    ]);
  });

  it('message/stream of a task that fails: the failure reason is a string', async () => {
    const read = await openSse('message/stream', {
      message: text('doomed'),
      configuration: { agentId: ids.bob },
    });
    const m = await bobGetsText('doomed');
    bobAnswers(m.taskId as string, 'failed', 'out of ink');
    const s = await read();
    expect(wrapperKeys(s)).toEqual(['task', 'statusUpdate', 'statusUpdate']);
    expect(states(s)).toEqual(['working', 'failed']);
    expect(s.results.at(-1)).toMatchObject({
      statusUpdate: { status: { state: 'failed', message: 'out of ink' } },
    });
  });

  it('SubscribeToTask and tasks/resubscribe: the task as it stands, then its updates', async () => {
    for (const method of ['SubscribeToTask', 'tasks/resubscribe']) {
      const sent = await sendToBob(`follow me ${method}`);
      await bobGets(sent.id);
      bobAnswers(sent.id, 'working');
      await taskUpdate(sent.id, 'working');
      const read = await openSse(method, { id: sent.id });
      bobAnswers(sent.id, 'completed', 'done');
      const s = await read();
      const k = wrapperKeys(s);
      expect(k[0]).toBe('task');
      expect(s.results[0]).toMatchObject({ task: { id: sent.id, status: { state: 'working' } } });
      expect(s.results.at(-1)).toMatchObject({
        statusUpdate: { taskId: sent.id, status: { state: 'completed', message: 'done' } },
      });
    }
  });
});

// ---- message.metadata ------------------------------------------------------------------------

describe('message.metadata reaches the recipient', () => {
  it('in the message frame’s metadata (beside the hub’s own x-hub) and in its payload', async () => {
    const metadata = { trace: 'abc-123', priority: 2, nested: { lang: 'fr' } };
    const sent = (await call('SendMessage', {
      message: {
        ...text('with metadata'),
        metadata: { ...metadata, 'x-hub': forgedEnvelope(ids.bob) },
      },
      configuration: { agentId: ids.bob },
    })) as WireTask;
    const frame = await bobGets(sent.id);
    const got = frame.metadata as Record<string, unknown> & {
      'x-hub': { sender: { agentId: string }; kid: string };
    };
    expect(got).toMatchObject(metadata);
    // A sender cannot pass its own envelope off as the hub's.
    expect(got['x-hub'].sender.agentId).toBe(ids.alice);
    expect(got['x-hub'].kid).not.toBe('fake');
    expect((frame.payload as { metadata?: unknown }).metadata).toEqual(metadata);
    expect(JSON.stringify(frame)).not.toContain('agent-forged');
    bobAnswers(sent.id, 'completed');
  });

  it('a message without metadata still carries only x-hub in the frame', async () => {
    const sent = await sendToBob('no metadata');
    const frame = await bobGets(sent.id);
    expect(Object.keys(frame.metadata as object)).toEqual(['x-hub']);
    expect(frame.payload).not.toHaveProperty('metadata');
    bobAnswers(sent.id, 'completed');
  });
});
