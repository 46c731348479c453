// Offline delivery to WebSocket agents through a running hub (spec "States and transitions",
// "Endpoints" rule 6, "Errors", "Limits"; decisions.md §2, §6–§8): a message to an agent with no
// live socket is queued (task `submitted`), drained right after `welcome` in the order sent and at
// the configured pace, refused with -32011/-32012/-32013/-32014 leaving nothing behind, expired by
// its effective TTL (on connect and by the cleanup), purged by CancelTask, kept once per messageId,
// visible in /metrics and /debug/queues, and kept across a hub restart.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliverPolicy } from '@nats-io/jetstream';
import { partitionsSettled, testHubConfig, until } from '../support/test-hub.js';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { connectWsAgent, type Frame, type TestWsAgent } from '../support/ws-agent.js';
import { rpc, text, type RpcResult } from '../support/rpc.js';
import { silentLogger } from '../../runtime/log/index.js';
import { decodeHubEvent, streams, subjects, type HubEvent } from '../../runtime/bus/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant } from '../../infra/db/index.js';

const ADMIN = 'admin-token-for-queue-tests-0123';
const DRAIN_PER_SECOND = 5;
const SENDER_MAX = 6;
const TENANT_MAX = 30;
const OVERRIDES = {
  PARTITIONS: '4',
  ADMIN_TOKEN: ADMIN,
  // The gauges below are read per recipient and tenant.
  METRICS_PER_AGENT: 'true',
  QUEUE_DRAIN_PER_SECOND: String(DRAIN_PER_SECOND),
  QUEUE_SENDER_MAX_PENDING: String(SENDER_MAX),
  QUEUE_TENANT_MAX_PENDING: String(TENANT_MAX),
  QUEUE_BUSY_RETRY_MS: '200',
};

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
const open: TestWsAgent[] = [];

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db, OVERRIDES), silentLogger);
  await partitionsSettled([hub], 4);
});

