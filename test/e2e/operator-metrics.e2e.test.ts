// The metrics an operator alerts on (issue 25): deliveries by transport and outcome, queue
// deliveries (the drain rate), WebSocket connections and outbox backpressure, JetStream publish
// latency and pending acks, webhook POSTs by outcome — read from /metrics of a real hub after
// real traffic, so each series is shown to move.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { connectWsAgent, type TestWsAgent } from '../support/ws-agent.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { rpc, text } from '../support/rpc.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant, createWebhook } from '../../infra/db/index.js';

const ADMIN = 'admin-token-for-tests-0123456789';
let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let receiver: WebhookReceiver;
let bob: TestWsAgent | undefined;
const keys: Record<string, string> = {};
const ids: Record<string, string> = {};

async function scrape(): Promise<string> {
  const res = await fetch(`${hub.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } });
  expect(res.status).toBe(200);
  return res.text();
}

/** The value of one series (labels in any order), or 0 when it is absent. */
function value(metrics: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of metrics.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries(
      (m[2] ?? '')
        .split(',')
        .filter(Boolean)
        .map((kv) => kv.split('=') as [string, string])
        .map(([k, v]) => [k, v.replace(/^"|"$/g, '')])
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return 0;
}

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(
    testHubConfig(nats, db, { ADMIN_TOKEN: ADMIN, QUEUE_DRAIN_PER_SECOND: '50' }),
    silentLogger
  );
  await until(() => hub.partitions.ownedPartitions().length === 8, 30_000);
  const tenant = await createTenant(hub.sql, { name: 'Acme' });
  for (const name of ['alice', 'bob']) {
    const a = await createAgent(hub.sql, { tenantId: tenant.id, name });
    keys[name] = a.apiKey;
    ids[name] = a.agent.id;
  }
  receiver = await startWebhookReceiver();
  const { secret } = await createWebhook(hub.sql, {
    tenantId: tenant.id,
    url: receiver.url,
    events: ['message.delivered'],
  });
  receiver.secret = secret;
}, 60_000);

afterAll(async () => {
  await bob?.close();
  await receiver?.close();
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

describe('/metrics for operators', () => {
  it('counts deliveries by transport and outcome, queue deliveries and webhook POSTs', async () => {
    const before = await scrape();
    // Official agent: answered over the bus.
    const echo = await rpc(hub.url, keys.alice, 'SendMessage', {
      message: text('ping'),
      configuration: { agentId: 'agent-echo-official', blocking: true },
    });
    expect(echo.error).toBeUndefined();
    // Bob offline: the message queues (no attempt is made); he connects and the queue drains.
    const queued = await rpc<{ status: { state: string } }>(hub.url, keys.alice, 'SendMessage', {
      message: text('while you were out'),
      configuration: { agentId: ids.bob },
    });
    expect(queued.result?.status.state).toBe('submitted');
    bob = await connectWsAgent(hub.url, keys.bob);
    const frame = await bob.next('message', 15_000);
    bob.send({ type: 'task_response', taskId: frame.taskId, status: { state: 'completed' } });
    await until(() => receiver.received.length >= 2, 15_000);

    const after = await scrape();
    const diff = (name: string, labels: Record<string, string> = {}) =>
      value(after, name, labels) - value(before, name, labels);
    expect(diff('burrow_deliveries_total', { transport: 'official', outcome: 'answered' })).toBe(1);
    expect(diff('burrow_deliveries_total', { transport: 'websocket', outcome: 'pushed' })).toBe(1);
    expect(diff('burrow_queue_deliveries_total', { outcome: 'delivered' })).toBe(1);
    expect(diff('burrow_webhook_deliveries_total', { outcome: 'ok' })).toBeGreaterThanOrEqual(2);
  });

  it('shows the open sockets, their outboxes, and JetStream publish latency and pending acks', async () => {
    const m = await scrape();
    expect(value(m, 'burrow_ws_connections')).toBe(1);
    expect(value(m, 'burrow_ws_outbox_frames')).toBe(0);
    expect(value(m, 'burrow_ws_backed_up_sockets')).toBe(0);
    expect(value(m, 'burrow_jetstream_publish_seconds_count')).toBeGreaterThan(0);
    expect(m).toMatch(/burrow_jetstream_publish_seconds_bucket\{le="0.005"[^}]*\} \d+/);
    expect(m).toMatch(/^burrow_jetstream_pending_acks(\{[^}]*\})? \d+$/m);
    expect(m).toMatch(/^burrow_redeliveries_total(\{[^}]*\})? 0$/m);
    expect(m).toMatch(/^burrow_duplicate_pushes_dropped_total(\{[^}]*\})? 0$/m);
    await bob!.close();
    bob = undefined;
    await until(async () => value(await scrape(), 'burrow_ws_connections') === 0, 10_000);
  });
});
