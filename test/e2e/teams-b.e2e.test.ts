// Issue 28 items 3–5 through a running hub: spending budgets (a used-up budget refuses sends with
// -32025 naming it, 80%/100% events and the `spending` alert), alias and emailEnabled by PATCH,
// named scoped keys with expiry, /api/whoami, /api/tenants under ADMIN_TOKEN, `unlisted`
// visibility; and tenants kept apart in each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { rpc, text } from '../support/rpc.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { debitCredits, purchaseCredits } from '../../infra/db/index.js';

const OPERATOR = 'operator-token-for-teams-tests-0123456789';
let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
const t = { acme: '', other: '' };
const key = { acme: '', other: '', alice: '', bob: '', carol: '' };
const id = { alice: '', bob: '', carol: '' };

/** The fields these tests read from REST answers. */
interface Body {
  tenant: { id: string };
  tenants: Array<{ id: string }>;
  adminKey: string;
  agent: { agentId: string };
  apiKey: string;
  keyId: string;
  keys: Array<{ name: string }>;
  alerts: unknown[];
  budgets: unknown[];
  [k: string]: unknown;
}

async function call(method: string, path: string, k: string | undefined, body?: unknown) {
  const res = await fetch(`${hub.url}${path}`, {
    method,
    headers: {
      ...(k ? { authorization: `Bearer ${k}` } : {}),
      'content-type': 'application/json',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

const send = (k: string, agentId: string) =>
  rpc(hub.url, k, 'SendMessage', { message: text('hi'), configuration: { agentId } });

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(
    testHubConfig(nats, db, { PARTITIONS: '4', ADMIN_TOKEN: OPERATOR }),
    silentLogger
  );
  // Tenants over HTTP with the operator token, each with its first admin key.
  for (const name of ['acme', 'other'] as const) {
    const r = await call('POST', '/api/tenants', OPERATOR, { name });
    expect(r.status).toBe(201);
    t[name] = r.body.tenant.id;
    key[name] = r.body.adminKey;
  }
  for (const [who, admin] of [
    ['alice', key.acme],
    ['bob', key.acme],
    ['carol', key.other],
  ] as const) {
    const r = await call('POST', '/api/agents', admin, { name: who, alias: who });
    expect(r.status).toBe(201);
    id[who] = r.body.agent.agentId;
    key[who] = r.body.apiKey;
  }
});

afterAll(async () => {
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

describe('tenants over HTTP', () => {
  it('lists tenants for the operator token only', async () => {
    const r = await call('GET', '/api/tenants', OPERATOR);
    expect(r.status).toBe(200);
    expect(r.body.tenants.map((x) => x.id)).toEqual(expect.arrayContaining([t.acme, t.other]));
    expect((await call('GET', '/api/tenants', key.acme)).status).toBe(401);
    expect((await call('POST', '/api/tenants', OPERATOR, { name: 7 })).status).toBe(400);
  });
});

describe('named keys, scopes, expiry, whoami', () => {
  it('issues a discovery-only key that cannot send, and whoami describes it', async () => {
    const r = await call('POST', `/api/agents/${id.alice}/keys`, key.acme, {
      name: 'reader',
      scopes: ['discovery'],
    });
    expect(r.status).toBe(201);
    const reader = r.body.apiKey;
    const who = await call('GET', '/api/whoami', reader);
    expect(who.body).toMatchObject({
      kind: 'agent',
      tenant: { id: t.acme },
      agent: { id: id.alice },
      key: { name: 'reader', scopes: ['discovery'], expiresAt: null },
    });
    expect((await call('GET', '/api/discover/agents?scope=tenant', reader)).status).toBe(200);
    const sent = await send(reader, id.bob);
    expect(sent.error?.code).toBe(-32015);
    expect((await call('PATCH', `/api/agents/${id.alice}`, reader, { alias: 'x' })).status).toBe(
      403
    );
    // Listed without its secret; revoked, it stops working.
    const list = await call('GET', `/api/agents/${id.alice}/keys`, key.acme);
    expect(list.body.keys.map((k) => k.name)).toContain('reader');
    expect(JSON.stringify(list.body)).not.toContain(reader);
    const del = await call('DELETE', `/api/agents/${id.alice}/keys/${r.body.keyId}`, key.acme);
    expect(del.status).toBe(200);
    await until(async () => (await call('GET', '/api/whoami', reader)).status === 401);
  });

  it('refuses bad input naming the field, and another tenant sees no agent', async () => {
    const bad = await call('POST', `/api/agents/${id.alice}/keys`, key.acme, {
      name: 'x',
      scopes: ['root'],
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('scopes');
    const past = await call('POST', `/api/agents/${id.alice}/keys`, key.acme, {
      name: 'y',
      expiresAt: '2000-01-01T00:00:00Z',
    });
    expect(past.status).toBe(400);
    expect(JSON.stringify(past.body)).toContain('expiresAt');
    const foreign = await call('POST', `/api/agents/${id.alice}/keys`, key.other, { name: 'z' });
    expect(foreign.status).toBe(404);
  });

  it('an expiring key works until its expiry, then is refused', async () => {
    const expiresAt = new Date(Date.now() + 3000).toISOString();
    const r = await call('POST', `/api/agents/${id.alice}/keys`, key.acme, {
      name: 'short',
      expiresAt,
    });
    expect(r.status).toBe(201);
    expect((await call('GET', '/api/whoami', r.body.apiKey)).status).toBe(200);
    await until(async () => (await call('GET', '/api/whoami', r.body.apiKey)).status === 401);
  });
});

describe('alias and email', () => {
  it('renames the alias by PATCH; a taken alias is 409; emailEnabled must be boolean', async () => {
    const r = await call('PATCH', `/api/agents/${id.bob}`, key.bob, {
      alias: 'robert',
      emailEnabled: false,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ alias: 'robert', emailEnabled: false });
    const taken = await call('PATCH', `/api/agents/${id.bob}`, key.bob, { alias: 'alice' });
    expect(taken.status).toBe(409);
    const bad = await call('PATCH', `/api/agents/${id.bob}`, key.bob, { emailEnabled: 'yes' });
    expect(bad.status).toBe(400);
    // The old address is retired, still delivering, and the new one current.
    const rows = await hub.sql<{ localPart: string; retired: boolean }[]>`
      select local_part, retired_at is not null as retired from postie_addresses
      where owner_agent_id = ${id.bob} order by id`;
    expect(rows.map((x) => [x.localPart.split('.')[0], x.retired])).toEqual([
      ['bob', true],
      ['robert', false],
    ]);
    // Another tenant may reuse the name; its PATCH of bob is a 404.
    expect((await call('PATCH', `/api/agents/${id.bob}`, key.carol, { alias: 'z' })).status).toBe(
      404
    );
  });
});

describe('unlisted visibility', () => {
  it('is messageable by id from another tenant but absent from search', async () => {
    const r = await call('PATCH', `/api/agents/${id.bob}`, key.acme, { visibility: 'unlisted' });
    expect(r.status).toBe(200);
    const search = await call('GET', '/api/discover/agents?q=robert', key.carol);
    expect(JSON.stringify(search.body)).not.toContain(id.bob);
    const detail = await call('GET', `/api/discover/agents/${id.bob}`, key.carol);
    expect(detail.status).toBe(200);
    await until(async () => (await send(key.carol, id.bob)).result !== undefined);
  });
});

describe('spending budgets', () => {
  it('refuses sends once a budget is used up, naming it; alerts at 80% and 100%', async () => {
    await purchaseCredits(hub.sql, t.acme, 1000);
    const set = await call('PUT', '/api/budgets', key.acme, {
      agentId: id.alice,
      period: 'daily',
      limit: 100,
    });
    expect(set.status).toBe(200);
    expect((await send(key.alice, id.bob)).result).toBeDefined();
    // Spend 85: the 80% alert, sends still go.
    await debitCredits(hub.sql, t.acme, 85, 'test', id.alice);
    const alerts = await call('GET', '/api/alerts', key.acme);
    expect(alerts.body.alerts).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'spending', severity: 'warning' })])
    );
    // A spend that would exceed is refused, nothing written.
    await expect(debitCredits(hub.sql, t.acme, 20, 'test', id.alice)).rejects.toMatchObject({
      code: 'SPENDING_LIMIT_EXCEEDED',
    });
    await debitCredits(hub.sql, t.acme, 15, 'test', id.alice);
    let refused: Awaited<ReturnType<typeof send>> | undefined;
    await until(async () => {
      refused = await send(key.alice, id.bob);
      return refused.error?.code === -32025;
    });
    expect(refused?.error?.data).toMatchObject({
      budget: { scope: 'agent', agentId: id.alice, period: 'daily', limit: 100, spent: 100 },
    });
    // Another agent of the tenant and another tenant still send.
    expect((await send(key.carol, id.bob)).result).toBeDefined();
    const events = await hub.sql<{ level: number }[]>`
      select (data->>'level')::int as level from event_outbox
      where tenant_id = ${t.acme} and event = 'spending.threshold' order by created_at`;
    expect(events.map((e) => e.level)).toEqual([80, 100]);
    // Raising the limit lets sends go again at once.
    await call('PUT', '/api/budgets', key.acme, { agentId: id.alice, period: 'daily', limit: 500 });
    expect((await send(key.alice, id.bob)).result).toBeDefined();
    // Another tenant's admin sees none of it.
    const otherView = await call('GET', '/api/budgets', key.other);
    expect(otherView.body.budgets).toEqual([]);
    const badPeriod = await call('PUT', '/api/budgets', key.acme, { period: 'weekly', limit: 5 });
    expect(badPeriod.status).toBe(400);
  });
});