afterAll(async () => {
  for (const a of open) await a.close().catch(() => undefined);
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

// ---- helpers ------------------------------------------------------------------------------------

interface Team {
  tenantId: string;
  key: Record<string, string>;
  id: Record<string, string>;
}

let teams = 0;
/** A fresh tenant with the named (private, WebSocket) agents, so tests never share a queue. */
async function team(...names: string[]): Promise<Team> {
  const t = await createTenant(hub.sql, { name: `Queue Team ${++teams} ${randomUUID()}` });
  const out: Team = { tenantId: t.id, key: {}, id: {} };
  for (const name of names) {
    const c = await createAgent(hub.sql, { tenantId: t.id, name });
    out.key[name] = c.apiKey;
    out.id[name] = c.agent.id;
  }
  return out;
}

interface TaskView {
  id: string;
  contextId: string;
  status: { state: string; message?: string };
  artifacts?: unknown[];
}

interface SendOpts {
  ttl?: number;
  blocking?: boolean;
  messageId?: string;
  contextId?: string;
}

function send(key: string, to: string, body: string, o: SendOpts = {}): Promise<RpcResult> {
  return rpc(hub.url, key, 'SendMessage', {
    message: {
      ...text(body),
      messageId: o.messageId ?? randomUUID(),
      ...(o.contextId !== undefined ? { contextId: o.contextId } : {}),
    },
    configuration: {
      agentId: to,
      ...(o.ttl !== undefined ? { 'x-ttl': o.ttl } : {}),
      ...(o.blocking !== undefined ? { blocking: o.blocking } : {}),
    },
  });
}

/** Sends and expects a queued task (`submitted`); returns it. */
async function sendQueued(key: string, to: string, body: string, o: SendOpts = {}) {
  const r = await send(key, to, body, o);
  expect(r.error, `sending "${body}"`).toBeUndefined();
  const task = r.result as unknown as TaskView;
  expect(task.status.state, `sending "${body}"`).toBe('submitted');
  return task;
}

async function getTask(key: string, id: string): Promise<TaskView> {
  const g = await rpc(hub.url, key, 'GetTask', { id, historyLength: 0 });
  expect(g.error, `GetTask ${id}`).toBeUndefined();
  return g.result as unknown as TaskView;
}

async function waitState(key: string, id: string, state: string, ms = 15_000): Promise<TaskView> {
  let last: TaskView | undefined;
  try {
    await until(async () => {
      last = await getTask(key, id);
      return last.status.state === state;
    }, ms);
  } catch {
    throw new Error(`task ${id} is ${JSON.stringify(last?.status)}, expected ${state}`);
  }
  return last!;
}

const statusText = (t: TaskView) => t.status.message;

/** Tasks visible to the caller in a context, as the index reports them. */
async function tasksIn(key: string, contextId: string): Promise<unknown[]> {
  const l = await rpc(hub.url, key, 'tasks/list', { contextId });
  expect(l.error).toBeUndefined();
  return (l.result as { tasks: unknown[] }).tasks;
}

interface QueueInfo {
  recipientId: string;
  pending: number;
  oldestAgeMs: number | null;
  state: string;
  delivered: number;
  head: Array<{ taskId: string; expiresAt: number }>;
}

async function queueInfo(agentId: string): Promise<QueueInfo> {
  const r = await fetch(`${hub.url}/debug/queues/${agentId}`, {
    headers: { authorization: `Bearer ${ADMIN}` },
  });
  expect(r.status, `GET /debug/queues/${agentId}`).toBe(200);
  return (await r.json()) as QueueInfo;
}

/** The value of a gauge sample with the given label, or undefined when no such sample exists. */
async function gauge(name: string, label: string, value: string): Promise<number | undefined> {
  const body = await (
    await fetch(`${hub.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } })
  ).text();
  for (const line of body.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const m = /^[^{]+\{([^}]*)\}\s+(\S+)/.exec(line);
    if (m && m[1]!.split(',').includes(`${label}="${value}"`)) return Number(m[2]);
  }
  return undefined;
}

async function waitGauge(name: string, label: string, value: string, expected: number) {
  let last: number | undefined;
  try {
    await until(async () => {
      last = await gauge(name, label, value);
      return expected === 0 ? (last ?? 0) === 0 : last === expected;
    }, 10_000);
  } catch {
    throw new Error(`${name}{${label}="${value}"} is ${last}, expected ${expected}`);
  }
}

/** Every message.failed event stored for the tenant. */
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

async function waitFailedEvent(tenantId: string, match: (d: Record<string, unknown>) => boolean) {
  let found: HubEvent | undefined;
  await until(async () => {
    found = (await failedEvents(tenantId)).find((e) => match(e.data as Record<string, unknown>));
    return found !== undefined;
  }, 10_000).catch(() => {
    throw new Error(`no matching message.failed event for tenant ${tenantId}`);
  });
  return found!;
}

async function connect(key: string): Promise<TestWsAgent> {
  const a = await connectWsAgent(hub.url, key);
  open.push(a);
  return a;
}

/** Connects and stamps the arrival time of every frame seen once the socket is open. */
async function connectTimed(
  key: string
): Promise<{ agent: TestWsAgent; arrivals: Map<Frame, number> }> {
  const agent = await connectWsAgent(hub.url, key, { waitWelcome: false });
  open.push(agent);
  const arrivals = new Map<Frame, number>();
  // Registered after the helper's own listener, so the newest frame is already recorded.
  agent.ws.on('message', () => arrivals.set(agent.frames.at(-1)!, Date.now()));
  await agent.next('welcome');
  return { agent, arrivals };
}

async function disconnect(agent: TestWsAgent, agentId: string): Promise<void> {
  await agent.close();
  await until(() => !hub.presence.isOnline(agentId));
}

const messages = (a: TestWsAgent) => a.frames.filter((f) => f.type === 'message');
const bodyOf = (f: Frame) => (f.payload as { parts: Array<{ text: string }> }).parts[0]!.text;

async function waitMessages(a: TestWsAgent, n: number, ms = 15_000): Promise<Frame[]> {
  try {
    await until(() => messages(a).length >= n, ms);
  } catch {
    throw new Error(`got ${messages(a).length} message frames, expected ${n}`);
  }
  return messages(a);
}

/**
 * Until the hub's clock has passed the expiry it recorded for each of `taskIds` queued for
 * `recipientId`. The TTL must elapse on the running hub's real clock (simulated time would stop
 * its NATS and database clients too); this waits for that instant, not a guessed margin past it.
 */
async function untilExpired(recipientId: string, taskIds: string[]): Promise<void> {
  const { head } = await queueInfo(recipientId);
  const at = head.filter((e) => taskIds.includes(e.taskId)).map((e) => e.expiresAt);
  expect(at).toHaveLength(taskIds.length);
  const last = Math.max(...at);
  await until(() => Date.now() >= last, 5_000);
}

/**
 * A fence for "nothing more arrives": once the recipient's queue is empty, a message from each
 * sender is sent and awaited. Delivery is FIFO per sender and recipient, so any earlier message of
 * those senders that was still to come would have arrived before its fence. Returns the message
 * frames that came before the fences (the fences are answered and left out).
 */
async function fence(a: TestWsAgent, recipientId: string, senderKeys: string[]): Promise<Frame[]> {
  await until(async () => (await queueInfo(recipientId)).pending === 0);
  const bodies = new Set<string>();
  for (const key of senderKeys) {
    const body = `fence ${randomUUID()}`;
    bodies.add(body);
    const r = await send(key, recipientId, body);
    expect(r.error, `sending the fence "${body}"`).toBeUndefined();
  }
  const isFence = (f: Frame) => bodies.has(bodyOf(f));
  try {
    await until(() => messages(a).filter(isFence).length === bodies.size);
  } catch {
    throw new Error(
      `the fences did not arrive; frames: ${JSON.stringify(messages(a).map(bodyOf))}`
    );
  }
  for (const f of messages(a).filter(isFence)) respond(a, f.taskId);
  return messages(a).filter((f) => !isFence(f));
}

/**
 * Wait until the tasks index holds `task` (sent after the refusals being checked): the node's
 * one index writer writes in arrival order, so a row for an earlier refused message would be there.
 */
async function indexFence(key: string, task: { contextId: string }): Promise<void> {
  await until(async () => (await tasksIn(key, task.contextId)).length > 0);
}

function respond(a: TestWsAgent, taskId: unknown, reply = 'done'): void {
  a.send({
    type: 'task_response',
    taskId,
    status: { state: 'completed' },
    artifact: { artifactId: 'r', parts: [{ kind: 'text', text: reply }] },
    lastChunk: true,
  });
}

/** States announced to a sender, in order, for one task. */
const updatesFor = (sender: TestWsAgent, taskId: string) =>
  sender.frames
    .filter((f) => f.type === 'task_update' && (f.task as TaskView).id === taskId)
    .map((f) => (f.task as TaskView).status.state);

// ---- tests --------------------------------------------------------------------------------------

describe('sending to an offline WebSocket agent', () => {
  it('answers submitted at once, also with blocking: true, and the task stays submitted', async () => {
    const t = await team('alice', 'bob');
    const blocking = await sendQueued(t.key.alice!, t.id.bob!, 'blocking one', { blocking: true });
    const plain = await sendQueued(t.key.alice!, t.id.bob!, 'plain one', { ttl: 60 });
    expect(blocking.id).toMatch(/^task-/);
    expect(plain.id).not.toBe(blocking.id);
    // Both are stored in the queue before their states are read again.
    expect(await queueInfo(t.id.bob!)).toMatchObject({ recipientId: t.id.bob, pending: 2 });
    expect((await getTask(t.key.alice!, blocking.id)).status.state).toBe('submitted');
    expect((await getTask(t.key.alice!, plain.id)).status.state).toBe('submitted');
    // The recipient can read the tasks it has not been given yet.
    expect((await getTask(t.key.bob!, plain.id)).status.state).toBe('submitted');

    const bob = await connect(t.key.bob!);
    const got = await waitMessages(bob, 2);
    expect(got.map(bodyOf)).toEqual(['blocking one', 'plain one']);
    for (const m of got) respond(bob, m.taskId);
    await waitState(t.key.alice!, blocking.id, 'completed');
    await waitState(t.key.alice!, plain.id, 'completed');
  });

  it('drains right after welcome in the order sent, paced, each task working then completed', async () => {
    const t = await team('alice', 'bob', 'carol');
    const alice = await connect(t.key.alice!);
    const bob = await connect(t.key.bob!);
    const senders = { alice, bob };
    // Two senders interleaved, each up to its per-recipient limit: FIFO is per recipient.
    const sent: Array<{ id: string; by: 'alice' | 'bob'; body: string }> = [];
    for (let i = 0; i < 2 * SENDER_MAX; i++) {
      const by = i % 2 === 0 ? 'alice' : 'bob';
      const body = `m${i} from ${by}`;
      const task = await sendQueued(t.key[by]!, t.id.carol!, body);
      sent.push({ id: task.id, by, body });
    }
    expect((await queueInfo(t.id.carol!)).pending).toBe(sent.length);
    for (const s of sent)
      expect((await getTask(t.key[s.by]!, s.id)).status.state).toBe('submitted');

    const { agent: carol, arrivals } = await connectTimed(t.key.carol!);
    expect(carol.frames[0]).toEqual({ type: 'welcome', agentId: t.id.carol });
    await waitMessages(carol, 1);
    // Paced: when the first has arrived, the last is still waiting in the queue.
    expect((await getTask(t.key.bob!, sent.at(-1)!.id)).status.state).toBe('submitted');
    // Mid-drain, the queue reports what it has delivered and what is left.
    await waitMessages(carol, 3);
    let mid = await queueInfo(t.id.carol!);
    await until(async () => (mid = await queueInfo(t.id.carol!)).delivered >= 3, 2_000);
    expect(mid.pending).toBeGreaterThan(0);
    expect(mid.pending).toBeLessThanOrEqual(sent.length - 3);
    expect(['draining', 'waiting']).toContain(mid.state);

    const got = await waitMessages(carol, sent.length);
    expect(got.map(bodyOf)).toEqual(sent.map((s) => s.body));
    expect(got.map((m) => m.taskId)).toEqual(sent.map((s) => s.id));
    expect(got.map((m) => m.from)).toEqual(sent.map((s) => t.id[s.by]));
    for (const m of got) {
      expect(m).toMatchObject({
        contextId: expect.any(String),
        payload: { role: 'user', parts: [{ kind: 'text' }] },
        metadata: { 'x-hub': { recipient: { agentId: t.id.carol } } },
      });
    }
    // No message frame came before welcome.
    expect(carol.frames.findIndex((f) => f.type === 'message')).toBeGreaterThan(0);
    // Loose lower bound on the pace: even after a full second's burst, the rest are spaced.
    const at = got.map((m) => arrivals.get(m)).filter((x): x is number => x !== undefined);
    expect(at.length).toBeGreaterThanOrEqual(sent.length - 1);
    const spanMs = at.at(-1)! - at[0]!;
    const minSpan = ((at.length - 1 - DRAIN_PER_SECOND) / DRAIN_PER_SECOND) * 1000 * 0.8;
    expect(spanMs).toBeGreaterThanOrEqual(minSpan);

    // Delivered means working; the reply completes each task and its sender hears of both.
    for (const s of sent) expect((await getTask(t.key[s.by]!, s.id)).status.state).toBe('working');
    for (const m of got) respond(carol, m.taskId, `re ${bodyOf(m)}`);
    for (const s of sent) {
      const done = await waitState(t.key[s.by]!, s.id, 'completed');
      expect(done.artifacts).toMatchObject([{ parts: [{ text: `re ${s.body}` }] }]);
    }
    for (const s of sent) {
      const sender = senders[s.by];
      await until(() => updatesFor(sender, s.id).includes('completed'));
      const states = updatesFor(sender, s.id);
      expect(states.indexOf('working'), `${s.body}: ${states.join(',')}`).toBeGreaterThanOrEqual(0);
      expect(states.indexOf('working')).toBeLessThan(states.indexOf('completed'));
    }
    expect((await queueInfo(t.id.carol!)).pending).toBe(0);

    // Delivered messages are gone from the queue: a new connection gets none of them again.
    await disconnect(carol, t.id.carol!);
    const again = await connect(t.key.carol!);
    expect(await fence(again, t.id.carol!, [t.key.alice!, t.key.bob!])).toEqual([]);
  });

  it('refuses x-ttl 0 with -32011: no task, nothing queued, a message.failed event', async () => {
    const t = await team('alice', 'bob');
    const contextId = `ctx-${randomUUID()}`;
    const r = await send(t.key.alice!, t.id.bob!, 'now or never', { ttl: 0, contextId });
    expect(r.status).toBe(200);
    expect(r.error?.code).toBe(-32011);
    expect(r.result).toBeUndefined();

    const ev = await waitFailedEvent(t.tenantId, (d) => d.contextId === contextId);
    expect(ev.event).toBe('message.failed');
    expect(ev.data).toMatchObject({ contextId, from: t.id.alice, to: t.id.bob });
    const error = (ev.data as { error: unknown }).error;
    expect(typeof error).toBe('string');
    expect((error as string).length).toBeGreaterThan(0);
    expect(Date.parse(ev.timestamp)).not.toBeNaN();
    // The event and the error name the id the task would have had; no task has it.
    const wouldBe = (r.error?.data as { taskId?: unknown } | undefined)?.taskId;
    expect(wouldBe).toMatch(/^task-[0-9a-f]{4}/);
    expect(ev.data).toMatchObject({ taskId: wouldBe });
    const g = await rpc(hub.url, t.key.alice, 'GetTask', { id: wouldBe });
    expect(g.error?.code).toBe(-32001);

    // A message that may be queued, sent afterwards, shows that the queue drains on connect.
    const control = await sendQueued(t.key.alice!, t.id.bob!, 'control');
    expect((await queueInfo(t.id.bob!)).pending).toBe(1);
    await indexFence(t.key.alice!, control);
    expect(await tasksIn(t.key.alice!, contextId)).toEqual([]);
    expect(await tasksIn(t.key.bob!, contextId)).toEqual([]);

    const bob = await connect(t.key.bob!);
    await waitMessages(bob, 1);
    expect((await fence(bob, t.id.bob!, [t.key.alice!])).map(bodyOf)).toEqual(['control']);
    respond(bob, control.id);
    await waitState(t.key.alice!, control.id, 'completed');
  });

  it('is idempotent per messageId: the same task, queued and delivered once', async () => {
    const t = await team('alice', 'bob');
    const messageId = `dup-${randomUUID()}`;
    const a = await sendQueued(t.key.alice!, t.id.bob!, 'only once', { messageId });
    const b = await sendQueued(t.key.alice!, t.id.bob!, 'only once', { messageId });
    expect(b.id).toBe(a.id);
    expect((await queueInfo(t.id.bob!)).pending).toBe(1);
    const bob = await connect(t.key.bob!);
    await waitMessages(bob, 1);
    expect((await fence(bob, t.id.bob!, [t.key.alice!])).map((m) => m.taskId)).toEqual([a.id]);
    respond(bob, a.id);
    await waitState(t.key.alice!, a.id, 'completed');
  });
});

describe('queue limits', () => {
  it('refuses the sender past its per-recipient limit with -32013, storing nothing', async () => {
    const t = await team('s1', 's2', 'r');
    const accepted: string[] = [];
    for (let i = 0; i < SENDER_MAX; i++) {
      accepted.push((await sendQueued(t.key.s1!, t.id.r!, `s1 #${i}`)).id);
    }
    const contextId = `ctx-${randomUUID()}`;
    const over = await send(t.key.s1!, t.id.r!, 's1 too many', { contextId });
    expect(over.error?.code).toBe(-32013);
    expect(over.result).toBeUndefined();
    // The limit is per sender: another sender may still queue for the same recipient.
    const fromS2 = await sendQueued(t.key.s2!, t.id.r!, 's2 #0');
    expect((await queueInfo(t.id.r!)).pending).toBe(SENDER_MAX + 1);
    await indexFence(t.key.s2!, fromS2);
    expect(await tasksIn(t.key.s1!, contextId)).toEqual([]);

    const r = await connect(t.key.r!);
    await waitMessages(r, SENDER_MAX + 1);
    const got = await fence(r, t.id.r!, [t.key.s1!, t.key.s2!]);
    expect(got.map((m) => m.taskId)).toEqual([...accepted, fromS2.id]);
    expect(got.map(bodyOf)).not.toContain('s1 too many');
  });

  it("refuses at the recipient's queue_max_pending with -32012, for every sender", async () => {
    const t = await team('s1', 's2', 'r');
    const patch = await fetch(`${hub.url}/api/agents/${t.id.r}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key.r}` },
      body: JSON.stringify({ queue_max_pending: 3 }),
    });
    expect(patch.status).toBe(200);
    const accepted: string[] = [];
    for (let i = 0; i < 3; i++) {
      const key = i === 1 ? t.key.s2! : t.key.s1!;
      accepted.push((await sendQueued(key, t.id.r!, `#${i}`)).id);
    }
    const refused: Array<{ key: string; contextId: string }> = [];
    for (const key of [t.key.s1!, t.key.s2!]) {
      const contextId = `ctx-${randomUUID()}`;
      const full = await send(key, t.id.r!, 'no room', { contextId });
      expect(full.error?.code).toBe(-32012);
      expect(full.result).toBeUndefined();
      refused.push({ key, contextId });
    }
    expect((await queueInfo(t.id.r!)).pending).toBe(3);

    const r = await connect(t.key.r!);
    await waitMessages(r, 3);
    const got = await fence(r, t.id.r!, [t.key.s1!, t.key.s2!]);
    expect(got.map((m) => m.taskId)).toEqual(accepted);
    // The fences were sent after the refusals: once they are indexed, a refused row would be too.
    for (const f of messages(r).filter((m) => !got.includes(m))) {
      const sender = f.from === t.id.s1 ? t.key.s1! : t.key.s2!;
      await indexFence(sender, { contextId: f.contextId as string });
    }
    for (const { key, contextId } of refused) expect(await tasksIn(key, contextId)).toEqual([]);
  });

  it("refuses at the tenant's limit with -32014, checking recipient, then sender, then tenant", async () => {
    const t = await team('z', 'q1', 'q2', 'q3', 'q4', 'q5', 'q6');
    const full = ['q1', 'q2', 'q3', 'q4', 'q5'];
    expect(full.length * SENDER_MAX).toBe(TENANT_MAX);
    for (const q of full) {
      for (let i = 0; i < SENDER_MAX; i++) await sendQueued(t.key.z!, t.id[q]!, `${q} #${i}`);
    }
    await waitGauge('burrow_queue_tenant_pending', 'tenant', t.tenantId, TENANT_MAX);

    // Only the tenant is full.
    const c1 = `ctx-${randomUUID()}`;
    const tenantFull = await send(t.key.z!, t.id.q6!, 'tenant is full', { contextId: c1 });
    expect(tenantFull.error?.code).toBe(-32014);
    // Sender and tenant are full: the sender's limit is reported.
    const c2 = `ctx-${randomUUID()}`;
    const senderFirst = await send(t.key.z!, t.id.q1!, 'sender is full too', { contextId: c2 });
    expect(senderFirst.error?.code).toBe(-32013);
    // Recipient, sender and tenant are full: the recipient's limit is reported.
    const patch = await fetch(`${hub.url}/api/agents/${t.id.q2}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key.q2}` },
      body: JSON.stringify({ queue_max_pending: SENDER_MAX }),
    });
    expect(patch.status).toBe(200);
    const c3 = `ctx-${randomUUID()}`;
    const recipientFirst = await send(t.key.z!, t.id.q2!, 'all of them full', { contextId: c3 });
    expect(recipientFirst.error?.code).toBe(-32012);

    expect((await queueInfo(t.id.q6!)).pending).toBe(0);
    expect((await queueInfo(t.id.q1!)).pending).toBe(SENDER_MAX);
    await waitGauge('burrow_queue_tenant_pending', 'tenant', t.tenantId, TENANT_MAX);

    // Delivering one recipient's queue makes room in the tenant again.
    const q1 = await connect(t.key.q1!);
    await waitMessages(q1, SENDER_MAX);
    await waitGauge('burrow_queue_tenant_pending', 'tenant', t.tenantId, TENANT_MAX - SENDER_MAX);
    const roomAgain = await sendQueued(t.key.z!, t.id.q6!, 'room again');
    expect((await queueInfo(t.id.q6!)).pending).toBe(1);
    // Sent after the refusals: once it is indexed, a row for any of them would be too.
    await indexFence(t.key.z!, roomAgain);
    for (const c of [c1, c2, c3]) expect(await tasksIn(t.key.z!, c)).toEqual([]);
  });
});

