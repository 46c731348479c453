// One tenant's receiver that never answers must not slow another tenant's webhooks (issue 18,
// item 5), and the retry schedule of 1 s, 5 s and 30 s after each failure holds meanwhile. Real
// hub, real HTTP receivers, real time: each retry's delay is read from the delivery's stored
// schedule after each attempt, and the receiver sees the 1 s and 5 s retries no sooner.
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

interface DeliveryRow {
  attempts: number;
  status: string;
  nextAt: Date;
  updatedAt: Date;
}

/**
 * The webhook's one delivery row as its `n`th attempt left it, before the next claim sets its
 * lease. Polled often enough to see each state: the next claim comes a second or more later.
 */
function afterAttempt(webhookId: string): (n: number) => Promise<DeliveryRow> {
  return async (n) => {
    let row: DeliveryRow | undefined;
    await until(async () => {
      [row] = await hub.sql<DeliveryRow[]>`
        select attempts, status, next_at, updated_at from webhook_deliveries
        where webhook_id = ${webhookId}`;
      return (row?.attempts ?? 0) >= n;
    }, 20_000);
    expect(row!.attempts, `attempt ${n} seen before the next`).toBe(n);
    return row!;
  };
}

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
    const res = await fetch(`${hub.url}/api/credits/purchase`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 500 }),
    });
    expect(res.status).toBe(200);
    await until(() => fast.receiver.received.length === 1, WEBHOOK_TIMEOUT_MS * 3);
    // It did not wait behind the hanging receiver: none of that one's attempts has even timed
    // out yet (a timed-out attempt is recorded on its row at once).
    const [tried] = await hub.sql<{ count: number }[]>`
      select count(*)::int from webhook_deliveries
      where webhook_id = ${slow.webhookId} and attempts > 0`;
    expect(tried?.count, 'hanging deliveries already attempted').toBe(0);
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

    // Watched from now on: its first attempt times out while the other one's retries go on.
    const timingOut = afterAttempt(hanging.webhookId)(1);
    // After each failure, the retry is scheduled 1 s, then 5 s, then 30 s after it.
    const failingRow = afterAttempt(failing.webhookId);
    const first = await failingRow(1);
    expect(first.status).toBe('pending');
    expect(first.nextAt.getTime() - first.updatedAt.getTime()).toBe(1_000);
    const second = await failingRow(2);
    expect(second.nextAt.getTime() - second.updatedAt.getTime()).toBe(5_000);
    const third = await failingRow(3);
    expect(third.status).toBe('pending');
    expect(third.nextAt.getTime() - third.updatedAt.getTime()).toBe(30_000);

    await until(() => failing.receiver.received.length === 3, 20_000);
    const [a0, a1, a2] = failing.receiver.received.map((r) => r.at) as [number, number, number];
    // Each failure is the 500 answer, a few ms after its arrival; the retry never comes sooner.
    expect(a1 - a0, '1st retry gap (ms)').toBeGreaterThanOrEqual(1_000);
    expect(a2 - a1, '2nd retry gap (ms)').toBeGreaterThanOrEqual(5_000);
    const ids = failing.receiver.received.map((r) => r.headers['x-hub-delivery']);
    expect(new Set(ids).size).toBe(1);
    // Recorded once the third attempt's answer came (same machine clock, so not before it).
    expect(third.updatedAt.getTime()).toBeGreaterThanOrEqual(a2);

    // A receiver that never answers fails at the timeout; its retry comes 1 s after that.
    const timedOut = await timingOut;
    expect(timedOut.nextAt.getTime() - timedOut.updatedAt.getTime()).toBe(1_000);
    await until(() => hanging.receiver.received.length === 2, 20_000);
    const [h0, h1] = hanging.receiver.received.map((r) => r.at) as [number, number];
    expect(h1 - h0, 'retry gap after a timeout (ms)').toBeGreaterThanOrEqual(
      WEBHOOK_TIMEOUT_MS + 1_000
    );
  }, 60_000);
});
