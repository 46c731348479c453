// The API documents against a real hub: GET /openapi.json is valid OpenAPI 3.1 and every route the
// hub mounts is in it; every documented operation is called, and every answer (successes and
// refusals) has a documented status and matches its schema (Ajv). GET /openrpc.json is valid
// OpenRPC, names every method POST /a2a serves, and a sample of methods' real results match it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import WebSocket from 'ws';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant, issueAdminKey } from '../../infra/db/index.js';
import { AnswerChecker, openApiErrors, openRpcErrors } from '../support/api-documents.js';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { testHubConfig } from '../support/test-hub.js';
import { connectWsAgent } from '../support/ws-agent.js';

const ADMIN_TOKEN = 'contract-admin-token-0123456789';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let checker: AnswerChecker;
let openrpc: { methods: { name: string; result: { schema: object } }[] } & Record<string, unknown>;
const problems: string[] = [];
const keys: Record<string, string> = {};
let agentId = '';
let otherAgentId = '';
let peerId = '';

interface Call {
  /** An event stream: read the status and headers, then hang up. */
  stream?: boolean;
  key?: string;
  query?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Calls `template` with `params` filled in and checks the answer against the document. */
async function hit(
  method: string,
  template: string,
  params: Record<string, string> = {},
  c: Call = {}
): Promise<{ status: number; json: unknown; headers: Headers }> {
  const path = template.replace(/\{(\w+)\}/g, (_, n: string) =>
    encodeURIComponent(params[n] ?? '')
  );
  const headers: Record<string, string> = { ...c.headers };
  if (c.key !== undefined) headers.authorization = `Bearer ${c.key}`;
  if (c.body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(`${hub.url}${path}${c.query === undefined ? '' : `?${c.query}`}`, {
    method,
    headers,
    ...(c.body === undefined
      ? {}
      : { body: typeof c.body === 'string' ? c.body : JSON.stringify(c.body) }),
  });
  let body = '';
  if (c.stream === true && res.ok) await res.body?.cancel();
  else body = await res.text();
  const contentType = res.headers.get('content-type');
  problems.push(
    ...checker.check({ method, path: template, status: res.status, contentType, body })
  );
  let json: unknown = undefined;
  if (contentType?.startsWith('application/json')) json = JSON.parse(body) as unknown;
  return { status: res.status, json, headers: res.headers };
}

/**
 * GET /debug/inspect, a WebSocket: a refused upgrade is a REST error answer, checked like any
 * other; an accepted one is 101, then inspection frames, each checked against its type's schema.
 */
async function inspectCalls(): Promise<void> {
  const wsUrl = (query: string) => `${hub.url.replace(/^http/, 'ws')}/debug/inspect?${query}`;
  const refused = (query: string, headers: Record<string, string>) =>
    new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(wsUrl(query), { headers });
      ws.on('error', () => undefined);
      ws.once('open', () => reject(new Error(`${query}: upgraded`)));
      ws.once('unexpected-response', (req, res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          problems.push(
            ...checker.check({
              method: 'GET',
              path: '/debug/inspect',
              status: res.statusCode ?? 0,
              contentType: res.headers['content-type'] ?? null,
              body: Buffer.concat(chunks).toString(),
            })
          );
          req.destroy();
          resolve();
        });
      });
    });
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  await refused('kind=task', {});
  await refused('kind=nothing', admin);
  await refused('kind=task&kind=task', admin);
  const ws = new WebSocket(wsUrl('kind=task'), { headers: admin });
  const frames: Record<string, unknown>[] = [];
  ws.on('message', (d: Buffer) => frames.push(JSON.parse(d.toString()) as Record<string, unknown>));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  try {
    // `open` fires only on a 101 answer.
    problems.push(
      ...checker.check({
        method: 'GET',
        path: '/debug/inspect',
        status: 101,
        contentType: null,
        body: '',
      })
    );
    // A task for an agent that is not connected comes into view; canceling it is an event and
    // a new state.
    const rpc = async (method: string, params: unknown) => {
      const res = await fetch(`${hub.url}/a2a`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${keys.agent}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      const body = (await res.json()) as { result?: { id?: string }; error?: unknown };
      expect(body.error, method).toBeUndefined();
      return body.result;
    };
    const task = await rpc('SendMessage', {
      message: { role: 'user', parts: [{ kind: 'text', text: 'watched' }] },
      configuration: { agentId: peerId },
    });
    await vi.waitFor(() => expect(frames.map((f) => f.type)).toContain('@xstate.actor'));
    await rpc('CancelTask', { id: task?.id });
    await vi.waitFor(() => {
      const types = frames.map((f) => f.type);
      expect(types).toContain('@xstate.event');
      expect(types).toContain('@xstate.snapshot');
    });
    for (const frame of frames)
      problems.push(...checker.checkFrame('/debug/inspect', 'fromHub', frame));
    expect(checker.checkFrame('/debug/inspect', 'fromHub', { type: '@xstate.actor' })).toHaveLength(
      1
    );
  } finally {
    ws.close();
  }
}

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(
    testHubConfig(nats, db, { PARTITIONS: '4', ADMIN_TOKEN, DEBUG_ENABLED: 'true' }),
    silentLogger
  );
  const acme = await createTenant(hub.sql, { name: 'Contract Acme' });
  const other = await createTenant(hub.sql, { name: 'Contract Other' });
  keys.admin = (await issueAdminKey(hub.sql, acme.id)).key;
  const a = await createAgent(hub.sql, { tenantId: acme.id, name: 'contract-a', tags: ['x'] });
  agentId = a.agent.id;
  keys.agent = a.apiKey;
  peerId = (await createAgent(hub.sql, { tenantId: acme.id, name: 'contract-c' })).agent.id;
  const b = await createAgent(hub.sql, { tenantId: other.id, name: 'contract-b' });
  otherAgentId = b.agent.id;
  keys.other = b.apiKey;
  const doc = (await (await fetch(`${hub.url}/openapi.json`)).json()) as Record<string, unknown>;
  checker = new AnswerChecker(doc);
});