describe('expiry', () => {
  it('never delivers a message whose x-ttl elapsed: its task fails and message.failed is stored', async () => {
    const t = await team('alice', 'bob');
    const expiring = await sendQueued(t.key.alice!, t.id.bob!, 'short-lived', { ttl: 1 });
    const keeper = await sendQueued(t.key.alice!, t.id.bob!, 'long-lived', { ttl: 600 });
    await untilExpired(t.id.bob!, [expiring.id]);

    const bob = await connect(t.key.bob!);
    await waitMessages(bob, 1);
    const got = await fence(bob, t.id.bob!, [t.key.alice!]);
    expect(got.map(bodyOf)).toEqual(['long-lived']);
    expect(got.map((m) => m.taskId)).not.toContain(expiring.id);

    const failed = await waitState(t.key.alice!, expiring.id, 'failed');
    expect(statusText(failed)).toMatch(/expir/i);
    const ev = await waitFailedEvent(t.tenantId, (d) => d.taskId === expiring.id);
    expect(ev.data).toMatchObject({
      taskId: expiring.id,
      contextId: expiring.contextId,
      from: t.id.alice,
      to: t.id.bob,
      error: expect.any(String),
    });
    respond(bob, keeper.id);
    await waitState(t.key.alice!, keeper.id, 'completed');
  });

  it("uses the recipient's shorter queue_ttl_seconds, and the cleanup fails expired tasks", async () => {
    const t = await team('alice', 'bob');
    const patch = await fetch(`${hub.url}/api/agents/${t.id.bob}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key.bob}` },
      body: JSON.stringify({ queue_ttl_seconds: 1 }),
    });
    expect(patch.status).toBe(200);
    const longAsked = await sendQueued(t.key.alice!, t.id.bob!, 'asked for an hour', { ttl: 3600 });
    const noTtl = await sendQueued(t.key.alice!, t.id.bob!, 'no x-ttl');
    expect((await queueInfo(t.id.bob!)).pending).toBe(2);
    await untilExpired(t.id.bob!, [longAsked.id, noTtl.id]);

    const removed = await hub.queues.cleanup();
    expect(removed).toBeGreaterThanOrEqual(2);
    // The recipient never connected, yet both tasks ended.
    for (const task of [longAsked, noTtl]) {
      const failed = await waitState(t.key.alice!, task.id, 'failed');
      expect(statusText(failed)).toMatch(/expir/i);
      await waitFailedEvent(t.tenantId, (d) => d.taskId === task.id);
    }
    expect((await queueInfo(t.id.bob!)).pending).toBe(0);
    // Nothing expired is left for a second run.
    expect(await hub.queues.cleanup()).toBe(0);

    const bob = await connect(t.key.bob!);
    expect(await fence(bob, t.id.bob!, [t.key.alice!])).toEqual([]);
  });
});

