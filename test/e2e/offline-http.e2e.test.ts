// Offline delivery to HTTP (webhook) agents through a running hub (spec "States and transitions",
// "Endpoints" rule 6; decisions.md §3): when the agent's endpoint does not answer (nothing
// listening, a 5xx, or no answer within HTTP_AGENT_TIMEOUT_MS) the task stays `submitted` and the
// message stays queued, retried every QUEUE_HTTP_RETRY_MS until the endpoint answers (then it is
// delivered, in the order sent, and the task completes) or its TTL runs out (then it is never
// delivered and the task fails). CancelTask purges a queued message. Agents are real node:http
// servers started and stopped on a fixed port.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliverPolicy } from '@nats-io/jetstream';
import { partitionsSettled, testHubConfig, until } from '../support/test-hub.js';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { freePorts } from '../support/nats-process.js';
import { rpc, text, type RpcResult } from '../support/rpc.js';
import { silentLogger } from '../../runtime/log/index.js';
import { decodeHubEvent, streams, subjects, type HubEvent } from '../../runtime/bus/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant } from '../../infra/db/index.js';

const ADMIN = 'admin-token-for-http-queue-tests';
const RETRY_MS = 500;
const TIMEOUT_MS = 1000;

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
const servers: Server[] = [];

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(
    testHubConfig(nats, db, {
      PARTITIONS: '4',
      ADMIN_TOKEN: ADMIN,
      QUEUE_HTTP_RETRY_MS: String(RETRY_MS),
      HTTP_AGENT_TIMEOUT_MS: String(TIMEOUT_MS),
      QUEUE_DRAIN_PER_SECOND: '20',
    }),
    silentLogger
  );
  await partitionsSettled([hub], 4);
});

afterAll(async () => {
  for (const s of servers) await stopServer(s);
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

// ---- an HTTP agent that can be down, failing, hanging or answering ----------------------------

interface Seen {
  at: number;
  method: string;
  taskId: string | undefined;
  text: string | undefined;
  body: Record<string, unknown>;
}

type Behaviour = (seen: Seen, res: ServerResponse) => void;

const answer: Behaviour = (seen, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({ jsonrpc: '2.0', id: seen.body.id, result: `http agent got: ${seen.text}` })
  );
};

const CARD = {
  name: 'Webhook Agent',
  description: 'answers when it is up',
  url: 'x',
  version: '1.0.0',
  capabilities: { streaming: false, pushNotifications: false },
  skills: [],
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let s = '';
    req.on('data', (c: Buffer) => (s += c.toString()));
    req.on('end', () => resolve(s));
  });
}