afterAll(async () => {
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

describe('GET /openapi.json of a real hub', () => {
  it('is valid OpenAPI 3.1', async () => {
    const doc = (await (await fetch(`${hub.url}/openapi.json`)).json()) as Record<string, unknown>;
    expect(await openApiErrors(doc)).toEqual([]);
  });

  it('documents each query parameter with its type and range', async () => {
    const doc = (await (await fetch(`${hub.url}/openapi.json`)).json()) as {
      paths: Record<
        string,
        { get?: { parameters?: { name: string; in: string; schema: object }[] } }
      >;
    };
    const query = (path: string) =>
      Object.fromEntries(
        (doc.paths[path]?.get?.parameters ?? [])
          .filter((p) => p.in === 'query')
          .map((p) => [p.name, p.schema])
      );
    expect(query('/api/tasks')).toMatchObject({
      state: { enum: expect.arrayContaining(['working', 'completed']) },
      agentId: { type: 'string', minLength: 1, maxLength: 200 },
      limit: { type: 'integer', minimum: 1, maximum: 200 },
    });
    expect(Object.keys(query('/api/tasks/stream')).sort()).toEqual([
      'agentId',
      'contextId',
      'state',
    ]);
    for (const path of ['/api/usage', '/api/messages/stats/summary']) {
      expect(query(path)).toEqual({
        days: expect.objectContaining({ type: 'integer', minimum: 1, maximum: 366 }),
      });
    }
    expect(query('/api/workspaces/{workspaceId}/memories')).toMatchObject({
      limit: { type: 'integer', minimum: 1 },
      offset: { type: 'integer', minimum: 0 },
    });
    expect(query('/api/discover/agents')).toMatchObject({
      limit: { type: 'integer', minimum: 1, maximum: 50 },
      offset: { type: 'integer', minimum: 0 },
    });
    expect(query('/debug/machines/{id}/graph')).toEqual({
      format: expect.objectContaining({ type: 'string', enum: ['mermaid', 'dot'] }),
    });
    expect(query('/debug/inspect')).toMatchObject({
      kind: { type: 'string' },
      id: { type: 'string', maxLength: 200 },
      token: { type: 'string' },
    });
  });

  it('describes every route the hub mounts', () => {
    const mounted = hub.routes().map((r) => r.replace(/:(\w+)/g, '{$1}'));
    expect(mounted.length).toBeGreaterThan(30);
    expect(checker.operations().sort()).toEqual(mounted.sort());
  });
});

describe('every operation answers as the document says', () => {
  it('monitoring, documents and debug', async () => {
    await hit('GET', '/health');
    await hit('GET', '/metrics');
    await hit('GET', '/metrics', {}, { key: ADMIN_TOKEN });
    await hit('GET', '/openapi.json');
    await hit('GET', '/openrpc.json');
    await hit('GET', '/openrpc.json', {}, { query: 'dialect=1.0' });
    await hit('GET', '/openrpc.json', {}, { query: 'dialect=nope' });
    const t = { key: ADMIN_TOKEN };
    const machines = await hit('GET', '/debug/machines', {}, t);
    const first = (machines.json as { machines: string[] }).machines[0] ?? 'none';
    await hit('GET', '/debug/machines', {}, { key: 'wrong' });
    await hit('GET', '/debug/machines/{id}', { id: first }, t);
    await hit('GET', '/debug/machines/{id}', { id: 'no-such-machine' }, t);
    await hit('GET', '/debug/machines/{id}/graph', { id: first }, t);
    await hit('GET', '/debug/machines/{id}/graph', { id: first }, { ...t, query: 'format=dot' });
    await hit('GET', '/debug/machines/{id}/graph', { id: first }, { ...t, query: 'format=png' });
    await hit('GET', '/debug/actors/{systemId}', { systemId: 'nobody' }, t);
    await hit('GET', '/debug/queues/{agentId}', { agentId }, t);
    await hit('GET', '/debug/cluster', {}, t);
    await inspectCalls();
    await hit('GET', '/.well-known/hub-keys.json');
  });

  it('management', async () => {
    const admin = { key: keys.admin };
    const created = await hit('POST', '/api/agents', {}, { ...admin, body: { name: 'made' } });
    expect(created.status).toBe(201);
    const made = (created.json as { agent: { agentId: string } }).agent.agentId;
    await hit('POST', '/api/agents', {}, { ...admin, body: { name: 'x', colour: 'red' } });
    await hit('POST', '/api/agents', {}, { key: keys.agent, body: { name: 'x' } });
    await hit('POST', '/api/agents', {}, { body: { name: 'x' } });
    await hit('GET', '/api/agents', {}, admin);
    await hit('GET', '/api/agents/{agentId}', { agentId }, { key: keys.agent });
    await hit('GET', '/api/agents/{agentId}', { agentId: otherAgentId }, { key: keys.agent });
    await hit(
      'PATCH',
      '/api/agents/{agentId}',
      { agentId },
      {
        key: keys.agent,
        body: { queue_max_pending: 50, description: 'contract' },
      }
    );
    await hit(
      'PATCH',
      '/api/agents/{agentId}',
      { agentId },
      {
        key: keys.agent,
        body: { queue_max_pending: 0 },
      }
    );
    await hit('POST', '/api/agents/{agentId}/keys', { agentId: made }, admin);
    await hit('DELETE', '/api/agents/{agentId}', { agentId: made }, admin);
    await hit('DELETE', '/api/agents/{agentId}', { agentId: made }, admin);

    const hook = await hit(
      'POST',
      '/api/webhooks',
      {},
      {
        ...admin,
        body: { url: 'http://127.0.0.1:9/hook', events: ['message.sent'] },
      }
    );
    const hookId = (hook.json as { webhook: { id: string } }).webhook.id;
    await hit(
      'POST',
      '/api/webhooks',
      {},
      { ...admin, body: { url: 'http://127.0.0.1:9/h', events: [] } }
    );
    await hit('GET', '/api/webhooks', {}, admin);
    await hit('POST', '/api/webhooks/{id}/test', { id: hookId }, admin);
    await hit(
      'PATCH',
      '/api/webhooks/{id}',
      { id: hookId },
      {
        ...admin,
        body: { events: ['message.sent', 'message.failed'] },
      }
    );
    await hit('PATCH', '/api/webhooks/{id}', { id: hookId }, { ...admin, body: { events: [] } });
    await hit('GET', '/api/webhooks/{id}/deliveries', { id: hookId }, admin);
    await hit('GET', '/api/webhooks/{id}/deliveries', { id: 'no-such-hook' }, admin);
    await hit('DELETE', '/api/webhooks/{id}', { id: hookId }, admin);
    await hit('DELETE', '/api/webhooks/{id}', { id: hookId }, admin);

    await hit(
      'POST',
      '/api/credits/purchase',
      {},
      { ...admin, body: { amount: 500, reason: 'c' } }
    );
    await hit('POST', '/api/credits/purchase', {}, { ...admin, body: { amount: -1 } });
    await hit('PUT', '/api/credits/threshold', {}, { ...admin, body: { threshold: 100 } });
    await hit('PUT', '/api/credits/threshold', {}, { ...admin, body: { threshold: null } });
    await hit('GET', '/api/credits', {}, admin);
    await hit('GET', '/api/alerts', {}, admin);
    await hit('GET', '/api/usage', {}, { key: keys.agent });
    await hit('GET', '/api/usage', {}, { ...admin, query: 'days=0' });
    await hit('GET', '/api/messages/stats/summary', {}, { ...admin, query: 'days=30' });

    // The tenant's tasks: one sent to a peer, listed, read, cancelled, and the live feed.
    const sent = await hit(
      'POST',
      '/a2a',
      {},
      {
        key: keys.agent,
        body: {
          jsonrpc: '2.0',
          id: 7,
          method: 'SendMessage',
          params: {
            message: { role: 'user', parts: [{ kind: 'text', text: 'contract' }] },
            configuration: { blocking: false },
            agentId: peerId,
          },
        },
      }
    );
    const taskId = (sent.json as { result?: { id?: string } }).result?.id ?? 'none';
    await hit('GET', '/api/tasks', {}, { ...admin, query: `agentId=${agentId}&limit=5` });
    await hit('GET', '/api/tasks', {}, { ...admin, query: 'state=lost' });
    await hit('GET', '/api/tasks', {}, { key: keys.agent });
    await hit('GET', '/api/tasks/{taskId}', { taskId }, admin);
    await hit('GET', '/api/tasks/{taskId}', { taskId: 'no-such-task' }, admin);
    await hit('POST', '/api/tasks/{taskId}/cancel', { taskId }, admin);
    await hit('POST', '/api/tasks/{taskId}/cancel', { taskId }, admin);
    await hit('GET', '/api/tasks/stream', {}, { ...admin, stream: true });
    await hit('GET', '/api/tasks/stream', {}, { ...admin, query: 'limit=5' });
  });

  it('keys, tenants, budgets and whoami', async () => {
    const admin = { key: keys.admin };
    const operator = { key: ADMIN_TOKEN };
    // An agent of its own, so rotating and unlisting leave the other blocks' agents alone.
    const created = await hit('POST', '/api/agents', {}, { ...admin, body: { name: 'keyed' } });
    expect(created.status).toBe(201);
    const keyed = (created.json as { agent: { agentId: string } }).agent.agentId;
    const settings = await hit(
      'PATCH',
      '/api/agents/{agentId}',
      { agentId: keyed },
      { ...admin, body: { alias: 'contract-keyed', emailEnabled: true, visibility: 'unlisted' } }
    );
    expect(settings.status).toBe(200);
    const bad = { alias: 'agent-x' };
    const refused = await hit(
      'PATCH',
      '/api/agents/{agentId}',
      { agentId: keyed },
      { ...admin, body: bad }
    );
    expect(refused.status).toBe(400);
    const listed = await hit('GET', '/api/agents', {}, admin);
    expect(JSON.stringify(listed.json)).toContain('"visibility":"unlisted"');

    const named = await hit(
      'POST',
      '/api/agents/{agentId}/keys',
      { agentId: keyed },
      {
        ...admin,
        body: {
          name: 'ci',
          scopes: ['manage', 'discovery'],
          expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
        },
      }
    );
    expect(named.status).toBe(201);
    const { apiKey: ciKey, keyId } = named.json as { apiKey: string; keyId: string };
    const discoveryOnly = await hit(
      'POST',
      '/api/agents/{agentId}/keys',
      { agentId: keyed },
      { key: ciKey, body: { name: 'finder', scopes: ['discovery'] } }
    );
    expect(discoveryOnly.status).toBe(201);
    const finderKey = (discoveryOnly.json as { apiKey: string }).apiKey;
    const statuses = async (...calls: Promise<{ status: number }>[]) =>
      (await Promise.all(calls)).map((r) => r.status);
    expect(
      await statuses(
        // A scope the issuer lacks, a bad name, a past expiry, an unknown field.
        hit(
          'POST',
          '/api/agents/{agentId}/keys',
          { agentId: keyed },
          { key: ciKey, body: { name: 'm', scopes: ['messages'] } }
        ),
        hit(
          'POST',
          '/api/agents/{agentId}/keys',
          { agentId: keyed },
          { ...admin, body: { name: '-x' } }
        ),
        hit(
          'POST',
          '/api/agents/{agentId}/keys',
          { agentId: keyed },
          { ...admin, body: { name: 'x', expiresAt: '2001-01-01T00:00:00Z' } }
        ),
        hit(
          'POST',
          '/api/agents/{agentId}/keys',
          { agentId: keyed },
          { ...admin, body: { name: 'x', colour: 'red' } }
        ),
        // Rotation needs an admin key; another tenant's agent is not there at all.
        hit('POST', '/api/agents/{agentId}/keys', { agentId: keyed }, { key: ciKey }),
        hit('POST', '/api/agents/{agentId}/keys', { agentId: otherAgentId }, admin),
        hit('POST', '/api/agents/{agentId}/keys', { agentId: keyed }, {})
      )
    ).toEqual([400, 400, 400, 400, 403, 404, 401]);
    const list = await hit('GET', '/api/agents/{agentId}/keys', { agentId: keyed }, { key: ciKey });
    expect(list.status).toBe(200);
    expect(
      await statuses(
        hit('GET', '/api/agents/{agentId}/keys', { agentId: keyed }, { key: finderKey }),
        hit('GET', '/api/agents/{agentId}/keys', { agentId: keyed }, { key: keys.other }),
        hit('GET', '/api/agents/{agentId}/keys', { agentId: keyed }, {})
      )
    ).toEqual([403, 404, 401]);

    const me = await hit('GET', '/api/whoami', {}, { key: ciKey });
    expect(me.json).toMatchObject({ kind: 'agent', key: { id: keyId, name: 'ci' } });
    expect((await hit('GET', '/api/whoami', {}, admin)).json).toMatchObject({
      kind: 'admin',
      agent: null,
    });
    expect((await hit('GET', '/api/whoami', {}, { key: 'burrow-no-such-key' })).status).toBe(401);

    const revoked = await hit(
      'DELETE',
      '/api/agents/{agentId}/keys/{keyId}',
      { agentId: keyed, keyId },
      admin
    );
    expect(revoked.status).toBe(200);
    // The revocation reaches the key cache over NATS: the revoked key stops working shortly.
    await expect
      .poll(async () => (await hit('GET', '/api/whoami', {}, { key: ciKey })).status)
      .toBe(401);
    expect(
      await statuses(
        hit('DELETE', '/api/agents/{agentId}/keys/{keyId}', { agentId: keyed, keyId }, admin),
        hit(
          'DELETE',
          '/api/agents/{agentId}/keys/{keyId}',
          { agentId: keyed, keyId },
          { key: finderKey }
        ),
        hit('DELETE', '/api/agents/{agentId}/keys/{keyId}', { agentId: keyed, keyId }, {})
      )
    ).toEqual([404, 403, 401]);
    const rotated = await hit(
      'POST',
      '/api/agents/{agentId}/keys',
      { agentId: keyed },
      { ...admin, body: {} }
    );
    expect(rotated.json).toMatchObject({ agentId: keyed, revoked: 2 });

    const tenant = await hit(
      'POST',
      '/api/tenants',
      {},
      { ...operator, body: { name: 'Contract Made' } }
    );
    expect(tenant.status).toBe(201);
    const tenantId = (tenant.json as { tenant: { id: string } }).tenant.id;
    expect(
      await statuses(
        hit('POST', '/api/tenants', {}, { ...operator, body: { name: 'Contract Made' } }),
        hit('POST', '/api/tenants', {}, { ...operator, body: { name: 'v', verified: 'yes' } }),
        hit('POST', '/api/tenants', {}, { ...admin, body: { name: 'Contract Nope' } }),
        hit('GET', '/api/tenants', {}, operator),
        hit('GET', '/api/tenants', {}, admin),
        hit('GET', '/api/tenants/{tenantId}', { tenantId }, operator),
        hit('GET', '/api/tenants/{tenantId}', { tenantId: 'no-such-tenant' }, operator),
        hit('GET', '/api/tenants/{tenantId}', { tenantId }, {})
      )
    ).toEqual([409, 400, 401, 200, 401, 200, 404, 401]);

    const put = (body: unknown, c: { key?: string } = admin) =>
      hit('PUT', '/api/budgets', {}, { ...c, body });
    expect(
      await statuses(
        put({ period: 'monthly', limit: 1_000_000 }),
        put({ agentId: keyed, period: 'daily', limit: 5000 }),
        put({ agentId: 'no-such-agent', period: 'daily', limit: 5 }),
        put({ period: 'weekly', limit: 5 }),
        put({ period: 'daily' }),
        put({ period: 'daily', limit: 5 }, { key: keys.agent })
      )
    ).toEqual([200, 200, 404, 400, 400, 403]);
    const budgets = await hit('GET', '/api/budgets', {}, admin);
    expect((budgets.json as { budgets: unknown[] }).budgets).toHaveLength(2);
    expect((await hit('GET', '/api/budgets', {}, { key: keys.agent })).status).toBe(403);
    // Removed again: the other blocks' sends must not meet a budget.
    expect((await put({ period: 'monthly', limit: null })).status).toBe(200);
    const left = await put({ agentId: keyed, period: 'daily', limit: null });
    expect((left.json as { budgets: unknown[] }).budgets).toEqual([]);
  });

  it('access grants and workspaces', async () => {
    const admin = { key: keys.admin };
    // A fresh private agent of acme (agents are private unless made public), so the grants and
    // settings below change nothing the other blocks see.
    const made = await hit('POST', '/api/agents', {}, { ...admin, body: { name: 'contract-p' } });
    const p = made.json as { agent: { agentId: string }; apiKey: string };
    const privId = p.agent.agentId;
    const priv = { key: p.apiKey };
    const other = { key: keys.other };

    const ask = '/api/agents/{agentId}/request-access';
    const asked = await hit(
      'POST',
      ask,
      { agentId: privId },
      { ...other, body: { message: 'hi' } }
    );
    expect(asked.status).toBe(202);
    await hit('POST', ask, { agentId: 'no-such-agent' }, other);
    await hit('POST', ask, { agentId: otherAgentId }, other);
    await hit('POST', ask, { agentId: privId }, admin);
    await hit('POST', ask, { agentId: privId }, { ...other, body: { colour: 'red' } });
    await hit('POST', ask, { agentId: privId });
    const listed = await hit(
      'GET',
      '/api/access-requests',
      {},
      { ...admin, query: 'status=pending' }
    );
    const requestId = (listed.json as { requests: { requestId: string }[] }).requests[0]!.requestId;
    await hit('GET', '/api/access-requests', {}, priv);
    await hit('GET', '/api/access-requests', {}, { ...admin, query: 'status=lost' });
    const none = 'acr_000000000000000000000000';
    await hit('POST', '/api/access-requests/{requestId}/deny', { requestId }, admin);
    await hit('POST', '/api/access-requests/{requestId}/deny', { requestId: none }, admin);
    await hit('POST', '/api/access-requests/{requestId}/approve', { requestId: 'x' }, admin);
    await hit('POST', '/api/access-requests/{requestId}/approve', { requestId }, other);
    const ok = await hit('POST', '/api/access-requests/{requestId}/approve', { requestId }, priv);
    expect(ok.status).toBe(200);
    const access = '/api/agents/{agentId}/access';
    await hit('GET', access, { agentId: privId }, priv);
    await hit('GET', access, { agentId: privId }, other);
    await hit('PUT', access, { agentId: privId }, { ...admin, body: { autoApprove: true } });
    await hit('PUT', access, { agentId: privId }, { ...admin, body: { autoApprove: 'yes' } });
    await hit('PUT', access, { agentId: privId }, { ...other, body: { autoApprove: false } });
    expect((await hit('POST', ask, { agentId: privId }, other)).status).toBe(200);

    const created = await hit('POST', '/api/workspaces', {}, { ...priv, body: { name: 'team' } });
    expect(created.status).toBe(201);
    const workspaceId = (created.json as { workspace: { workspaceId: string } }).workspace
      .workspaceId;
    const ws = { workspaceId };
    const noWs = { workspaceId: 'ws_000000000000000000000000' };
    await hit('POST', '/api/workspaces', {}, { ...admin, body: { name: 'team' } });
    await hit('POST', '/api/workspaces', {}, { ...priv, body: {} });
    await hit('GET', '/api/workspaces', {}, priv);
    await hit('GET', '/api/workspaces', {}, admin);
    await hit('GET', '/api/workspaces/{workspaceId}', ws, admin);
    await hit('GET', '/api/workspaces/{workspaceId}', noWs, priv);
    await hit('GET', '/api/workspaces/{workspaceId}', { workspaceId: 'nope' }, priv);
    const members = '/api/workspaces/{workspaceId}/members';
    // The grant lets priv invite the other tenant's agent, which joins with its own key.
    await hit('POST', members, ws, { ...priv, body: { agentId: otherAgentId } });
    await hit('POST', members, ws, { ...priv, body: { agentId: 'no-such-agent' } });
    await hit('POST', members, ws, { ...priv, body: { agentId: 7 } });
    const memories = '/api/workspaces/{workspaceId}/memories';
    await hit('GET', memories, ws, other);
    await hit('POST', members, ws, { ...other, body: { agentId: otherAgentId } });
    await hit('POST', members, ws, { ...admin, body: { agentId } });
    await hit('GET', members, ws, other);
    await hit('GET', members, noWs, other);
    const member = '/api/workspaces/{workspaceId}/members/{agentId}';
    await hit('DELETE', member, { ...ws, agentId }, other);
    await hit('DELETE', member, { ...ws, agentId: privId }, priv);
    await hit('DELETE', member, { ...ws, agentId }, priv);

    const stored = await hit('POST', memories, ws, {
      ...other,
      body: { content: 'The deploy key rotates monthly', type: 'fact', tags: ['ops'] },
    });
    expect(stored.status).toBe(201);
    const memoryId = (stored.json as { memory: { memoryId: string } }).memory.memoryId;
    await hit('POST', memories, ws, { ...other, body: { content: '' } });
    await hit('GET', memories, ws, { ...other, query: 'type=fact&limit=5&offset=0' });
    await hit('GET', memories, ws, { ...other, query: 'limit=0' });
    await hit('GET', memories, ws, admin);
    const query = '/api/workspaces/{workspaceId}/memories/query';
    await hit('POST', query, ws, { ...priv, body: { query: 'deploy key', minScore: -1 } });
    await hit('POST', query, ws, { ...priv, body: { query: 'deploy', limit: 500 } });
    const one = '/api/workspaces/{workspaceId}/memories/{memoryId}';
    await hit('PATCH', one, { ...ws, memoryId }, { ...priv, body: { tags: ['ops', 'keys'] } });
    await hit('PATCH', one, { ...ws, memoryId }, { ...priv, body: {} });
    const noMemory = { ...ws, memoryId: 'wsm_000000000000000000000000' };
    await hit('PATCH', one, noMemory, { ...priv, body: { type: 'fact' } });
    await hit('GET', '/api/workspaces/{workspaceId}/types', ws, priv);
    await hit('GET', '/api/workspaces/{workspaceId}/types', ws, admin);
    await hit('DELETE', one, { ...ws, memoryId }, priv);
    await hit('DELETE', one, { ...ws, memoryId }, priv);

    const secret = '/api/workspaces/{workspaceId}/secrets/{name}';
    await hit('PUT', secret, { ...ws, name: 'DEPLOY_KEY' }, { ...priv, body: { value: 's3cret' } });
    await hit('PUT', secret, { ...ws, name: 'bad name' }, { ...priv, body: { value: 'x' } });
    await hit('PUT', secret, { ...ws, name: 'DEPLOY_KEY' }, { ...admin, body: { value: 'x' } });
    await hit('GET', '/api/workspaces/{workspaceId}/secrets', ws, other);
    await hit('GET', '/api/workspaces/{workspaceId}/secrets', noWs, other);
    await hit('GET', secret, { ...ws, name: 'DEPLOY_KEY' }, other);
    await hit('GET', secret, { ...ws, name: 'NONE' }, other);
    await hit('DELETE', secret, { ...ws, name: 'DEPLOY_KEY' }, other);
    await hit('DELETE', secret, { ...ws, name: 'DEPLOY_KEY' }, other);

    // The same operations as JSON-RPC methods: their results match GET /openrpc.json.
    const rpc = (await (await fetch(`${hub.url}/openrpc.json`)).json()) as typeof openrpc;
    const ajv = new Ajv2020({ strict: false });
    for (const [method, params] of [
      ['x-gopherhole/workspace.list', {}],
      ['x-gopherhole/workspace.get', ws],
      ['x-gopherhole/workspace.store', { ...ws, content: 'Standup is at nine' }],
      ['x-gopherhole/workspace.query', { ...ws, query: 'standup', minScore: -1 }],
      ['x-gopherhole/workspace.secrets.list', ws],
    ] as const) {
      const res = await fetch(`${hub.url}/a2a`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${p.apiKey}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      const answer = (await res.json()) as { result?: unknown; error?: unknown };
      expect(answer.error, method).toBeUndefined();
      const validate = ajv.compile(rpc.methods.find((m) => m.name === method)!.result.schema);
      expect(validate(answer.result) ? [] : validate.errors, method).toEqual([]);
    }

    await hit('DELETE', '/api/workspaces/{workspaceId}', ws, other);
    expect((await hit('DELETE', '/api/workspaces/{workspaceId}', ws, priv)).status).toBe(200);
    await hit('DELETE', '/api/workspaces/{workspaceId}', ws, priv);
  });

  it('the dashboard', async () => {
    await hit('GET', '/dashboard');
    await hit('GET', '/dashboard/*');
  });

  it('discovery', async () => {
    await hit('GET', '/api/discover/agents');
    await hit('GET', '/api/discover/agents', {}, { query: 'q=contract&limit=5' });
    await hit('GET', '/api/discover/agents', {}, { query: 'limit=500' });
    await hit('GET', '/api/discover/agents', {}, { key: keys.admin, query: 'scope=tenant' });
    await hit('GET', '/api/discover/categories');
    await hit('GET', '/api/discover/featured');
    await hit('GET', '/api/discover/agents/nearby', {}, { query: 'lat=48.85&lng=2.35' });
    await hit('GET', '/api/discover/agents/nearby', {}, { query: 'lat=91&lng=0' });
    await hit('GET', '/api/discover/agents/{agentId}', { agentId });
    await hit('GET', '/api/discover/agents/{agentId}', { agentId: 'no-such-agent' });
    await hit('GET', '/api/discover/agents/{agentId}/locations', { agentId });
    await hit(
      'POST',
      '/api/discover/agents/{agentId}/rate',
      { agentId },
      {
        key: keys.other,
        body: { rating: 5, review: 'good' },
      }
    );
    await hit(
      'POST',
      '/api/discover/agents/{agentId}/rate',
      { agentId },
      {
        key: keys.other,
        body: { rating: 9 },
      }
    );
  });

  it('A2A: cards, the per-agent endpoint, POST /a2a and /mcp', async () => {
    await hit('GET', '/agents/{agentId}/.well-known/agent-card.json', { agentId });
    const card = await hit('GET', '/agents/{agentId}/.well-known/agent.json', { agentId });
    await hit(
      'GET',
      '/agents/{agentId}/.well-known/agent.json',
      { agentId },
      {
        headers: { 'if-none-match': card.headers.get('etag') ?? '' },
      }
    );
    await hit('GET', '/agents/{agentId}/.well-known/agent-card.json', { agentId: 'nobody' });
    const rpcBody = { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'no-such-task' } };
    for (const template of ['/agents/{agentId}/a2a', '/agents/{agentId}/a2a/']) {
      await hit('POST', template, { agentId }, { key: keys.other, body: rpcBody });
      await hit('POST', template, { agentId }, { body: rpcBody });
    }
    await hit('POST', '/a2a', {}, { key: keys.agent, body: rpcBody });
    await hit('POST', '/a2a', {}, { body: rpcBody });
    await hit('POST', '/a2a', {}, { key: keys.agent, body: { jsonrpc: '2.0', method: 'GetTask' } });
    const mcpHeaders = { accept: 'application/json, text/event-stream' };
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'contract', version: '1' },
      },
    };
    const started = await hit(
      'POST',
      '/mcp',
      {},
      { key: keys.agent, headers: mcpHeaders, body: init }
    );
    const session = started.headers.get('mcp-session-id') ?? '';
    await hit('POST', '/mcp', {}, { key: keys.admin, headers: mcpHeaders, body: init });
    await hit('GET', '/mcp', {}, { key: keys.agent, headers: { accept: 'application/json' } });
    await hit('DELETE', '/mcp', {}, { key: keys.agent, headers: { 'mcp-session-id': session } });
  });

  it('the WebSocket upgrade: 101, then frames each way as x-websocket-frames lists them', async () => {
    const agent = await connectWsAgent(hub.url, keys.other);
    try {
      // `open` fires only on a 101 answer.
      problems.push(
        ...checker.check({ method: 'GET', path: '/ws', status: 101, contentType: null, body: '' })
      );
      const sent: Record<string, unknown>[] = [
        { type: 'ping' },
        { type: 'received', taskId: '', id: 'r1' },
        { jsonrpc: '2.0', id: 9, method: 'x-burrow/agent.me', params: {} },
      ];
      for (const frame of sent) {
        problems.push(...checker.checkFrame('/ws', 'fromClient', frame));
        agent.send(frame);
      }
      // Not a frame type: refused with an error frame (which is documented).
      const bogus = { type: 'no-such-frame', id: 7 };
      expect(checker.checkFrame('/ws', 'fromClient', bogus)).toHaveLength(1);
      agent.send(bogus);
      await agent.next('pong');
      await vi.waitFor(() => {
        expect(agent.frames.some((f) => f.id === 9)).toBe(true);
        expect(agent.frames.filter((f) => f.type === 'error')).toHaveLength(2);
      });
      expect(agent.frames[0]?.type).toBe('welcome');
      for (const frame of agent.frames)
        problems.push(...checker.checkFrame('/ws', 'fromHub', frame));
    } finally {
      await agent.close();
    }
    const refused = await connectWsAgent(hub.url, 'not-a-key', { waitWelcome: false });
    try {
      const frame = await refused.next('auth_error');
      problems.push(...checker.checkFrame('/ws', 'fromHub', frame));
    } finally {
      await refused.close();
    }
    // The checker can fail: a frame that breaks its schema is named.
    expect(checker.checkFrame('/ws', 'fromHub', { type: 'welcome' })).toHaveLength(1);
  });

  it('found no answer the document does not describe, and called every operation', () => {
    expect(problems).toEqual([]);
    const missed = checker.operations().filter((op) => !checker.seen.has(op));
    expect(missed).toEqual([]);
  });
});

