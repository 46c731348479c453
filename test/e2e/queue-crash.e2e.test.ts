// Crash safety of offline delivery: a hub node as a child process on one nats-server (file store)
// and a test database, killed with SIGKILL and started again on the same NATS and database.
// (a) Messages acknowledged to their senders survive the crash: after the restart the queue is
//     whole (its limit counts exactly) and drains in FIFO order, each message once.
// (b) A crash in the middle of a drain (SIGKILL the instant a message frame reaches the agent,
//     i.e. between its delivery and the hub's acknowledgement) loses nothing: every message
//     arrives, first arrivals keep FIFO order, at most that in-flight message arrives twice (same
//     task, same messageId), and a message delivered once has a task that says it was delivered.
// After SIGKILL the old node's partition locks expire after LOCK_INACTIVE_MS and its membership
// after NODE_TTL_MS, both short here, so the restarted node takes over within seconds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { startHubProcess, type HubProcess } from '../support/hub-process.js';
import {
  QUEUE_ADMIN_TOKEN,
  connectQueueAgent,
  firstArrivals,
  keepHubLogs,
  patchAgentSettings,
  queueInspection,
  recordPresence,
  repeated,
  sendText,
  tasksIndexedFor,
  taskState,
  textOf,
  waitFor,
  waitOwnership,
  waitTaskStates,
  withQueueDiagnostics,
  type MessageFrame,
} from '../support/queue-helpers.js';
import { createAgent, createDb, createTenant, migrate, type Db } from '../../infra/db/index.js';
import { connectBus, type Bus } from '../../runtime/bus/index.js';
import { silentLogger } from '../../runtime/log/index.js';

const P = 4;

let nats: NatsServerHandle;
let db: TestDatabase;
let sql: Db;
let observer: Bus;
const started: HubProcess[] = [];

interface TestAgent {
  id: string;
  key: string;
}

interface Sent {
  taskId: string;
  body: string;
}

async function startNode(nodeId: string, drainPerSecond: number): Promise<HubProcess> {
  const p = await startHubProcess({
    env: {
      NATS_URL: nats.url,
      DATABASE_URL: db.url,
      ADMIN_TOKEN: QUEUE_ADMIN_TOKEN,
      NODE_ID: nodeId,
      PARTITIONS: String(P),
      HEARTBEAT_MS: '300',
      NODE_TTL_MS: '2000',
      LOCK_INACTIVE_MS: '2000',
      QUEUE_DRAIN_PER_SECOND: String(drainPerSecond),
      LOG_LEVEL: process.env.BURROW_TEST_HUB_LOG_LEVEL ?? 'info',
    },
    readyTimeoutMs: 60_000,
  });
  started.push(p);
  await waitOwnership([p.url], P, { ms: 45_000 });
  return p;
}

async function crash(p: HubProcess): Promise<void> {
  p.kill('SIGKILL');
  const { signal } = await p.exited;
  expect(signal).toBe('SIGKILL');
}

async function stop(p: HubProcess): Promise<void> {
  p.kill('SIGTERM');
  expect((await p.exited).code).toBe(0);
}

async function makeTenant(name: string): Promise<{ rcpt: TestAgent; sender: TestAgent }> {
  const t = await createTenant(sql, { name });
  const out: TestAgent[] = [];
  for (const n of ['rcpt', 'sender']) {
    const c = await createAgent(sql, { tenantId: t.id, name: n });
    out.push({ id: c.agent.id, key: c.apiKey });
  }
  return { rcpt: out[0]!, sender: out[1]! };
}

/** Queue `n` messages one at a time (each acknowledged before the next), in this order. */
async function queue(
  hub: HubProcess,
  sender: TestAgent,
  rcpt: TestAgent,
  prefix: string,
  n: number
): Promise<Sent[]> {
  const sent: Sent[] = [];
  for (let i = 0; i < n; i++) {
    const body = `${prefix}-${String(i).padStart(2, '0')}`;
    const r = await sendText(hub.url, sender.key, rcpt.id, body);
    expect(r.error, `${body}: ${JSON.stringify(r.error)}`).toBeUndefined();
    expect(r.result?.status.state).toBe('submitted');
    sent.push({ taskId: r.result!.id, body });
  }
  return sent;
}

