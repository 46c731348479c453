// Account webhooks through a running hub: the management API (create with a generated secret shown
// once, list with status, delete, test event), and an account event travelling the durable path
// (event outbox → HUB_EVENTS → dispatcher consumer → signed POST) to a real local receiver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant, issueAdminKey } from '../../infra/db/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let receiver: WebhookReceiver;
const keys = { admin: '', otherAdmin: '', agent: '' };
let hookId = '';

async function call(method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`${hub.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & {
      error?: { code: string; details?: { field?: string } };
    },
  };
}

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db, { PARTITIONS: '4' }), silentLogger);
  receiver = await startWebhookReceiver();
  const acme = await createTenant(hub.sql, { name: 'Acme' });
  const other = await createTenant(hub.sql, { name: 'Other' });
  keys.admin = (await issueAdminKey(hub.sql, acme.id)).key;
  keys.otherAdmin = (await issueAdminKey(hub.sql, other.id)).key;
  keys.agent = (await createAgent(hub.sql, { tenantId: acme.id, name: 'alice' })).apiKey;
});

afterAll(async () => {
  await hub?.stop();
  await receiver?.close();
  await nats?.close();
  await db?.drop();
});

describe('webhooks API', () => {
  it.each([
    [{ url: 'not a url', events: ['credits.purchased'] }, 'url'],
    [{ url: 'http://127.0.0.1:1/x', events: [] }, 'events'],
    [{ url: 'http://127.0.0.1:1/x', events: ['credits.stolen'] }, 'events'],
    [{ url: 'http://127.0.0.1:1/x', events: ['credits.purchased'], secret: 'short' }, 'secret'],
    [{ url: 'http://127.0.0.1:1/x', events: ['credits.purchased'], colour: 1 }, 'colour'],
  ])('refuses %j with 400 naming %s, creating nothing', async (body, field) => {
    const r = await call('POST', '/api/webhooks', keys.admin, body);
    expect(r.status).toBe(400);
    expect(r.body.error?.details?.field).toBe(field);
    expect((await call('GET', '/api/webhooks', keys.admin)).body.webhooks).toEqual([]);
  });

  it('creates a webhook with a generated secret, shown once', async () => {
    const r = await call('POST', '/api/webhooks', keys.admin, {
      url: receiver.url,
      events: ['credits.purchased'],
    });
    expect(r.status).toBe(201);
    expect(r.body.secret).toMatch(/^whsec_/);
    receiver.secret = r.body.secret as string;
    hookId = (r.body.webhook as { id: string }).id;
    const list = await call('GET', '/api/webhooks', keys.admin);
    expect(list.body.webhooks).toMatchObject([
      { id: hookId, url: receiver.url, events: ['credits.purchased'], status: 'active' },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(receiver.secret);
    expect((await call('GET', '/api/webhooks', keys.otherAdmin)).body.webhooks).toEqual([]);
    expect((await call('GET', '/api/webhooks', keys.agent)).status).toBe(403);
  });

  it('delivers credits.purchased, signed, through the durable path', async () => {
    await call('POST', '/api/credits/purchase', keys.admin, { amount: 1234 });
    await until(() => receiver.received.length >= 1);
    const got = receiver.received[0]!;
    expect(got.signatureValid).toBe(true);
    expect(got.headers['x-hub-event']).toBe('credits.purchased');
    expect(got.json).toMatchObject({
      event: 'credits.purchased',
      data: { amount: 1234, currency: 'USD', balance: 1234 },
    });
    expect(Date.parse(got.json.timestamp)).not.toBeNaN();
  });

  it('sends a test event on request and reports the outcome', async () => {
    receiver.respond = 500;
    const failed = await call('POST', `/api/webhooks/${hookId}/test`, keys.admin);
    expect(failed.body).toMatchObject({ delivered: false, error: 'HTTP 500' });
    receiver.respond = 200;
    const ok = await call('POST', `/api/webhooks/${hookId}/test`, keys.admin);
    expect(ok.body).toMatchObject({ delivered: true, status: 'active' });
    const last = receiver.received.at(-1)!;
    expect(last.headers['x-hub-event']).toBe('webhook.test');
    expect(last.signatureValid).toBe(true);
    expect((await call('POST', `/api/webhooks/${hookId}/test`, keys.otherAdmin)).status).toBe(404);
  });

  it('deletes a webhook (404 for another tenant)', async () => {
    expect((await call('DELETE', `/api/webhooks/${hookId}`, keys.otherAdmin)).status).toBe(404);
    expect((await call('DELETE', `/api/webhooks/${hookId}`, keys.admin)).body).toEqual({
      id: hookId,
      deleted: true,
    });
    expect((await call('GET', '/api/webhooks', keys.admin)).body.webhooks).toEqual([]);
  });
});