describe('GET /openrpc.json of a real hub', () => {
  beforeAll(async () => {
    openrpc = (await (await fetch(`${hub.url}/openrpc.json`)).json()) as typeof openrpc;
  });

  it('is valid OpenRPC and documents every method POST /a2a serves', () => {
    expect(openRpcErrors(openrpc)).toEqual([]);
    expect(openrpc['x-undocumented']).toBeUndefined();
    expect(openrpc.methods.map((m) => m.name)).toEqual(
      expect.arrayContaining(['SendMessage', 'message/send', 'GetTask', 'x-burrow/agent.me'])
    );
  });

  it('real results of a sample of methods match their result schemas', async () => {
    const ajv = new Ajv2020({ strict: false });
    const call = async (method: string, params: unknown, key = keys.agent) => {
      const res = await fetch(`${hub.url}/a2a`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      const body = (await res.json()) as { result?: unknown; error?: unknown };
      expect(body.error, method).toBeUndefined();
      const schema = openrpc.methods.find((m) => m.name === method)?.result.schema;
      expect(schema, method).toBeDefined();
      const validate = ajv.compile(schema as object);
      expect(validate(body.result) ? [] : validate.errors, method).toEqual([]);
      return body.result as Record<string, unknown>;
    };
    const message = { role: 'user', parts: [{ kind: 'text', text: 'hello' }] };
    const task = await call('SendMessage', {
      message: { ...message },
      configuration: { agentId: peerId },
    });
    await call('message/send', {
      message: { ...message },
      configuration: { agentId: peerId },
    });
    await call('GetTask', { id: task.id as string });
    await call('tasks/get', { id: task.id as string });
    await call('ListTasks', { pageSize: 5 });
    await call('x-burrow/agent.me', {});
    await call('x-burrow/agent.me', {}, keys.admin);
    await call('x-gopherhole/agents.discover', { q: 'contract', limit: 5 });
    await call('x-gopherhole/agents.available', {});
  });
});
