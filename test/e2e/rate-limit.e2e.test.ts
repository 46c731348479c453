// The per-key rate limit across two hub nodes on one database (decisions.md §7): requests spread
// over both nodes share one count, so the tenant's limit holds for the pair, not per node. REST
// answers 429 with Retry-After; JSON-RPC answers -32017 with HTTP 429; each key counts alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { partitionsSettled, testHubConfig } from '../support/test-hub.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant, setTenantRateLimit } from '../../infra/db/index.js';

const LIMIT = 10;
let nats: NatsServerHandle;
let db: TestDatabase;
let a: Hub;
let b: Hub;
const keys: Record<string, string> = {};
const ids: Record<string, string> = {};

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  a = await startHub(testHubConfig(nats, db, { NODE_ID: 'node-a' }), silentLogger);
  b = await startHub(testHubConfig(nats, db, { NODE_ID: 'node-b' }), silentLogger);
  await partitionsSettled([a, b], 8);
  const acme = await createTenant(a.sql, { name: 'Acme' });
  await setTenantRateLimit(a.sql, acme.id, LIMIT);
  for (const name of ['alice', 'bob']) {
    const created = await createAgent(a.sql, { tenantId: acme.id, name });
    keys[name] = created.apiKey;
    ids[name] = created.agent.id;
  }
});

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await nats?.close();
  await db?.drop();
});

/** Make sure the test's requests (about a second) fall into one one-minute window. */
async function roomInWindow(): Promise<void> {
  const intoWindow = Date.now() % 60_000;
  if (intoWindow > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoWindow + 50));
}

function rest(hub: Hub, key: string, agentId: string): Promise<Response> {
  return fetch(`${hub.url}/api/agents/${agentId}`, { headers: { authorization: `Bearer ${key}` } });
}

function rpc(hub: Hub, key: string): Promise<Response> {
  return fetch(`${hub.url}/a2a`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'a2a-version': '1.0',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'task-x' } }),
  });
}

describe('rate limit across two nodes', () => {
  it('admits exactly the limit over both nodes together, then 429 with Retry-After', async () => {
    await roomInWindow();
    const alice = keys.alice as string;
    const aliceId = ids.alice as string;
    // Concurrently, alternating nodes: 2 × LIMIT requests, of which exactly LIMIT pass.
    const answers = await Promise.all(
      Array.from({ length: 2 * LIMIT }, (_, i) => rest(i % 2 === 0 ? a : b, alice, aliceId))
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(LIMIT);
    const remaining = answers
      .filter((r) => r.status === 200)
      .map((r) => Number(r.headers.get('x-ratelimit-remaining')))
      .sort((x, y) => x - y);
    // Each admitted request saw a distinct count: leases are granted atomically across nodes.
    expect(remaining).toEqual(Array.from({ length: LIMIT }, (_, i) => i));
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const reset = Number(refused.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 60);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');

    // JSON-RPC on either node: -32017 with HTTP 429 and Retry-After.
    for (const hub of [a, b]) {
      const r = await rpc(hub, alice);
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).not.toBeNull();
      const body = (await r.json()) as { error: { code: number } };
      expect(body.error.code).toBe(-32017);
    }

    // Bob's key has its own count: it still passes, on JSON-RPC too (-32001 for the made-up task).
    const bob = await rpc(b, keys.bob as string);
    expect(bob.status).toBe(200);
    expect(bob.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 1));
    expect(((await bob.json()) as { error: { code: number } }).error.code).toBe(-32001);
  }, 90_000);
});
