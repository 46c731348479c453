// A message pushed to an agent's socket that closed before the agent answered or acknowledged it
// is delivered again on its next connection (same taskId and messageId): a frame can die in the
// socket's buffers, on the way, or in a client that closes mid-drain, and its task would stay
// `working` for good. One the agent acknowledged (`received`) or answered is not pushed again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionsSettled, testHubConfig, until } from '../support/test-hub.js';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { connectWsAgent, type Frame } from '../support/ws-agent.js';
import { rpc } from '../support/rpc.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant } from '../../infra/db/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
const keys: Record<string, string> = {};
const ids: Record<string, string> = {};

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db, { PARTITIONS: '4' }), silentLogger);
  const t = await createTenant(hub.sql, { name: 'Acme' });
  for (const name of ['sender', 'worker']) {
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

async function send(text: string): Promise<string> {
  const r = await rpc(hub.url, keys.sender, 'SendMessage', {
    message: { role: 'user', parts: [{ kind: 'text', text }] },
    configuration: { agentId: ids.worker },
  });
  expect(r.error).toBeUndefined();
  return (r.result as { id: string }).id;
}

async function stateOf(taskId: string): Promise<string> {
  const g = await rpc(hub.url, keys.sender, 'GetTask', { id: taskId, historyLength: 0 });
  return (g.result as { status: { state: string } }).status.state;
}

const messageIdOf = (f: Frame) => (f.payload as { messageId: string }).messageId;

describe('an agent socket that closes with messages it never answered', () => {
  it('gets each again on its next connection, except what it acknowledged or answered', async () => {
    const first = await connectWsAgent(hub.url, keys.worker);
    const lost = await send('lost on the way');
    const acked = await send('acknowledged');
    const answered = await send('answered');
    const frames: Record<string, Frame> = {};
    for (let i = 0; i < 3; i++) {
      const f = await first.next('message');
      frames[f.taskId as string] = f;
    }
    expect(Object.keys(frames).sort()).toEqual([lost, acked, answered].sort());
    first.send({ type: 'received', taskId: acked });
    first.send({
      type: 'task_response',
      taskId: answered,
      status: { state: 'completed' },
      lastChunk: true,
    });
    await until(async () => (await stateOf(answered)) === 'completed');
    // The acknowledgement lingers to merge with a write: a fence that it was stored is the task
    // log's `received` flag, read through the owner's actor.
    await until(async () => {
      const v = await hub.tasks.getForCaller(
        { kind: 'agent', agentId: ids.sender!, tenantId: '' } as never,
        acked
      );
      return (v as { received?: boolean }).received === true;
    });
    await first.close();

    const second = await connectWsAgent(hub.url, keys.worker);
    const again = await second.next('message', 15_000);
    expect(again.taskId).toBe(lost);
    expect(messageIdOf(again)).toBe(messageIdOf(frames[lost]!));
    second.send({
      type: 'task_response',
      taskId: lost,
      status: { state: 'completed' },
      lastChunk: true,
    });
    await until(async () => (await stateOf(lost)) === 'completed');
    // A fence for "nothing else comes again": a new message arrives, and nothing before it.
    const fence = await send('fence');
    const next = await second.next('message', 15_000);
    expect(next.taskId).toBe(fence);
    expect(second.frames.filter((f) => f.type === 'message').map((f) => f.taskId)).toEqual([
      lost,
      fence,
    ]);
    expect(await stateOf(acked)).toBe('working');
    await second.close();
  }, 60_000);
});
