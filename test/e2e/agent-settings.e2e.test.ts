// GET/PATCH /api/agents/:agentId through a running hub: the agent's own key and its tenant's admin
// key may read and change queue_max_pending / queue_ttl_seconds; bad values are 400 naming the
// field and change nothing; other tenants and unknown agents get 404; no key is 401.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { loadConfig } from '../../runtime/config/index.js';
import { silentLogger } from '../../runtime/log/index.js';
import { subjects } from '../../runtime/bus/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant, getAgent, issueAdminKey } from '../../infra/db/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
const keys: Record<string, string> = {};
const ids: Record<string, string> = {};

interface Answer {
  status: number;
  body: {
    agentId?: string;
    queue_max_pending?: number;
    queue_ttl_seconds?: number;
    error?: { code: string; message: string; details?: Record<string, unknown> };
  } & Record<string, unknown>;
}

async function call(
  method: 'GET' | 'PATCH',
  agentId: string,
  key: string | undefined,
  body?: unknown
): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== undefined) headers.authorization = `Bearer ${key}`;
  const res = await fetch(`${hub.url}/api/agents/${agentId}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  const config = loadConfig({
    SMTP_LISTEN_PORT: '0',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    NATS_URL: nats.url,
    DATABASE_URL: db.url,
    PORT: '0',
    PARTITIONS: '4',
    HEARTBEAT_MS: '300',
    NODE_TTL_MS: '2000',
    LOCK_INACTIVE_MS: '2000',
    LOG_LEVEL: 'silent',
  });
  hub = await startHub(config, silentLogger);
  const acme = await createTenant(hub.sql, { name: 'Acme' });
  const other = await createTenant(hub.sql, { name: 'Other Org' });
  for (const [name, tenantId] of [
    ['alice', acme.id],
    ['bob', acme.id],
    ['carol', other.id],
  ] as const) {
    const created = await createAgent(hub.sql, { tenantId, name });
    keys[name] = created.apiKey;
    ids[name] = created.agent.id;
  }
  keys.acmeAdmin = (await issueAdminKey(hub.sql, acme.id)).key;
  keys.otherAdmin = (await issueAdminKey(hub.sql, other.id)).key;
});

afterAll(async () => {
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

describe('GET /api/agents/:agentId', () => {
  it('gives the agent its own settings with the spec defaults', async () => {
    const r = await call('GET', ids.alice!, keys.alice);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      agentId: ids.alice,
      alias: null,
      emailEnabled: true,
      queue_max_pending: 500,
      queue_ttl_seconds: 2_592_000,
      visibility: 'private',
      category: null,
      tags: [],
      websiteUrl: null,
      docsUrl: null,
    });
  });

  it('answers 401 without a key and with an unknown key', async () => {
    const none = await call('GET', ids.alice!, undefined);
    expect(none.status).toBe(401);
    expect(none.body.error?.code).toBe('UNAUTHENTICATED');
    const bad = await call('GET', ids.alice!, 'bk_' + 'x'.repeat(43));
    expect(bad.status).toBe(401);
  });

  it('answers 404 to another agent, another tenant and an unknown agent alike', async () => {
    for (const [id, key] of [
      [ids.alice!, keys.bob],
      [ids.alice!, keys.carol],
      [ids.alice!, keys.otherAdmin],
      ['agent-000000000000', keys.alice],
      ['agent-000000000000', keys.acmeAdmin],
    ] as const) {
      const r = await call('GET', id, key);
      expect(r.status).toBe(404);
      expect(r.body.error?.code).toBe('NOT_FOUND');
    }
  });
});

describe('PATCH /api/agents/:agentId', () => {
  it('changes both settings with the agent key and answers with the new settings', async () => {
    const r = await call('PATCH', ids.alice!, keys.alice, {
      queue_max_pending: 20,
      queue_ttl_seconds: 3_600,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      agentId: ids.alice,
      queue_max_pending: 20,
      queue_ttl_seconds: 3_600,
    });
    const stored = await getAgent(hub.sql, ids.alice!);
    expect(stored).toMatchObject({ queueMaxPending: 20, queueTtlSeconds: 3_600 });
    expect((await call('GET', ids.alice!, keys.alice)).body.queue_max_pending).toBe(20);
  });

  it('announces the change so every node drops its cached agent record', async () => {
    const sub = hub.bus.nc.subscribe(subjects.agentChanged(ids.bob!), { max: 1 });
    const seen = (async () => {
      for await (const m of sub) return m.subject;
      return undefined;
    })();
    await hub.bus.nc.flush();
    expect((await call('PATCH', ids.bob!, keys.bob, { queue_max_pending: 42 })).status).toBe(200);
    expect(await seen).toBe(subjects.agentChanged(ids.bob!));
  });

  it('accepts the tenant admin key, one field at a time, at the range limits', async () => {
    const a = await call('PATCH', ids.bob!, keys.acmeAdmin, { queue_max_pending: 100_000 });
    expect(a.status).toBe(200);
    const b = await call('PATCH', ids.bob!, keys.acmeAdmin, { queue_ttl_seconds: 1 });
    expect(b.status).toBe(200);
    expect(b.body).toMatchObject({ queue_max_pending: 100_000, queue_ttl_seconds: 1 });
  });

  it('refuses bad values with 400 naming the field, and saves nothing of the request', async () => {
    const before = await call('GET', ids.alice!, keys.alice);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ queue_max_pending: 0 }, 'queue_max_pending'],
      [{ queue_max_pending: 100_001 }, 'queue_max_pending'],
      [{ queue_max_pending: 2.5 }, 'queue_max_pending'],
      [{ queue_max_pending: '10' }, 'queue_max_pending'],
      [{ queue_ttl_seconds: 2_592_001 }, 'queue_ttl_seconds'],
      [{ queue_ttl_seconds: null }, 'queue_ttl_seconds'],
      // One good field and one bad one: neither is saved.
      [{ queue_max_pending: 7, queue_ttl_seconds: -1 }, 'queue_ttl_seconds'],
    ];
    for (const [body, field] of cases) {
      const r = await call('PATCH', ids.alice!, keys.alice, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error?.code).toBe('INVALID_PARAMS');
      expect(r.body.error?.details?.field).toBe(field);
      expect(r.body.error?.message).toContain(field);
    }
    expect((await call('GET', ids.alice!, keys.alice)).body).toEqual(before.body);
  });

  it('refuses unknown fields with 400 naming them', async () => {
    const r = await call('PATCH', ids.alice!, keys.alice, {
      queue_max_pending: 9,
      queueMaxPending: 9,
      colour: 'red',
    });
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe('INVALID_PARAMS');
    expect(r.body.error?.details).toMatchObject({
      field: 'queueMaxPending',
      unknown: ['queueMaxPending', 'colour'],
    });
    expect(r.body.error?.message).toMatch(/queueMaxPending, colour/);
    expect((await getAgent(hub.sql, ids.alice!))?.queueMaxPending).toBe(20);
  });

  it('refuses a body that is not a JSON object', async () => {
    for (const body of ['not json', '[1]', 'null']) {
      const r = await call('PATCH', ids.alice!, keys.alice, body);
      expect(r.status).toBe(400);
      expect(r.body.error?.code).toBe('INVALID_REQUEST');
    }
  });

  it('answers 404 to other tenants (agent or admin key) and changes nothing; 401 without a key', async () => {
    for (const key of [keys.carol, keys.otherAdmin, keys.bob]) {
      const r = await call('PATCH', ids.alice!, key, { queue_max_pending: 1 });
      expect(r.status).toBe(404);
      expect(r.body.error?.code).toBe('NOT_FOUND');
    }
    const none = await call('PATCH', ids.alice!, undefined, { queue_max_pending: 1 });
    expect(none.status).toBe(401);
    // A bad body from an outsider is still a 404: validation never runs before access is known.
    const outsider = await call('PATCH', ids.alice!, keys.carol, { nope: 1 });
    expect(outsider.status).toBe(404);
    expect((await getAgent(hub.sql, ids.alice!))?.queueMaxPending).toBe(20);
  });
});
