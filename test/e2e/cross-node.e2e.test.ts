// Two hub nodes on one NATS and one database: a WebSocket agent connected to node B receives
// messages sent through node A, its replies reach the sender waiting on A, and its presence
// follows it when it reconnects to the other node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionsSettled, testHubConfig, until } from '../support/test-hub.js';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { connectWsAgent } from '../support/ws-agent.js';
import { rpc, text } from '../support/rpc.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant } from '../../infra/db/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let a: Hub;
let b: Hub;
const keys: Record<string, string> = {};
const ids: Record<string, string> = {};

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  const env = (node: string) => testHubConfig(nats, db, { NODE_ID: node });
  a = await startHub(env('node-a'), silentLogger);
  b = await startHub(env('node-b'), silentLogger);
  await partitionsSettled([a, b], 8);
  const t = await createTenant(a.sql, { name: 'Acme' });
  for (const name of ['alice', 'bob']) {
    const c = await createAgent(a.sql, { tenantId: t.id, name });
    keys[name] = c.apiKey;
    ids[name] = c.agent.id;
  }
});

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await nats?.close();
  await db?.drop();
});

describe('two hub nodes', () => {
  it('delivers to an agent on node B a message sent through node A, and the reply back', async () => {
    const bob = await connectWsAgent(b.url, keys.bob);
    await until(() => a.presence.isOnline(ids.bob!));
    for (let i = 0; i < 5; i++) {
      const pending = rpc(a.url, keys.alice, 'SendMessage', {
        message: text(`hello ${i}`),
        configuration: { agentId: ids.bob, blocking: true },
      });
      const m = await bob.next('message');
      expect(m.payload).toMatchObject({ parts: [{ text: `hello ${i}` }] });
      bob.send({
        type: 'task_response',
        taskId: m.taskId,
        status: { state: 'completed' },
        artifact: { parts: [{ kind: 'text', text: `reply ${i}` }] },
      });
      const r = await pending;
      expect(r.error).toBeUndefined();
      expect(r.result).toMatchObject({
        id: m.taskId,
        status: { state: 'completed' },
        artifacts: [{ parts: [{ text: `reply ${i}` }] }],
      });
      // The task is readable through either node.
      expect(
        (await rpc(b.url, keys.alice, 'GetTask', { id: m.taskId as string })).result
      ).toMatchObject({ status: { state: 'completed' } });
    }
    await bob.close();
    await until(() => !a.presence.isOnline(ids.bob!) && !b.presence.isOnline(ids.bob!));
  });

  it('closes the older connection when the agent connects to another node', async () => {
    const first = await connectWsAgent(b.url, keys.bob);
    await until(() => a.presence.where(ids.bob!)?.nodeId === 'node-b');
    const closed = new Promise<number>((r) => first.ws.once('close', (code) => r(code)));
    const second = await connectWsAgent(a.url, keys.bob);
    expect(await closed).toBe(4409);
    // Sent through the node that held the old socket, the message reaches the new one.
    await until(() => b.presence.where(ids.bob!)?.nodeId === 'node-a');
    const pending = rpc(b.url, keys.alice, 'SendMessage', {
      message: text('to the new socket'),
      configuration: { agentId: ids.bob, blocking: true },
    });
    const m = await second.next('message');
    second.send({ type: 'task_response', taskId: m.taskId, status: { state: 'completed' } });
    expect((await pending).result).toMatchObject({ status: { state: 'completed' } });
    await second.close();
    await until(() => !a.presence.isOnline(ids.bob!));
  });

  it('follows the agent when it reconnects to the other node', async () => {
    const bob = await connectWsAgent(a.url, keys.bob);
    await until(() => b.presence.where(ids.bob!)?.nodeId === 'node-a');
    const pending = rpc(b.url, keys.alice, 'SendMessage', {
      message: text('found you'),
      configuration: { agentId: ids.bob, blocking: true },
    });
    const m = await bob.next('message');
    bob.send({ type: 'task_response', taskId: m.taskId, status: { state: 'completed' } });
    expect((await pending).result).toMatchObject({ status: { state: 'completed' } });
    await bob.close();
  });

  it('serves the official echo agent from either node', async () => {
    for (const hub of [a, b]) {
      const r = await rpc(hub.url, keys.alice, 'SendMessage', {
        message: text('echo me'),
        configuration: { agentId: 'echo', blocking: true },
      });
      expect(r.result).toMatchObject({ status: { state: 'completed' } });
    }
  });
});