describe('CancelTask on a queued task', () => {
  it('cancels it and purges its message; the others are still delivered', async () => {
    const t = await team('alice', 'bob');
    // Online once, then gone: offline means no live socket now.
    const early = await connect(t.key.bob!);
    await disconnect(early, t.id.bob!);

    const a = await sendQueued(t.key.alice!, t.id.bob!, 'first');
    const b = await sendQueued(t.key.alice!, t.id.bob!, 'second, canceled');
    const c = await sendQueued(t.key.alice!, t.id.bob!, 'third');
    const canceled = await rpc(hub.url, t.key.alice, 'tasks/cancel', { id: b.id });
    expect(canceled.error).toBeUndefined();
    expect(canceled.result).toMatchObject({ status: { state: 'canceled' } });
    expect((await getTask(t.key.alice!, b.id)).status.state).toBe('canceled');
    expect((await queueInfo(t.id.bob!)).pending).toBe(2);
    const again = await rpc(hub.url, t.key.alice, 'CancelTask', { id: b.id });
    expect(again.error?.code).toBe(-32002);

    const bob = await connect(t.key.bob!);
    await waitMessages(bob, 2);
    expect((await fence(bob, t.id.bob!, [t.key.alice!])).map((m) => m.taskId)).toEqual([
      a.id,
      c.id,
    ]);
    expect((await getTask(t.key.alice!, b.id)).status.state).toBe('canceled');
    for (const id of [a.id, c.id]) respond(bob, id);
    await waitState(t.key.alice!, a.id, 'completed');
    await waitState(t.key.alice!, c.id, 'completed');
  });
});

