// The webhook dispatcher against real PostgreSQL and a real local HTTP receiver, with an injected
// clock: signed deliveries, the 1 s / 5 s / 30 s retry schedule, the `failing` mark and recovery,
// a dispatcher restart between retries that loses nothing and repeats no success, and claims per
// destination that two nodes never share.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  claimDueDeliveries,
  createDb,
  createTenant,
  createWebhook,
  listWebhooks,
  migrate,
  type Db,
} from '../../infra/db/index.js';
import { silentLogger } from '../../runtime/log/index.js';
import { createOutboundGuard } from '../../runtime/net/index.js';
import { createWebhookDispatcher, type WebhookDispatcher } from '../../gateway/webhooks/index.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

let testDb: TestDatabase;
let db: Db;
let receiver: WebhookReceiver;
let tenantId: string;
let clock = 1_800_000_000_000;
const now = () => clock;
let seq = 0;

function dispatcher(): WebhookDispatcher {
  return createWebhookDispatcher({
    sql: db,
    log: silentLogger,
    now,
    // The receiver listens on loopback.
    guard: createOutboundGuard({ allowPrivate: true }),
  });
}

function event(name = 'credits.purchased') {
  seq += 1;
  const body = JSON.stringify({
    event: name,
    timestamp: new Date(clock).toISOString(),
    data: { amount: seq, currency: 'USD', balance: seq },
  });
  return { tenantId, eventId: `ev-${seq}`, event: name, body };
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDb(testDb.url, { max: 4 });
  await migrate(db);
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver?.close();
  await db?.end({ timeout: 5 });
  await testDb?.drop();
});

beforeEach(async () => {
  tenantId = (await createTenant(db, { name: `T${Math.random()}` })).id;
  const { secret } = await createWebhook(db, {
    tenantId,
    url: receiver.url,
    events: ['credits.purchased', 'credits.low_balance'],
  });
  receiver.secret = secret;
  receiver.respond = 200;
  receiver.received.length = 0;
});

describe('webhook dispatcher', () => {
  it('posts a signed {event, timestamp, data} with the X-Hub headers', async () => {
    const d = dispatcher();
    const e = event();
    expect(await d.ingest(e)).toBe(1);
    expect(await d.ingest(e)).toBe(0); // the same event again adds nothing
    expect(await d.tick()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    expect(got.signatureValid).toBe(true);
    expect(got.body).toBe(e.body);
    expect(got.headers['x-hub-event']).toBe('credits.purchased');
    expect(got.headers['x-hub-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(got.headers['x-hub-timestamp']).toBe(String(clock / 1000));
    expect(got.headers['x-hub-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(await d.tick()).toBe(0);
  });

  it('does not send events the webhook did not subscribe to, nor other tenants’ events', async () => {
    const d = dispatcher();
    expect(await d.ingest(event('message.sent'))).toBe(0);
    expect(await d.ingest({ ...event(), tenantId: 'ten-nobody' })).toBe(0);
  });

  it('retries after 1 s, 5 s and 30 s, then marks the webhook failing', async () => {
    const d = dispatcher();
    receiver.respond = 500;
    await d.ingest(event());
    const at = (ms: number) => (clock = 1_800_000_000_000 + ms);
    at(0);
    expect(await d.tick()).toBe(1);
    for (const [notYet, due] of [
      [999, 1_000],
      [5_999, 6_000],
      [35_999, 36_000],
    ] as const) {
      at(notYet);
      expect(await d.tick()).toBe(0);
      at(due);
      expect(await d.tick()).toBe(1);
    }
    at(1_000_000);
    expect(await d.tick()).toBe(0); // no fifth attempt
    expect(receiver.received).toHaveLength(4);
    const ids = new Set(receiver.received.map((r) => r.headers['x-hub-delivery']));
    expect(ids.size).toBe(1); // the same delivery id on every retry
    expect(receiver.received.every((r) => r.signatureValid)).toBe(true);
    const [hook] = await listWebhooks(db, tenantId);
    expect(hook?.status).toBe('failing');
    expect(hook?.lastError).toBe('HTTP 500');

    // While failing: a later event gets one attempt, no retries.
    await d.ingest(event());
    expect(await d.tick()).toBe(1);
    clock += 40_000;
    expect(await d.tick()).toBe(0);
    expect(receiver.received).toHaveLength(5);

    // The receiver recovers: the next event is delivered and the webhook is active again.
    receiver.respond = 204;
    await d.ingest(event());
    expect(await d.tick()).toBe(1);
    expect((await listWebhooks(db, tenantId))[0]?.status).toBe('active');
  });

  it('survives a restart between retries: the new dispatcher resumes the schedule', async () => {
    const first = dispatcher();
    receiver.respond = 503;
    clock = 1_900_000_000_000;
    await first.ingest(event());
    expect(await first.tick()).toBe(1);
    await first.stop();

    receiver.respond = 200;
    const second = dispatcher(); // a new process: nothing in memory, only the database
    clock += 500;
    expect(await second.tick()).toBe(0); // the 1 s retry is not due yet
    clock += 500;
    expect(await second.tick()).toBe(1);
    clock += 60_000;
    expect(await second.tick()).toBe(0); // delivered: never sent again
    expect(receiver.received.map((r) => r.headers['x-hub-delivery'])).toHaveLength(2);
    expect(new Set(receiver.received.map((r) => r.headers['x-hub-delivery'])).size).toBe(1);
    expect((await listWebhooks(db, tenantId))[0]?.status).toBe('active');
  });
});

describe('claiming per destination', () => {
  it('takes at most perDestination rows of a webhook, other webhooks’ rows too, none twice', async () => {
    const d = dispatcher();
    const other = await createWebhook(db, {
      tenantId,
      url: `${receiver.url}?other`,
      events: ['credits.low_balance'],
    });
    clock = 2_000_000_000_000;
    for (let i = 0; i < 10; i += 1) await d.ingest(event()); // credits.purchased: the first hook
    await d.ingest(event('credits.low_balance')); // both hooks
    const claim = (inFlight: Map<string, number>) =>
      claimDueDeliveries(db, {
        now: new Date(clock),
        leaseUntil: new Date(clock + 10_000),
        limit: 50,
        perDestination: 4,
        inFlight,
      });
    // Two nodes claiming at once: disjoint rows, each within its own per-destination slots.
    const [a, b] = await Promise.all([claim(new Map()), claim(new Map())]);
    const ids = [...a, ...b].map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const batch of [a, b]) {
      const first = batch.filter((r) => r.webhookId !== other.webhook.id).length;
      expect(first).toBeLessThanOrEqual(4);
    }
    expect([...a, ...b].filter((r) => r.webhookId === other.webhook.id)).toHaveLength(1);
    expect(ids).toHaveLength(9); // 4 + 4 of the first hook's 11, and the other hook's one
    // A node whose slots for the first hook are taken claims none of its 3 remaining rows.
    const firstId = a.find((r) => r.webhookId !== other.webhook.id)!.webhookId;
    expect(await claim(new Map([[firstId, 4]]))).toEqual([]);
    expect(await claim(new Map([[firstId, 3]]))).toHaveLength(1);
    // The last 2 unleased rows; then every row is leased, until the lease ends (a node died
    // mid-attempt) and they are due again: 4 + 1.
    expect(await claim(new Map())).toHaveLength(2);
    expect(await claim(new Map())).toEqual([]);
    clock += 10_000;
    expect((await claim(new Map())).length).toBe(5);
  });
});