/** Listens on `port`; every POST is recorded in `seen` and answered by `behave`. */
async function startAgentServer(port: number, seen: Seen[], behave: Behaviour): Promise<Server> {
  const server = createServer((req, res) => {
    void (async () => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(CARD));
        return;
      }
      const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      const params = (body.params ?? {}) as {
        message?: { parts?: Array<{ text?: string }> };
        configuration?: { taskId?: string };
        id?: string;
      };
      const s: Seen = {
        at: Date.now(),
        method: String(body.method),
        taskId: params.configuration?.taskId ?? params.id,
        text: params.message?.parts?.[0]?.text,
        body,
      };
      seen.push(s);
      behave(s, res);
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  servers.push(server);
  return server;
}

async function stopServer(server: Server): Promise<void> {
  const i = servers.indexOf(server);
  if (i >= 0) servers.splice(i, 1);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

interface Setup {
  tenantId: string;
  senderKey: string;
  senderId: string;
  agentId: string;
  port: number;
}

let teams = 0;
/** A tenant with a WebSocket sender and an HTTP agent registered at a port nobody listens on. */
async function setup(): Promise<Setup> {
  const [port] = await freePorts(1);
  const url = `http://127.0.0.1:${port}/a2a`;
  const t = await createTenant(hub.sql, { name: `Http Queue ${++teams} ${randomUUID()}` });
  const sender = await createAgent(hub.sql, { tenantId: t.id, name: 'sender' });
  const agent = await createAgent(hub.sql, {
    tenantId: t.id,
    name: 'webhook',
    url,
    card: { ...CARD, url },
  });
  return {
    tenantId: t.id,
    senderKey: sender.apiKey,
    senderId: sender.agent.id,
    agentId: agent.agent.id,
    port: port!,
  };
}

// ---- hub helpers --------------------------------------------------------------------------------

interface TaskView {
  id: string;
  contextId: string;
  status: { state: string; message?: string };
  artifacts?: Array<{ parts: Array<{ text?: string }> }>;
}

function send(s: Setup, body: string, ttl?: number): Promise<RpcResult> {
  return rpc(hub.url, s.senderKey, 'SendMessage', {
    message: { ...text(body), messageId: randomUUID() },
    configuration: { agentId: s.agentId, ...(ttl !== undefined ? { 'x-ttl': ttl } : {}) },
  });
}

async function getTask(s: Setup, id: string): Promise<TaskView> {
  const g = await rpc(hub.url, s.senderKey, 'GetTask', { id, historyLength: 0 });
  expect(g.error, `GetTask ${id}`).toBeUndefined();
  return g.result as unknown as TaskView;
}

/** Sends and expects the task back `submitted` (the endpoint is down or not yet answering). */
async function sendQueued(s: Setup, body: string, ttl?: number): Promise<TaskView> {
  const r = await send(s, body, ttl);
  expect(r.error, `sending "${body}"`).toBeUndefined();
  const task = r.result as unknown as TaskView;
  expect(task.status.state).toBe('submitted');
  return task;
}

async function waitState(s: Setup, id: string, state: string, ms = 15_000): Promise<TaskView> {
  let last: TaskView | undefined;
  try {
    await until(async () => {
      last = await getTask(s, id);
      return last.status.state === state;
    }, ms);
  } catch {
    throw new Error(`task ${id} is ${JSON.stringify(last?.status)}, expected ${state}`);
  }
  return last!;
}

interface QueueInfo {
  pending: number;
  /** Failed delivery attempts. */
  failed: number;
}

async function queueInfo(agentId: string): Promise<QueueInfo> {
  const r = await fetch(`${hub.url}/debug/queues/${agentId}`, {
    headers: { authorization: `Bearer ${ADMIN}` },
  });
  expect(r.status).toBe(200);
  return (await r.json()) as QueueInfo;
}

async function pendingOf(agentId: string): Promise<number> {
  return (await queueInfo(agentId)).pending;
}

async function failedEvents(tenantId: string): Promise<HubEvent[]> {
  const consumer = await hub.bus.js.consumers.get(streams.events, {
    filter_subjects: subjects.hubEvent(tenantId, 'message.failed'),
    deliver_policy: DeliverPolicy.All,
  });
  const out: HubEvent[] = [];
  if ((await consumer.info()).num_pending === 0) return out;
  const msgs = await consumer.consume();
  for await (const m of msgs) {
    out.push(decodeHubEvent(m.data));
    if (m.info.pending === 0) break;
  }
  await msgs.close();
  return out;
}

const sends = (seen: Seen[]) => seen.filter((x) => x.method === 'SendMessage');

/**
 * A fence for "nothing more is delivered": once the agent's queue is empty, one more message is
 * sent and awaited at the endpoint. A message still kept for a retry would hold the queue (pending
 * never 0), and one queued again would be delivered before the fence (FIFO per pair). Returns the
 * SendMessage calls seen before the fence.
 */
async function fence(s: Setup, seen: Seen[]): Promise<Seen[]> {
  try {
    await until(async () => (await pendingOf(s.agentId)) === 0);
  } catch {
    throw new Error(`the queue is not empty: ${JSON.stringify(await queueInfo(s.agentId))}`);
  }
  const body = `fence ${randomUUID()}`;
  const r = await send(s, body);
  expect(r.error, 'sending the fence').toBeUndefined();
  await until(() => sends(seen).some((x) => x.text === body));
  return sends(seen).filter((x) => x.text !== body);
}
const statusText = (t: TaskView) => t.status.message;

// ---- tests --------------------------------------------------------------------------------------

describe('an HTTP agent whose endpoint is down', () => {
  it('keeps the tasks submitted while nothing listens, then delivers in order once it does', async () => {
    const s = await setup();
    const sent: TaskView[] = [];
    for (const body of ['one', 'two', 'three']) sent.push(await sendQueued(s, body));
    // Several attempts fail with nobody listening.
    await until(async () => (await queueInfo(s.agentId)).failed >= 3);
    for (const t of sent) expect((await getTask(s, t.id)).status.state).toBe('submitted');
    expect(await pendingOf(s.agentId)).toBe(3);

    const seen: Seen[] = [];
    await startAgentServer(s.port, seen, answer);
    for (const t of sent) {
      const done = await waitState(s, t.id, 'completed');
      expect(done.artifacts?.[0]?.parts[0]?.text).toMatch(/^http agent got: /);
    }
    const got = await fence(s, seen);
    expect(got.map((x) => x.text)).toEqual(['one', 'two', 'three']);
    expect(got.map((x) => x.taskId)).toEqual(sent.map((t) => t.id));
    expect(got[0]!.body).toMatchObject({
      params: { 'x-hub': { sender: { agentId: s.senderId }, recipient: { agentId: s.agentId } } },
    });
    for (const t of sent) {
      expect((await getTask(s, t.id)).artifacts?.[0]?.parts[0]?.text).toBe(
        `http agent got: ${sends(seen).find((x) => x.taskId === t.id)!.text}`
      );
    }
    expect(await pendingOf(s.agentId)).toBe(0);
  });

  it('retries after 5xx answers, about every QUEUE_HTTP_RETRY_MS, until one succeeds', async () => {
    const s = await setup();
    const seen: Seen[] = [];
    const FAILURES = 3;
    await startAgentServer(s.port, seen, (x, res) => {
      if (sends(seen).length <= FAILURES) {
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end('maintenance');
      } else answer(x, res);
    });
    const task = await sendQueued(s, 'through the outage');
    await until(() => sends(seen).length >= 2);
    expect((await getTask(s, task.id)).status.state).toBe('submitted');

    await waitState(s, task.id, 'completed');
    const attempts = sends(seen);
    expect(attempts.length).toBeGreaterThanOrEqual(FAILURES + 1);
    expect(new Set(attempts.map((x) => x.taskId))).toEqual(new Set([task.id]));
    // Loose lower bound on the spacing: the first attempt may be the direct one, then retries.
    const span = attempts.at(-1)!.at - attempts[0]!.at;
    expect(span).toBeGreaterThanOrEqual((attempts.length - 2) * RETRY_MS * 0.8);
    // Once it succeeded, no more deliveries.
    expect(await fence(s, seen)).toHaveLength(attempts.length);
  });

  it('treats no answer within HTTP_AGENT_TIMEOUT_MS as down and retries', async () => {
    const s = await setup();
    const seen: Seen[] = [];
    const hung: ServerResponse[] = [];
    await startAgentServer(s.port, seen, (x, res) => {
      if (sends(seen).length === 1) hung.push(res);
      else answer(x, res);
    });
    const task = await sendQueued(s, 'are you there');
    await until(() => sends(seen).length >= 1);
    // While the first request hangs (before HTTP_AGENT_TIMEOUT_MS) the task is still submitted.
    expect((await getTask(s, task.id)).status.state).toBe('submitted');

    const done = await waitState(s, task.id, 'completed');
    expect(done.artifacts?.[0]?.parts[0]?.text).toBe('http agent got: are you there');
    const attempts = sends(seen);
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(TIMEOUT_MS * 0.8);
    expect(new Set(attempts.map((x) => x.taskId))).toEqual(new Set([task.id]));
    for (const res of hung) res.destroy();
  });

  it('queues a call that failed at once behind an earlier call of the pair still waiting for an answer', async () => {
    // A call into a cut network waits out HTTP_AGENT_TIMEOUT_MS; the next one fails at once. The
    // later message must not be queued, and so delivered, first (FIFO per sender → recipient).
    const s = await setup();
    const seen: Seen[] = [];
    const answered: string[] = [];
    const hung: ServerResponse[] = [];
    await startAgentServer(s.port, seen, (x, res) => {
      const tries = sends(seen).filter((y) => y.text === x.text).length;
      if (x.text === 'first' && tries === 1) {
        hung.push(res);
      } else if (x.text === 'second' && tries === 1) {
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end('not now');
      } else {
        answered.push(x.text!);
        answer(x, res);
      }
    });
    const first = await sendQueued(s, 'first');
    await until(() => sends(seen).length >= 1);
    const second = await sendQueued(s, 'second');
    await waitState(s, first.id, 'completed');
    await waitState(s, second.id, 'completed');
    expect(answered).toEqual(['first', 'second']);
    for (const res of hung) res.destroy();
  });

  it('never delivers a message whose TTL ran out while the endpoint was down', async () => {
    const s = await setup();
    const expiring = await sendQueued(s, 'short-lived', 1);
    // A retry finds its 1 s TTL run out (the hub runs on the real clock), drops it and fails it.
    await waitState(s, expiring.id, 'failed');
    const keeper = await sendQueued(s, 'long-lived', 600);

    const seen: Seen[] = [];
    await startAgentServer(s.port, seen, answer);
    await waitState(s, keeper.id, 'completed');
    expect((await fence(s, seen)).map((x) => x.text)).toEqual(['long-lived']);

    const failed = await waitState(s, expiring.id, 'failed');
    expect(statusText(failed)).toMatch(/expir/i);
    let events: HubEvent[] = [];
    await until(async () => {
      events = await failedEvents(s.tenantId);
      return events.some((e) => (e.data as { taskId?: string }).taskId === expiring.id);
    }, 10_000);
    expect(
      events.find((e) => (e.data as { taskId?: string }).taskId === expiring.id)!.data
    ).toEqual({
      taskId: expiring.id,
      contextId: expiring.contextId,
      from: s.senderId,
      to: s.agentId,
      error: expect.any(String),
    });
  });

  it('purges a queued message the sender cancels; the agent never receives it', async () => {
    const s = await setup();
    const canceled = await sendQueued(s, 'never mind');
    const kept = await sendQueued(s, 'still wanted');
    const c = await rpc(hub.url, s.senderKey, 'CancelTask', { id: canceled.id });
    expect(c.result).toMatchObject({ status: { state: 'canceled' } });
    expect(await pendingOf(s.agentId)).toBe(1);

    const seen: Seen[] = [];
    await startAgentServer(s.port, seen, answer);
    await waitState(s, kept.id, 'completed');
    expect((await fence(s, seen)).map((x) => x.taskId)).toEqual([kept.id]);
    expect((await getTask(s, canceled.id)).status.state).toBe('canceled');
  });

  it('does not retry an endpoint that answered with a JSON-RPC error: the task fails', async () => {
    const s = await setup();
    const seen: Seen[] = [];
    await startAgentServer(s.port, seen, (x, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: x.body.id,
          error: { code: -32000, message: 'I refuse' },
        })
      );
    });
    const r = await send(s, 'refused');
    expect(r.error).toBeUndefined();
    const id = (r.result as { id: string }).id;
    const failed = await waitState(s, id, 'failed');
    expect(statusText(failed)).toMatch(/I refuse/);
    expect(await fence(s, seen)).toHaveLength(1);
  });
});
