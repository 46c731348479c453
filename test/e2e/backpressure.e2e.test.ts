// A slow WebSocket agent never makes the hub buffer without bound: once the socket's backlog and
// the agent's outbox are full, further deliveries wait in the agent's durable queue (their tasks
// stay `submitted`) and delivery pauses, retried every QUEUE_BUSY_RETRY_MS; nothing is refused or
// dropped. Once the agent reads again every message arrives exactly once, in the order sent, and
// every task can complete (decisions.md §2: "A slow socket pauses delivery; undelivered messages
// stay queued, none is dropped").
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { partitionsSettled, testHubConfig, until } from '../support/test-hub.js';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { connectWsAgent } from '../support/ws-agent.js';
import { rpc } from '../support/rpc.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant } from '../../infra/db/index.js';

const OUTBOX = 20;
const BUSY_RETRY_MS = 200;
const N = 300;
let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
const keys: Record<string, string> = {};
const ids: Record<string, string> = {};
let tenantId = '';

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(
    testHubConfig(nats, db, {
      PARTITIONS: '4',
      WS_HIGH_WATER_BYTES: String(64 * 1024),
      WS_OUTBOX_FRAMES: String(OUTBOX),
      QUEUE_BUSY_RETRY_MS: String(BUSY_RETRY_MS),
      // The whole backlog may be queued for this one sender and drained quickly once read again.
      QUEUE_SENDER_MAX_PENDING: '1000',
      QUEUE_DRAIN_PER_SECOND: '1000',
      // The test itself reads every task's state several times (N GetTask calls a look).
      RATE_LIMIT_PER_MINUTE: '100000',
    }),
    silentLogger
  );
  const t = await createTenant(hub.sql, { name: 'Acme' });
  tenantId = t.id;
  for (const name of ['sender', 'slowpoke']) {
    const c = await createAgent(hub.sql, { tenantId: t.id, name });
    keys[name] = c.apiKey;
    ids[name] = c.agent.id;
  }
  await partitionsSettled([hub], 4);
});

afterAll(async () => {
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

describe('a WebSocket agent that stops reading', () => {
  it('bounds what the hub holds for it, queues the rest, and loses nothing', async () => {
    const slow = await connectWsAgent(hub.url, keys.slowpoke);
    // Stop reading: the kernel buffers fill, then the hub's socket backlog, then the outbox.
    (slow.ws as unknown as { _socket: Socket })._socket.pause();
    const payload = 'x'.repeat(64 * 1024);
    const taskIds: string[] = [];
    for (let i = 0; i < N; i++) {
      const r = await rpc(hub.url, keys.sender, 'SendMessage', {
        message: { role: 'user', parts: [{ kind: 'text', text: `${i} ${payload}` }] },
        configuration: { agentId: ids.slowpoke },
      });
      // Never refused: a backed-up recipient is like an offline one.
      expect(r.error, `message ${i}`).toBeUndefined();
      taskIds.push((r.result as { id: string }).id);
    }
    const stateOf = async (id: string) => {
      const g = await rpc(hub.url, keys.sender, 'GetTask', { id, historyLength: 0 });
      if (!g.result) throw new Error(`GetTask ${id}: ${g.status} ${JSON.stringify(g.error)}`);
      return (g.result as { status: { state: string; message?: string } }).status;
    };
    const count = (states: Array<{ state: string }>, state: string) =>
      states.filter((s) => s.state === state).length;

    // Busy attempts of the slow agent's queue, as its owner counts them.
    const busyAttempts = async () => (await hub.queues.inspect(tenantId, ids.slowpoke!)).failed;

    // Several busy retries later: some frames went to the socket (working), the rest wait in the
    // queue (submitted); none failed.
    await until(async () => (await busyAttempts()) >= 3, 30_000);
    const states = await Promise.all(taskIds.map(stateOf));
    const delivered = count(states, 'working');
    const queued = count(states, 'submitted');
    console.log(
      `${N} sent to a stalled agent: ${delivered} accepted for its socket, ${queued} queued`
    );
    expect(count(states, 'failed')).toBe(0);
    expect(delivered + queued).toBe(N);
    expect(queued).toBeGreaterThan(0);
    expect(delivered).toBeGreaterThan(0);
    // Delivered is a prefix of what was sent: a queued message holds back the later ones.
    expect(states.slice(0, delivered).every((s) => s.state === 'working')).toBe(true);

    // Delivery stays paused while the agent does not read: after more busy retries the hub still
    // holds back the rest.
    const before = await busyAttempts();
    await until(async () => (await busyAttempts()) >= before + 3, 30_000);
    const later = await Promise.all(taskIds.map(stateOf));
    expect(count(later, 'failed')).toBe(0);
    expect(count(later, 'submitted')).toBeGreaterThan(0);
    expect(count(later, 'working') + count(later, 'submitted')).toBe(N);

    // Reading again, the agent gets every message, once, in the order sent.
    slow.ws.on('message', () => undefined);
    (slow.ws as unknown as { _socket: Socket })._socket.resume();
    const got = () =>
      slow.frames.filter((f) => f.type === 'message').map((f) => f.taskId as string);
    await until(() => got().length >= N, 30_000).catch(() => undefined);
    // A fence: the queue is empty and one more message from the sender arrives. Delivery is FIFO
    // per pair, so a message repeated from the queue would have come before it.
    await until(async () => (await hub.queues.inspect(tenantId, ids.slowpoke!)).pending === 0);
    const fence = await rpc(hub.url, keys.sender, 'SendMessage', {
      message: { role: 'user', parts: [{ kind: 'text', text: 'fence' }] },
      configuration: { agentId: ids.slowpoke },
    });
    expect(fence.error).toBeUndefined();
    const fenceId = (fence.result as { id: string }).id;
    await until(() => got().includes(fenceId), 30_000);
    expect(got()).toEqual([...taskIds, fenceId]);
    const texts = slow.frames
      .filter((f) => f.type === 'message' && f.taskId !== fenceId)
      .map((f) => (f.payload as { parts: Array<{ text: string }> }).parts[0]!.text.split(' ')[0]);
    expect(texts).toEqual(taskIds.map((_, i) => String(i)));

    // And every task can complete.
    for (const taskId of taskIds) {
      slow.send({ type: 'task_response', taskId, status: { state: 'completed' } });
    }
    // Waited for in the tasks index (one query a look, not N GetTask calls), then read as the
    // sender sees them.
    await vi.waitFor(
      async () => {
        const [row] = await hub.sql.unsafe<Array<{ n: string }>>(
          "select count(*) as n from tasks where recipient_id = $1 and state = 'completed'",
          [ids.slowpoke!]
        );
        expect(Number(row?.n)).toBe(N);
      },
      { timeout: 30_000, interval: 100 }
    );
    expect(count(await Promise.all(taskIds.map(stateOf)), 'completed')).toBe(N);
    await slow.close();
  }, 180_000);
});
