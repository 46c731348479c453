// message.sent / message.delivered / message.received through a running hub to real webhook
// receivers: the sender's account gets sent and delivered (deliveryMethod websocket, or http
// for the hub's own agents), the recipient's account gets received; each exactly once, with the
// spec's data fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { connectWsAgent, type TestWsAgent } from '../support/ws-agent.js';
import { rpc, text } from '../support/rpc.js';
import { silentLogger } from '../../runtime/log/index.js';
import { streams, subjects } from '../../runtime/bus/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant, createWebhook } from '../../infra/db/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let senderHooks: WebhookReceiver;
let recipientHooks: WebhookReceiver;
let bob: TestWsAgent;
const keys = { alice: '', bob: '' };
const ids = { alice: '', bob: '' };

const MESSAGE_EVENTS = ['message.sent', 'message.delivered', 'message.received', 'message.failed'];

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db, { PARTITIONS: '4' }), silentLogger);
  const acme = await createTenant(hub.sql, { name: 'Acme' });
  const beta = await createTenant(hub.sql, { name: 'Beta' });
  const alice = await createAgent(hub.sql, { tenantId: acme.id, name: 'alice' });
  const bobRec = await createAgent(hub.sql, {
    tenantId: beta.id,
    name: 'bob',
    visibility: 'public',
  });
  keys.alice = alice.apiKey;
  keys.bob = bobRec.apiKey;
  ids.alice = alice.agent.id;
  ids.bob = bobRec.agent.id;
  senderHooks = await startWebhookReceiver();
  recipientHooks = await startWebhookReceiver();
  senderHooks.secret = (
    await createWebhook(hub.sql, {
      tenantId: acme.id,
      url: senderHooks.url,
      events: MESSAGE_EVENTS,
    })
  ).secret;
  recipientHooks.secret = (
    await createWebhook(hub.sql, {
      tenantId: beta.id,
      url: recipientHooks.url,
      events: MESSAGE_EVENTS,
    })
  ).secret;
  bob = await connectWsAgent(hub.url, keys.bob);
});

afterAll(async () => {
  await bob?.close();
  await hub?.stop();
  await senderHooks?.close();
  await recipientHooks?.close();
  await nats?.close();
  await db?.drop();
});

const forTask = (h: WebhookReceiver, taskId: string) =>
  h.received.filter((r) => (r.json.data as { taskId?: string }).taskId === taskId);

/**
 * A fence for "no further event": a later message from alice to bob, answered. Its events are
 * published after those of every task that completed before it (one publisher, in order); once
 * they have reached the receivers and no webhook delivery is pending, an extra event stored
 * before them would have been delivered too. Returns the fence's task id.
 */
async function eventFence(): Promise<string> {
  const pending = rpc(hub.url, keys.alice, 'SendMessage', {
    message: text('fence'),
    configuration: { agentId: ids.bob, blocking: true },
  });
  const m = await bob.next('message');
  bob.send({ type: 'task_response', taskId: m.taskId, status: { state: 'completed' } });
  const fenceId = ((await pending).result as { id: string }).id;
  const of = (h: WebhookReceiver) => forTask(h, fenceId).length;
  await until(() => of(senderHooks) >= 2 && of(recipientHooks) >= 1);
  await until(async () => {
    const rows = await hub.sql.unsafe<Array<{ n: string }>>(
      "select count(*) as n from webhook_deliveries where status = 'pending'"
    );
    return Number(rows[0]?.n) === 0;
  });
  return fenceId;
}

describe('message events', () => {
  it('sends sent and delivered to the sender’s account and received to the recipient’s', async () => {
    const pending = rpc(hub.url, keys.alice, 'SendMessage', {
      message: text('hello bob'),
      configuration: { agentId: ids.bob, blocking: true },
    });
    const m = await bob.next('message');
    bob.send({ type: 'task_response', taskId: m.taskId, status: { state: 'completed' } });
    const answer = await pending;
    const taskId = (answer.result as { id: string }).id;
    const contextId = (answer.result as { contextId: string }).contextId;

    await until(() => senderHooks.received.length >= 2 && recipientHooks.received.length >= 1);
    await eventFence();
    const ref = { taskId, contextId, from: ids.alice, to: ids.bob };
    const sent = forTask(senderHooks, taskId).map((r) => [r.json.event, r.json.data]);
    expect(sent).toHaveLength(2);
    expect(sent).toContainEqual(['message.sent', ref]);
    expect(sent).toContainEqual(['message.delivered', { ...ref, deliveryMethod: 'websocket' }]);
    expect(forTask(recipientHooks, taskId).map((r) => [r.json.event, r.json.data])).toEqual([
      ['message.received', ref],
    ]);
    for (const r of [...senderHooks.received, ...recipientHooks.received]) {
      expect(r.signatureValid).toBe(true);
      expect(r.headers['x-hub-event']).toBe(r.json.event);
    }
  }, 30_000);

  it('stores no message events for a tenant whose webhooks do not subscribe to them', async () => {
    const quiet = await createTenant(hub.sql, { name: 'Quiet' });
    const carol = await createAgent(hub.sql, { tenantId: quiet.id, name: 'carol' });
    const pending = rpc(hub.url, carol.apiKey, 'SendMessage', {
      message: text('nobody listens'),
      configuration: { agentId: ids.bob, blocking: true },
    });
    const m = await bob.next('message');
    bob.send({ type: 'task_response', taskId: m.taskId, status: { state: 'completed' } });
    expect(((await pending).result as { status: { state: string } }).status.state).toBe(
      'completed'
    );
    // The recipient's account still hears of it (its webhook subscribes to message.received).
    await until(() =>
      recipientHooks.received.some(
        (r) => (r.json.data as { from?: string }).from === carol.agent.id
      )
    );
    await eventFence();
    const info = await hub.bus.jsm.streams.info(streams.events, {
      subjects_filter: subjects.hubEventsOfTenant(quiet.id),
    });
    expect(info.state.subjects ?? {}).toEqual({});
  }, 30_000);

  it('reports delivery to an official agent like any other, with deliveryMethod http', async () => {
    const answer = await rpc(hub.url, keys.alice, 'SendMessage', {
      message: text('hello echo'),
      configuration: { agentId: 'echo', blocking: true },
    });
    const { id: taskId, contextId } = answer.result as { id: string; contextId: string };
    const ofTask = () =>
      senderHooks.received.filter((r) => (r.json.data as { taskId?: string }).taskId === taskId);
    await until(() => ofTask().length >= 2);
    const ref = { taskId, contextId, from: ids.alice, to: 'agent-echo-official' };
    expect(ofTask().map((r) => [r.json.event, r.json.data])).toEqual(
      expect.arrayContaining([
        ['message.sent', ref],
        ['message.delivered', { ...ref, deliveryMethod: 'http' }],
      ])
    );
  }, 30_000);
});
