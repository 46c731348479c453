// GET /api/usage and /api/messages/stats/summary checked against traffic the test sends itself:
// per agent (its own key) and per tenant (admin key), days and bad `days` values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { connectWsAgent, type TestWsAgent } from '../support/ws-agent.js';
import { rpc, text } from '../support/rpc.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant, issueAdminKey } from '../../infra/db/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let bob: TestWsAgent;
let carol: TestWsAgent;
const keys = { alice: '', bob: '', carol: '', admin: '' };
const ids = { alice: '', bob: '', carol: '', tenant: '' };

interface UsageDay {
  date: string;
  messages_sent: number;
  messages_received: number;
  bytes_transferred: number;
}

async function get<T>(path: string, key?: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${hub.url}${path}`, {
    headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
  });
  return { status: res.status, body: (await res.json()) as T };
}

async function send(to: string, to_agent: TestWsAgent, state: 'completed' | 'failed') {
  const pending = rpc(hub.url, keys.alice, 'SendMessage', {
    message: text(`to ${to}: ${'x'.repeat(100)}`),
    configuration: { agentId: to, blocking: true },
  });
  const m = await to_agent.next('message');
  to_agent.send({ type: 'task_response', taskId: m.taskId, status: { state } });
  await pending;
}

const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db, { PARTITIONS: '4' }), silentLogger);
  const acme = await createTenant(hub.sql, { name: 'Acme' });
  const beta = await createTenant(hub.sql, { name: 'Beta' });
  ids.tenant = acme.id;
  for (const [name, tenantId, visibility] of [
    ['alice', acme.id, 'private'],
    ['bob', acme.id, 'private'],
    ['carol', beta.id, 'public'],
  ] as const) {
    const c = await createAgent(hub.sql, { tenantId, name, visibility });
    keys[name] = c.apiKey;
    ids[name] = c.agent.id;
  }
  keys.admin = (await issueAdminKey(hub.sql, acme.id)).key;
  bob = await connectWsAgent(hub.url, keys.bob);
  carol = await connectWsAgent(hub.url, keys.carol);
  await send(ids.bob, bob, 'completed');
  await send(ids.bob, bob, 'completed');
  await send(ids.carol, carol, 'failed');
  // The task index is written asynchronously: wait until it holds the three final states.
  await until(async () => {
    const s = await get<{ summary: { delivered: number; failed: number } }>(
      '/api/messages/stats/summary',
      keys.alice
    );
    return s.body.summary.delivered === 2 && s.body.summary.failed === 1;
  });
});

afterAll(async () => {
  await bob?.close();
  await carol?.close();
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

describe('GET /api/usage', () => {
  it('gives one record per day, 7 by default, with today’s traffic of the agent', async () => {
    const r = await get<{ usage: UsageDay[] }>('/api/usage', keys.alice);
    expect(r.status).toBe(200);
    expect(r.body.usage).toHaveLength(7);
    const last = r.body.usage.at(-1)!;
    expect(last).toMatchObject({ date: today(), messages_sent: 3, messages_received: 0 });
    expect(last.bytes_transferred).toBeGreaterThan(300);
    expect(r.body.usage.slice(0, 6).every((d) => d.messages_sent === 0)).toBe(true);
    const bobUsage = await get<{ usage: UsageDay[] }>('/api/usage?days=1', keys.bob);
    expect(bobUsage.body.usage).toEqual([
      expect.objectContaining({ date: today(), messages_sent: 0, messages_received: 2 }),
    ]);
  });

  it('reports 0 bytes on days without messages', async () => {
    const r = await get<{ usage: UsageDay[] }>('/api/usage?days=30', keys.alice);
    expect(r.body.usage.slice(0, 29).map((d) => d.bytes_transferred)).toEqual(Array(29).fill(0));
    const quiet = await createAgent(hub.sql, { tenantId: ids.tenant, name: 'quiet' });
    const q = await get<{ usage: UsageDay[] }>('/api/usage?days=1', quiet.apiKey);
    expect(q.body.usage).toEqual([
      { date: today(), messages_sent: 0, messages_received: 0, bytes_transferred: 0 },
    ]);
  });

  it('covers the whole tenant for an admin key, and only it', async () => {
    const r = await get<{ usage: UsageDay[] }>('/api/usage?days=2', keys.admin);
    expect(r.body.usage).toHaveLength(2);
    expect(r.body.usage[1]).toMatchObject({ messages_sent: 3, messages_received: 2 });
    const carolUsage = await get<{ usage: UsageDay[] }>('/api/usage?days=1', keys.carol);
    expect(carolUsage.body.usage[0]).toMatchObject({ messages_sent: 0, messages_received: 1 });
  });

  it.each([
    'days=0',
    'days=367',
    'days=abc',
    'days=2.5',
    'days=1e2',
    'days=',
    'days=1&days=2',
    'day=3',
  ])('refuses %s with 400 naming the parameter', async (q) => {
    const r = await get<{ error: { details: { field: string } } }>(`/api/usage?${q}`, keys.alice);
    expect(r.status).toBe(400);
    expect(r.body.error.details.field).toBe(q.startsWith('day=') ? 'day' : 'days');
  });

  it('needs a key', async () => {
    expect((await get('/api/usage')).status).toBe(401);
    expect((await get('/api/messages/stats/summary')).status).toBe(401);
  });

  it('accepts days=366', async () => {
    const r = await get<{ usage: UsageDay[] }>('/api/usage?days=366', keys.alice);
    expect(r.body.usage).toHaveLength(366);
  });
});

describe('GET /api/messages/stats/summary', () => {
  it('summarises the agent’s messages, by day and by the agents it talked to', async () => {
    const r = await get<{
      summary: Record<string, number>;
      daily: Array<Record<string, unknown>>;
      topAgents: Array<Record<string, unknown>>;
    }>('/api/messages/stats/summary?days=3', keys.alice);
    expect(r.body.summary).toEqual({ total: 3, sent: 3, received: 0, delivered: 2, failed: 1 });
    expect(r.body.daily).toHaveLength(3);
    expect(r.body.daily[2]).toEqual({
      date: today(),
      sent: 3,
      received: 0,
      delivered: 2,
      failed: 1,
    });
    expect(r.body.topAgents).toEqual([
      { agentId: ids.bob, name: 'bob', messages: 2 },
      { agentId: ids.carol, name: 'carol', messages: 1 },
    ]);
  });

  it('for an admin key: the tenant’s own agents, each message once per side', async () => {
    const r = await get<{
      summary: Record<string, number>;
      topAgents: Array<Record<string, unknown>>;
    }>('/api/messages/stats/summary', keys.admin);
    expect(r.body.summary).toEqual({ total: 3, sent: 3, received: 2, delivered: 2, failed: 1 });
    expect(r.body.topAgents).toEqual([
      { agentId: ids.alice, name: 'alice', messages: 3 },
      { agentId: ids.bob, name: 'bob', messages: 2 },
    ]);
  });
});
