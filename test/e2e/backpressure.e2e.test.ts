// A slow WebSocket agent never makes the hub buffer without bound: once the socket's backlog and
// the agent's outbox are full, further deliveries are refused visibly (the task fails with the
// reason) instead of piling up, and every frame the hub accepted reaches the agent, in order,
// once it reads again. (Issue 4 turns "refused" into "queued".)
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionsSettled, testHubConfig } from '../support/test-hub.js';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { connectWsAgent } from '../support/ws-agent.js';
import { rpc } from '../support/rpc.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant } from '../../infra/db/index.js';

const OUTBOX = 20;
let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
const keys: Record<string, string> = {};
const ids: Record<string, string> = {};

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(
    testHubConfig(nats, db, {
      PARTITIONS: '4',
      WS_HIGH_WATER_BYTES: String(64 * 1024),
      WS_OUTBOX_FRAMES: String(OUTBOX),
    }),
    silentLogger
  );
  const t = await createTenant(hub.sql, { name: 'Acme' });
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
  it('bounds what the hub holds for it, refuses the rest visibly, and loses nothing accepted', async () => {
    const slow = await connectWsAgent(hub.url, keys.slowpoke);
    // Stop reading: the kernel buffers fill, then the hub's socket backlog, then the outbox.
    (slow.ws as unknown as { _socket: Socket })._socket.pause();
    const payload = 'x'.repeat(64 * 1024);
    const taskIds: string[] = [];
    for (let i = 0; i < 300; i++) {
      const r = await rpc(hub.url, keys.sender, 'SendMessage', {
        message: { role: 'user', parts: [{ kind: 'text', text: `${i} ${payload}` }] },
        configuration: { agentId: ids.slowpoke },
      });
      taskIds.push((r.result as { id: string }).id);
    }
    const stateOf = async (id: string) => {
      const g = await rpc(hub.url, keys.sender, 'GetTask', { id, historyLength: 0 });
      return (
        g.result as { status: { state: string; message?: { parts: Array<{ text: string }> } } }
      ).status;
    };
    // Every task settles as delivered (working) or refused (failed, with the reason).
    let states: Array<{ state: string; message?: { parts: Array<{ text: string }> } }> = [];
    const deadline = Date.now() + 20_000;
    for (;;) {
      states = await Promise.all(taskIds.map(stateOf));
      if (states.every((s) => s.state !== 'submitted') || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const delivered = taskIds.filter((_, i) => states[i]!.state === 'working');
    const refused = states.filter((s) => s.state === 'failed');
    console.log(
      `300 sent to a stalled agent: ${delivered.length} accepted for its socket, ${refused.length} refused`
    );
    expect(delivered.length + refused.length).toBe(300);
    expect(refused.length).toBeGreaterThan(0);
    for (const s of refused) expect(s.message?.parts[0]?.text).toMatch(/not keeping up/);

    // Reading again, the agent gets every accepted frame, once, in order.
    slow.ws.on('message', () => undefined);
    (slow.ws as unknown as { _socket: Socket })._socket.resume();
    const until = Date.now() + 20_000;
    const got = () =>
      slow.frames.filter((f) => f.type === 'message').map((f) => f.taskId as string);
    while (got().length < delivered.length && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(got()).toEqual(delivered);
    await slow.close();
  });
});
