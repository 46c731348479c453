// The tenant admin's management API through a running hub (decisions.md §5): create, list, get,
// update, delete and rotate keys of the tenant's agents. Agent keys are 403, other tenants' agents
// 404, bad input 400 naming the field with nothing created; rotated and deleted keys stop working.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant, issueAdminKey, listAgents } from '../../infra/db/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let acmeId: string;
const keys: Record<string, string> = {};
let carolId: string;

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown> & {
    error?: { code: string; message: string; details?: Record<string, unknown> };
  };
}

async function call(method: string, path: string, key?: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== undefined) headers.authorization = `Bearer ${key}`;
  const res = await fetch(`${hub.url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Answer['body'] };
}

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db, { PARTITIONS: '4' }), silentLogger);
  const acme = await createTenant(hub.sql, { name: 'Acme' });
  const other = await createTenant(hub.sql, { name: 'Other Org' });
  acmeId = acme.id;
  keys.admin = (await issueAdminKey(hub.sql, acme.id)).key;
  keys.otherAdmin = (await issueAdminKey(hub.sql, other.id)).key;
  const carol = await createAgent(hub.sql, { tenantId: other.id, name: 'carol' });
  carolId = carol.agent.id;
  keys.carol = carol.apiKey;
});

afterAll(async () => {
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

describe('POST /api/agents', () => {
  it('creates an agent in the admin key’s tenant and shows its key once', async () => {
    const r = await call('POST', '/api/agents', keys.admin, {
      name: 'alice',
      description: 'first',
      category: 'Tools',
      tags: '["a","b"]',
      visibility: 'public',
    });
    expect(r.status).toBe(201);
    expect(r.body.apiKey).toMatch(/^bk_/);
    expect(r.body.agent).toMatchObject({
      name: 'alice',
      description: 'first',
      transport: 'websocket',
      visibility: 'public',
      tags: ['a', 'b'],
    });
    expect(r.body).not.toHaveProperty('webhookSecret');
    keys.alice = r.body.apiKey as string;
    // The new key works at once, and only for its own agent.
    const agentId = (r.body.agent as { agentId: string }).agentId;
    expect((await call('GET', `/api/agents/${agentId}`, keys.alice)).status).toBe(200);
  });

  it('gives an HTTP agent a webhook secret', async () => {
    const r = await call('POST', '/api/agents', keys.admin, {
      name: 'hooky',
      url: 'http://127.0.0.1:9/agent',
    });
    expect(r.status).toBe(201);
    expect(r.body.webhookSecret).toMatch(/^whsec_/);
    expect(r.body.agent).toMatchObject({ transport: 'http', url: 'http://127.0.0.1:9/agent' });
  });

  it.each([
    [{}, 'name'],
    [{ name: 7 }, 'name'],
    [{ name: 'x', visibility: 'secret' }, 'visibility'],
    [{ name: 'x', tags: 'nope' }, 'tags'],
    [{ name: 'x', url: 'ftp://x' }, 'url'],
    [{ name: 'x', colour: 'red' }, 'colour'],
  ])('rejects %j with 400 naming %s, creating nothing', async (body, field) => {
    const before = (await listAgents(hub.sql, acmeId)).length;
    const r = await call('POST', '/api/agents', keys.admin, body);
    expect(r.status).toBe(400);
    expect(r.body.error?.details?.field).toBe(field);
    expect((await listAgents(hub.sql, acmeId)).length).toBe(before);
  });

  it('refuses agent keys (403) and missing keys (401)', async () => {
    expect((await call('POST', '/api/agents', keys.carol, { name: 'x' })).status).toBe(403);
    expect((await call('POST', '/api/agents', undefined, { name: 'x' })).status).toBe(401);
    expect((await call('GET', '/api/agents', keys.carol)).status).toBe(403);
  });
});

describe('GET /api/agents', () => {
  it('lists only the tenant’s own agents', async () => {
    const r = await call('GET', '/api/agents', keys.admin);
    expect(r.status).toBe(200);
    const names = (r.body.agents as Array<{ name: string }>).map((a) => a.name);
    expect(names).toEqual(['alice', 'hooky']);
    expect(r.body.count).toBe(2);
    const other = await call('GET', '/api/agents', keys.otherAdmin);
    expect((other.body.agents as Array<{ name: string }>).map((a) => a.name)).toEqual(['carol']);
  });
});

describe('rotate and delete', () => {
  it('rotates a key: the old one stops working, the new one works', async () => {
    const list = await call('GET', '/api/agents', keys.admin);
    const alice = (list.body.agents as Array<{ agentId: string; name: string }>).find(
      (a) => a.name === 'alice'
    )!;
    const old = keys.alice as string;
    const r = await call('POST', `/api/agents/${alice.agentId}/keys`, keys.admin);
    expect(r.status).toBe(201);
    expect(r.body.apiKey).toMatch(/^bk_/);
    expect(r.body.apiKey).not.toBe(old);
    await until(
      async () => (await call('GET', `/api/agents/${alice.agentId}`, old)).status === 401
    );
    expect(
      (await call('GET', `/api/agents/${alice.agentId}`, r.body.apiKey as string)).status
    ).toBe(200);
  });

  it('answers 404 for another tenant’s agent, on rotate, delete, get and patch', async () => {
    expect((await call('POST', `/api/agents/${carolId}/keys`, keys.admin)).status).toBe(404);
    expect((await call('DELETE', `/api/agents/${carolId}`, keys.admin)).status).toBe(404);
    expect((await call('GET', `/api/agents/${carolId}`, keys.admin)).status).toBe(404);
    expect(
      (await call('PATCH', `/api/agents/${carolId}`, keys.admin, { visibility: 'public' })).status
    ).toBe(404);
    // Carol's key still works: nothing happened to her.
    expect((await call('GET', `/api/agents/${carolId}`, keys.carol)).status).toBe(200);
  });

  it('deletes an agent: gone from the list, its key refused', async () => {
    const created = await call('POST', '/api/agents', keys.admin, { name: 'temp' });
    const id = (created.body.agent as { agentId: string }).agentId;
    const key = created.body.apiKey as string;
    expect((await call('GET', `/api/agents/${id}`, key)).status).toBe(200);
    const r = await call('DELETE', `/api/agents/${id}`, keys.admin);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ agentId: id, deleted: true });
    await until(async () => (await call('GET', `/api/agents/${id}`, key)).status === 401);
    expect((await call('DELETE', `/api/agents/${id}`, keys.admin)).status).toBe(404);
    const names = (
      (await call('GET', '/api/agents', keys.admin)).body.agents as Array<{
        name: string;
      }>
    ).map((a) => a.name);
    expect(names).not.toContain('temp');
  });

  it('puts rate-limit headers on every authenticated answer', async () => {
    const r = await call('GET', '/api/agents', keys.admin);
    expect(Number(r.headers.get('x-ratelimit-limit'))).toBe(1200);
    expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeLessThan(1200);
    expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
  });
});
