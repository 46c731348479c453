// WebhookInterest on real PostgreSQL and NATS: a tenant's message events are wanted only while a
// live webhook subscribes to them; a change announced on one node reaches the others at once; a
// database that cannot answer means "store it" (an event is never dropped on doubt).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { until } from '../support/test-hub.js';
import { silentLogger } from '../../runtime/log/index.js';
import { connectBus, type Bus } from '../../runtime/bus/index.js';
import {
  createDb,
  createTenant,
  createWebhook,
  deleteWebhook,
  migrate,
  type Db,
} from '../../infra/db/index.js';
import { WebhookInterest } from '../../gateway/webhooks/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let sql: Db;
let bus: Bus;

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase('burrow_webhook_interest');
  sql = createDb(db.url, { max: 2 });
  await migrate(sql);
  bus = await connectBus({ servers: [nats.url], name: 'interest', replicas: 1, log: silentLogger });
}, 60_000);

afterAll(async () => {
  await bus?.close();
  await sql?.end({ timeout: 5 });
  await nats?.close();
  await db?.drop();
});

describe('WebhookInterest', () => {
  it('wants an event only while a live webhook of the tenant subscribes to it', async () => {
    const node = new WebhookInterest({ sql, bus, log: silentLogger });
    node.start();
    const t = await createTenant(sql, { name: 'Interest One' });
    const other = await createTenant(sql, { name: 'Interest Other' });
    expect(await node.wants(t.id, 'message.sent')).toBe(false);

    const { webhook } = await createWebhook(sql, {
      tenantId: t.id,
      url: 'https://hooks.example.com/in',
      events: ['message.sent', 'message.delivered'],
    });
    // Cached until told: the management API and the CLI announce every change.
    expect(await node.wants(t.id, 'message.sent')).toBe(false);
    node.announce(t.id);
    expect(await node.wants(t.id, 'message.sent')).toBe(true);
    expect(await node.wants(t.id, 'message.delivered')).toBe(true);
    expect(await node.wants(t.id, 'message.received')).toBe(false);
    // Another tenant's webhook is not this tenant's interest.
    expect(await node.wants(other.id, 'message.sent')).toBe(false);

    await deleteWebhook(sql, t.id, webhook.id);
    node.announce(t.id);
    expect(await node.wants(t.id, 'message.sent')).toBe(false);
    node.stop();
  });

  it('drops its copy when another node announces a change, and re-reads after the TTL', async () => {
    let now = 1_000_000;
    const a = new WebhookInterest({ sql, bus, log: silentLogger });
    const b = new WebhookInterest({ sql, bus, log: silentLogger, ttlMs: 5_000, now: () => now });
    a.start();
    b.start();
    const t = await createTenant(sql, { name: 'Interest Two' });
    expect(await b.wants(t.id, 'message.received')).toBe(false);
    await createWebhook(sql, {
      tenantId: t.id,
      url: 'https://hooks.example.com/two',
      events: ['message.received'],
    });
    a.announce(t.id);
    await until(async () => await b.wants(t.id, 'message.received'), 5_000);

    const t2 = await createTenant(sql, { name: 'Interest Three' });
    expect(await b.wants(t2.id, 'message.sent')).toBe(false);
    await createWebhook(sql, {
      tenantId: t2.id,
      url: 'https://hooks.example.com/three',
      events: ['message.sent'],
    });
    expect(await b.wants(t2.id, 'message.sent')).toBe(false);
    now += 5_000; // no announcement: the TTL bounds how long the old answer lives
    expect(await b.wants(t2.id, 'message.sent')).toBe(true);
    a.stop();
    b.stop();
  });

  it('answers yes when the database cannot be read', async () => {
    const broken = createDb('postgres://nobody@127.0.0.1:1/none', { max: 1 });
    const node = new WebhookInterest({ sql: broken, bus, log: silentLogger });
    expect(await node.wants('ten-aaaaaaaaaaaa', 'message.sent')).toBe(true);
    await broken.end({ timeout: 1 });
  });
});
