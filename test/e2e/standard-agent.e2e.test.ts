// A standard A2A v1.0 server (the official @a2a-js/sdk on express) joins the hub as an HTTP agent:
// its card declares a 1.0 JSON-RPC interface, so the hub calls it in standard v1.0. Also: a
// caller's own x-hub never reaches an agent, and tasks survive a restart of the hub.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkEchoServer, type SdkEchoServer } from '../support/sdk-echo-server.js';
import { forgedEnvelope, partitionsSettled, testHubConfig } from '../support/test-hub.js';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { rpc, text } from '../support/rpc.js';
import type { Config } from '../../runtime/config/index.js';
import { createLogger, silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant } from '../../infra/db/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let config: Config;
let sdk: SdkEchoServer;
let agentUrl = '';
const received: Array<{ version: string | undefined; params: Record<string, unknown> }> = [];
const keys: Record<string, string> = {};
const ids: Record<string, string> = {};

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  sdk = await startSdkEchoServer({
    replyPrefix: 'sdk agent heard: ',
    askForInputWhen: /^which one\?/,
    onRequest: (version, params) => received.push({ version, params }),
  });
  agentUrl = sdk.url;
  config = testHubConfig(nats, db, { NODE_ID: 'solo', PARTITIONS: '4' });
  hub = await startHub(
    config,
    process.env.HUB_TEST_LOG ? createLogger({ level: 'debug' }) : silentLogger
  );
  const t = await createTenant(hub.sql, { name: 'Acme' });
  const card = {
    name: 'SDK Agent',
    description: 'a standard A2A 1.0 server',
    url: agentUrl,
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false },
    skills: [],
    supportedInterfaces: [{ url: agentUrl, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  };
  for (const [name, extra] of [
    ['alice', {}],
    ['bob', {}],
    ['sdk', { url: agentUrl, card }],
  ] as const) {
    const c = await createAgent(hub.sql, { tenantId: t.id, name, ...extra });
    keys[name] = c.apiKey;
    ids[name] = c.agent.id;
  }
  await partitionsSettled([hub], 4);
});

afterAll(async () => {
  await hub?.stop();
  await sdk?.close();
  await nats?.close();
  await db?.drop();
});

describe('a standard A2A server as an HTTP agent', () => {
  it('continues its own task on the next turn (input-required, then completed)', async () => {
    const first = await rpc(hub.url, keys.alice, 'SendMessage', {
      message: text('which one? the red or the blue'),
      configuration: { agentId: ids.sdk, blocking: true },
    });
    expect(first.error).toBeUndefined();
    const task = first.result as { id: string; status: { state: string } };
    expect(task.status.state).toBe('input-required');
    const firstCall = received.at(-1)!.params as { message: { taskId?: string } };
    // The hub's own task id never reaches the server on a new task.
    expect(firstCall.message.taskId).toBeUndefined();

    const second = await rpc(hub.url, keys.alice, 'SendMessage', {
      message: text('the blue one'),
      configuration: { taskId: task.id, blocking: true },
    });
    expect(second.error).toBeUndefined();
    expect(second.result).toMatchObject({
      id: task.id,
      status: { state: 'completed' },
      artifacts: [{ parts: [{ kind: 'text', text: 'sdk agent heard: the blue one' }] }],
    });
    // The continuation named the server's own task, which it resumed instead of starting anew.
    const secondCall = received.at(-1)!.params as { message: { taskId?: string } };
    expect(secondCall.message.taskId).toMatch(/.+/);
    expect(secondCall.message.taskId).not.toBe(task.id);
  });

  it('is called in A2A v1.0 and its task answer completes the hub task', async () => {
    const r = await rpc(hub.url, keys.alice, 'SendMessage', {
      message: text('hello standard world'),
      configuration: { agentId: ids.sdk, blocking: true },
    });
    expect(r.error).toBeUndefined();
    expect((r.result as { status: unknown }).status).toMatchObject({ state: 'completed' });
    expect(r.result).toMatchObject({
      status: { state: 'completed' },
      artifacts: [{ parts: [{ kind: 'text', text: 'sdk agent heard: hello standard world' }] }],
    });
    const call = received.at(-1)!;
    expect(call.version).toBe('1.0');
    // v1.0 shapes: ROLE_USER and parts without `kind`.
    expect(call.params).toMatchObject({
      message: { role: 'ROLE_USER', parts: [{ text: 'hello standard world' }] },
    });
  });
});

describe('the x-hub envelope', () => {
  it('discards an x-hub a caller puts in its own request', async () => {
    const forged = forgedEnvelope(ids.sdk!);
    const r = await rpc(hub.url, keys.alice, 'SendMessage', {
      message: text('who am I'),
      configuration: { agentId: ids.sdk, blocking: true },
      'x-hub': forged,
      metadata: { 'x-hub': forged },
    });
    expect(r.result).toMatchObject({ status: { state: 'completed' } });
    const env = (
      received.at(-1)!.params.metadata as { 'x-hub': { sender: { agentId: string }; kid: string } }
    )['x-hub'];
    expect(env.sender.agentId).toBe(ids.alice);
    expect(env.kid).not.toBe('fake');
  });
});

describe('durability', () => {
  it('keeps accepted tasks across a restart of the hub', async () => {
    const sent = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        rpc(hub.url, keys.alice, 'SendMessage', {
          message: text(`kept ${i}`),
          configuration: { agentId: ids.bob, 'x-ttl': 60 },
        })
      )
    );
    const taskIds = sent.map((s) => (s.result as { id: string }).id);
    await hub.stop();
    hub = await startHub(config, silentLogger);
    for (const id of taskIds) {
      const g = await rpc(hub.url, keys.alice, 'GetTask', { id });
      expect(g.result, id).toMatchObject({ id, status: { state: expect.any(String) } });
    }
  });
});