/** Each message frame carries the task and text it was queued with. */
function expectMatches(messages: readonly MessageFrame[], sent: readonly Sent[]): void {
  const byBody = new Map(sent.map((s) => [s.body, s]));
  for (const m of messages) {
    const s = byBody.get(textOf(m));
    expect(s, `unexpected message ${textOf(m)}`).toBeDefined();
    expect(m.taskId).toBe(s!.taskId);
    expect(typeof m.payload.messageId).toBe('string');
  }
}

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase('burrow_queue_crash');
  sql = createDb(db.url, { max: 2 });
  await migrate(sql);
  observer = await connectBus({
    servers: [nats.url],
    name: 'queue-observer',
    replicas: 1,
    log: silentLogger,
  });
}, 60_000);

afterAll(async () => {
  keepHubLogs('queue-crash', started);
  await Promise.all(started.map((p) => p.close()));
  await sql?.end({ timeout: 5 });
  await observer?.close();
  await nats?.close();
  await db?.drop();
}, 60_000);

describe('offline queue across kill -9 of the hub', () => {
  it('keeps 30 acknowledged messages through SIGKILL and a restart (same node id), then drains them in FIFO order once each', async () => {
    const first = await startNode('crash-a', 50);
    const { rcpt, sender } = await makeTenant('Crash Queue');
    expect(await patchAgentSettings(first.url, rcpt.id, rcpt.key, { queue_max_pending: 30 })).toBe(
      200
    );

    const sent = await queue(first, sender, rcpt, 'crash', 30);
    await crash(first);

    // Restarted as an operator would: same NODE_ID, same NATS, same database.
    const second = await startNode('crash-a', 50);

    // The rebuilt queue counts exactly: it is full at 30, so one more is QueueFull, leaving no task.
    const over = await sendText(second.url, sender.key, rcpt.id, 'crash-over');
    expect(over.error?.code).toBe(-32012);

    const agent = await connectQueueAgent(second.url, rcpt.key);
    await withQueueDiagnostics(second.url, rcpt.id, agent, () => agent.waitMessages(30, 30_000));
    await agent.waitQuiet(1_500);
    expect(agent.frames[0]?.type).toBe('welcome');
    expect(agent.messages.map(textOf)).toEqual(sent.map((s) => s.body));
    expectMatches(agent.messages, sent);

    // Every task moved on to completed with the agent's replies; no task for the rejected send.
    await waitTaskStates(
      second.url,
      sent.map((s) => ({ id: s.taskId, senderKey: sender.key })),
      'completed'
    );
    await waitFor('30 indexed tasks', async () => (await tasksIndexedFor(sql, rcpt.id)) >= 30);
    expect(await tasksIndexedFor(sql, rcpt.id)).toBe(30);

    await agent.close();
    await stop(second);
  });

  it('loses nothing when killed mid-drain: FIFO first arrivals, at most the in-flight message twice', async () => {
    const N = 20;
    const first = await startNode('crash-b1', 5);
    const { rcpt, sender } = await makeTenant('Crash Drain');
    const sent = await queue(first, sender, rcpt, 'drain', N);
    const presence = await recordPresence(observer);

    // The agent answers every message as it arrives. Once the first three are completed (their
    // replies are durable), the hub is killed the instant the next message frame arrives: between
    // that message's delivery and its acknowledgement, if the hub acknowledges after the write.
    let armed = false;
    const before = await connectQueueAgent(first.url, rcpt.key, {
      onMessage: () => {
        if (!armed) return;
        armed = false;
        first.kill('SIGKILL');
      },
    });
    await withQueueDiagnostics(
      first.url,
      rcpt.id,
      before,
      () => before.waitMessages(3, 15_000),
      () => presence.events
    );
    await waitTaskStates(
      first.url,
      sent.slice(0, 3).map((s) => ({ id: s.taskId, senderKey: sender.key })),
      'completed'
    );
    armed = true;
    expect((await first.exited).signal).toBe('SIGKILL');
    await before.closed;
    const session1 = [...before.messages];
    expect(session1.length).toBeGreaterThanOrEqual(4);
    expect(session1.length, 'the drain finished before the crash').toBeLessThan(N);

    // A fresh node id this time: it takes over once the dead node's locks and membership expire.
    const second = await startNode('crash-b2', 5);
    const after = await connectQueueAgent(second.url, rcpt.key);
    const seenTexts = () => new Set([...session1, ...after.messages].map(textOf));
    await withQueueDiagnostics(
      second.url,
      rcpt.id,
      after,
      async () => {
        try {
          await waitFor('every message to arrive', () => seenTexts().size >= N, 30_000);
        } catch (err) {
          const missing = sent.map((s) => s.body).filter((b) => !seenTexts().has(b));
          throw new Error(
            `${(err as Error).message}: missing ${JSON.stringify(missing)}; before the crash ` +
              `${JSON.stringify(session1.map(textOf))}; after ${JSON.stringify(after.messages.map(textOf))}`
          );
        }
      },
      () => presence.events
    );
    await after.waitQuiet(1_500);
    const session2 = [...after.messages];
    const all = [...session1, ...session2];
    expectMatches(all, sent);
    expect(after.frames[0]?.type).toBe('welcome');

    // Nothing lost, and the first arrival of each message follows the order sent.
    expect(firstArrivals(all).map(textOf)).toEqual(sent.map((s) => s.body));

    // At most one message twice: the last one before the crash, again after the restart, as the
    // same task with the same messageId. Where it comes again depends on what the crash cut off:
    // still queued, it leads the drain; its push and the queue's done record durable (its frame is
    // now written before they are), it is the dead node's unanswered push, delivered again after
    // the 3 s handover grace, behind the backlog ("a redelivered duplicate may come later",
    // docs/OPERATIONS.md "Delivery guarantees").
    const dups = repeated(all);
    console.log(
      `killed after ${session1.length} of ${N} messages; ${session2.length} after the restart; ` +
        `repeated: ${JSON.stringify([...dups])}`
    );
    expect(dups.size, `repeated: ${JSON.stringify([...dups])}`).toBeLessThanOrEqual(1);
    for (const [body, n] of dups) {
      expect(n).toBe(2);
      const [one, two] = all.filter((m) => textOf(m) === body);
      expect(textOf(session1.at(-1)!)).toBe(body);
      expect(session2.filter((m) => textOf(m) === body)).toHaveLength(1);
      expect(two!.payload.messageId).toBe(one!.payload.messageId);
      expect(two!.taskId).toBe(one!.taskId);
    }

    // Tasks: completed before the crash stay completed; everything delivered after the restart
    // completes with the agent's reply. A message delivered before the crash and not again left
    // the queue, so its task must say so (working, or completed if the reply made it); a reply
    // sent in the last instant before the crash may be lost with the process.
    const delivered2 = new Set(session2.map((m) => m.taskId));
    await waitTaskStates(
      second.url,
      sent
        .filter((s, i) => i < 3 || delivered2.has(s.taskId))
        .map((s) => ({ id: s.taskId, senderKey: sender.key })),
      'completed'
    );
    const stuck: Array<{ body: string; taskId: string; state: string | undefined }> = [];
    for (const s of sent.filter((x, i) => i >= 3 && !delivered2.has(x.taskId))) {
      const state = await taskState(second.url, sender.key, s.taskId);
      if (state !== 'working' && state !== 'completed') stuck.push({ ...s, state });
    }
    expect(
      stuck,
      `delivered before the crash, gone from the queue, yet not working: ${JSON.stringify(stuck)}; ` +
        `queue now: ${JSON.stringify(await queueInspection(second.url, rcpt.id))}`
    ).toEqual([]);

    presence.stop();
    await after.close();
    await stop(second);
  });
});
