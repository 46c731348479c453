// One tenant's receiver that never answers must not slow another tenant's webhooks (issue 18,
// item 5), and the retry schedule of 1 s, 5 s and 30 s after each failure holds meanwhile. Real
// hub, real HTTP receivers, real time: the 1 s and 5 s retries are measured at the receiver, the
// 30 s one is read from the delivery's stored schedule (waiting for it would add 30 s).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import {
  createTenant,
  createWebhook,
  issueAdminKey,
  purchaseCredits,
} from '../../infra/db/index.js';
import { PER_DESTINATION, WEBHOOK_TIMEOUT_MS } from '../../gateway/webhooks/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
const receivers: WebhookReceiver[] = [];

/** A tenant whose one webhook (credits.purchased) posts to a fresh receiver. */
async function tenantWithReceiver(name: string) {
  const tenant = await createTenant(hub.sql, { name });
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const { secret, webhook } = await createWebhook(hub.sql, {
    tenantId: tenant.id,
    url: receiver.url,
    events: ['credits.purchased'],
  });
  receiver.secret = secret;
  return { tenantId: tenant.id, receiver, webhookId: webhook.id };
}

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db, { PARTITIONS: '4' }), silentLogger);
});

afterAll(async () => {
  await hub?.stop();
  for (const r of receivers) await r.close();
  await nats?.close();
  await db?.drop();
});

describe('webhook deliveries, one destination at a time', () => {
  it('delivers to a healthy receiver at once while another tenant’s receiver hangs', async () => {
    const slow = await tenantWithReceiver('Hangs');
    slow.receiver.hang = true;
    // More due deliveries than one claim used to take (50), all older than the healthy one.
    for (let i = 1; i <= 60; i += 1) await purchaseCredits(hub.sql, slow.tenantId, i);
    await until(() => slow.receiver.received.length >= 1);
    // All 60 queued, so the healthy event's latency is the dispatcher's alone.
    await until(async () => {
      const [n] = await hub.sql<{ count: number }[]>`
        select count(*)::int from webhook_deliveries where webhook_id = ${slow.webhookId}`;
      return n?.count === 60;
    });

    const fast = await tenantWithReceiver('Healthy');
    const key = (await issueAdminKey(hub.sql, fast.tenantId)).key;
    const sent = Date.now();
    const res = await fetch(`${hub.url}/api/credits/purchase`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 500 }),
    });
    expect(res.status).toBe(200);
    await until(() => fast.receiver.received.length === 1, WEBHOOK_TIMEOUT_MS * 3);
    const latency = fast.receiver.received[0]!.at - sent;
    expect(latency, 'healthy delivery latency (ms)').toBeLessThan(1_000);
    expect(fast.receiver.received[0]!.signatureValid).toBe(true);
    // The hanging receiver holds only its own slots.
    expect(slow.receiver.received.length).toBeLessThanOrEqual(PER_DESTINATION);
  }, 60_000);

  it('retries 1 s, 5 s and 30 s after each failure, a hanging receiver elsewhere', async () => {
    const failing = await tenantWithReceiver('Fails');
    failing.receiver.respond = 500;
    const hanging = await tenantWithReceiver('Hangs too');
    hanging.receiver.hang = true;
    await purchaseCredits(hub.sql, failing.tenantId, 100);
    await purchaseCredits(hub.sql, hanging.tenantId, 100);

    await until(() => failing.receiver.received.length === 3, 20_000);
    const [a0, a1, a2] = failing.receiver.received.map((r) => r.at) as [number, number, number];
    // Each failure is the 500 answer, a few ms after its arrival; the retry follows it.
    expect(a1 - a0, '1st retry gap (ms)').toBeGreaterThanOrEqual(1_000);
    expect(a1 - a0, '1st retry gap (ms)').toBeLessThan(1_300);
    expect(a2 - a1, '2nd retry gap (ms)').toBeGreaterThanOrEqual(5_000);
    expect(a2 - a1, '2nd retry gap (ms)').toBeLessThan(5_300);
    const ids = failing.receiver.received.map((r) => r.headers['x-hub-delivery']);
    expect(new Set(ids).size).toBe(1);

    // The third failure schedules the last retry exactly 30 s after it.
    let row: { attempts: number; status: string; nextAt: Date; updatedAt: Date } | undefined;
    await until(async () => {
      [row] = await hub.sql<NonNullable<typeof row>[]>`
        select attempts, status, next_at, updated_at from webhook_deliveries
        where webhook_id = ${failing.webhookId}`;
      return row?.attempts === 3;
    });
    expect(row!.status).toBe('pending');
    expect(row!.nextAt.getTime() - row!.updatedAt.getTime()).toBe(30_000);
    // Recorded once the third attempt's answer came (same machine clock, so not before it).
    expect(row!.updatedAt.getTime()).toBeGreaterThanOrEqual(a2);

    // A receiver that never answers fails at the timeout; its retry comes 1 s after that.
    await until(() => hanging.receiver.received.length === 2, 20_000);
    const [h0, h1] = hanging.receiver.received.map((r) => r.at) as [number, number];
    expect(h1 - h0, 'retry gap after a timeout (ms)').toBeGreaterThanOrEqual(
      WEBHOOK_TIMEOUT_MS + 1_000
    );
    expect(h1 - h0, 'retry gap after a timeout (ms)').toBeLessThan(WEBHOOK_TIMEOUT_MS + 1_300);
  }, 60_000);
});