describe('observability', () => {
  it('reports pending counts in /metrics and the queue in /debug/queues/:agentId', async () => {
    const t = await team('alice', 'bob');
    const t0 = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await sendQueued(t.key.alice!, t.id.bob!, `#${i}`)).id);
    await waitGauge('burrow_queue_pending', 'recipient', t.id.bob!, 3);
    await waitGauge('burrow_queue_tenant_pending', 'tenant', t.tenantId, 3);

    // The oldest message's age grows with time: wait until it reads at least 250 ms.
    let info = await queueInfo(t.id.bob!);
    await until(async () => ((info = await queueInfo(t.id.bob!)).oldestAgeMs ?? 0) >= 250);
    expect(info).toMatchObject({ recipientId: t.id.bob, pending: 3 });
    expect(['idle', 'draining', 'waiting']).toContain(info.state);
    expect(info.oldestAgeMs).toBeLessThanOrEqual(Date.now() - t0 + 1000);

    const noToken = await fetch(`${hub.url}/debug/queues/${t.id.bob}`);
    expect(noToken.status).toBe(401);
    const badToken = await fetch(`${hub.url}/debug/queues/${t.id.bob}`, {
      headers: { authorization: `Bearer ${'x'.repeat(32)}` },
    });
    expect(badToken.status).toBe(401);

    const bob = await connect(t.key.bob!);
    await waitMessages(bob, 3);
    await waitGauge('burrow_queue_pending', 'recipient', t.id.bob!, 0);
    await waitGauge('burrow_queue_tenant_pending', 'tenant', t.tenantId, 0);
    expect(await queueInfo(t.id.bob!)).toMatchObject({ recipientId: t.id.bob, pending: 0 });
    for (const id of ids) respond(bob, id);
  });
});

describe('durability', () => {
  it('keeps queued messages across a hub restart and delivers them in order', async () => {
    const t = await team('alice', 'bob');
    const sent: string[] = [];
    for (let i = 0; i < 3; i++) {
      sent.push((await sendQueued(t.key.alice!, t.id.bob!, `kept #${i}`)).id);
    }
    for (const a of open.splice(0)) await a.close().catch(() => undefined);
    await hub.stop();
    hub = await startHub(testHubConfig(nats, db, OVERRIDES), silentLogger);
    await partitionsSettled([hub], 4);

    for (const id of sent) expect((await getTask(t.key.alice!, id)).status.state).toBe('submitted');
    const bob = await connect(t.key.bob!);
    await waitMessages(bob, 3);
    const got = await fence(bob, t.id.bob!, [t.key.alice!]);
    expect(got.map((m) => m.taskId)).toEqual(sent);
    expect(got.map(bodyOf)).toEqual(['kept #0', 'kept #1', 'kept #2']);
    for (const id of sent) respond(bob, id);
    for (const id of sent) await waitState(t.key.alice!, id, 'completed');
  });
});
