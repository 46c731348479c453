// Workspaces through a real hub (issue 28 item 1): x-gopherhole/workspace.* on POST /a2a and over
// the agent WebSocket, REST under /api/workspaces; members of two tenants (the other tenant's agent
// by invitation), typed memories recalled by meaning through the hub's embedder, secrets stored
// encrypted and readable only by members; and isolation: a non-member, another tenant's admin and
// an unknown id get the same answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { testHubConfig } from '../support/test-hub.js';
import { rpc } from '../support/rpc.js';
import { connectWsAgent, type Frame, type TestWsAgent } from '../support/ws-agent.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant, issueAdminKey } from '../../infra/db/index.js';

const SECRET_KEY = 'c0ffee'.repeat(10) + 'beef';
let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
const key: Record<string, string> = {};
const id: Record<string, string> = {};
let wsId = '';
const M = (m: string) => `x-gopherhole/workspace.${m}`;

interface MemoryV {
  memoryId: string;
  type: string;
  content: string;
  tags: string[];
  author: string;
}
/** The fields the answers this file reads carry (each answer has some of them). */
interface Answer {
  workspace: { workspaceId: string; status: string };
  workspaces: Array<{ workspaceId: string; status: string }>;
  count: number;
  member: { agentId: string; status: string };
  members: Array<{ agentId: string }>;
  memories: MemoryV[];
  memory: MemoryV;
  total: number;
  types: Array<{ type: string; count: number }>;
  secret: { name: string };
  secrets: Array<{ name: string }>;
  error: { code: string; details?: { field?: string } };
}

async function http(method: string, path: string, k: string | undefined, body?: unknown) {
  const res = await fetch(`${hub.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${k ?? ''}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const raw = await res.text();
  return { status: res.status, body: (raw === '' ? null : JSON.parse(raw)) as Answer };
}

function wsCall(agent: TestWsAgent, callId: string, method: string, params: unknown) {
  return new Promise<Frame>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no answer to ${callId}`)), 10_000);
    const onMessage = (data: Buffer) => {
      const f = JSON.parse(data.toString()) as Frame;
      if (f.id !== callId) return;
      clearTimeout(timer);
      agent.ws.off('message', onMessage);
      done(f);
    };
    agent.ws.on('message', onMessage);
    agent.send({ jsonrpc: '2.0', id: callId, method, params });
  });
}

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(
    testHubConfig(nats, db, { PARTITIONS: '4', WORKSPACE_SECRET_KEY: SECRET_KEY }),
    silentLogger
  );
  const a = await createTenant(hub.sql, { name: 'Workspace Co' });
  const b = await createTenant(hub.sql, { name: 'Partner Inc' });
  for (const [name, tenant, visibility] of [
    ['alice', a.id, 'private'],
    ['bob', a.id, 'private'],
    ['partner', b.id, 'public'],
    ['mallory', b.id, 'private'],
  ] as const) {
    const c = await createAgent(hub.sql, { tenantId: tenant, name, visibility });
    id[name] = c.agent.id;
    key[name] = c.apiKey;
  }
  key.adminA = (await issueAdminKey(hub.sql, a.id)).key;
  key.adminB = (await issueAdminKey(hub.sql, b.id)).key;
}, 60_000);

afterAll(async () => {
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

describe('workspaces', () => {
  it('an agent creates one over /a2a and owns it', async () => {
    const r = await rpc<Answer>(hub.url, key.alice, M('create'), {
      name: 'Launch',
      description: 'the spring launch',
    });
    expect(r.error).toBeUndefined();
    expect(r.result!.workspace).toMatchObject({
      name: 'Launch',
      role: 'owner',
      status: 'active',
      memberCount: 1,
      createdBy: id.alice,
    });
    wsId = r.result!.workspace.workspaceId;
    expect(wsId).toMatch(/^ws_[0-9a-f]{24}$/);
  });

  it('refuses bad input naming the field, and changes nothing', async () => {
    const noName = await rpc(hub.url, key.alice, M('create'), { description: 'x' });
    expect(noName.error).toMatchObject({ code: -32602, data: { field: 'name' } });
    const typo = await rpc(hub.url, key.alice, M('store'), { workspaceId: wsId, contnet: 'x' });
    expect(typo.error).toMatchObject({ code: -32602, data: { field: 'contnet' } });
    const badType = await rpc(hub.url, key.alice, M('store'), {
      workspaceId: wsId,
      content: 'x',
      type: 'Not A Type',
    });
    expect(badType.error).toMatchObject({ code: -32602, data: { field: 'type' } });
    const list = await rpc<Answer>(hub.url, key.alice, M('list'), {});
    expect(list.result!.count).toBe(1);
    const mems = await rpc<Answer>(hub.url, key.alice, M('memories'), { workspaceId: wsId });
    expect(mems.result!.total).toBe(0);
  });

  it("seats its own tenant's agent at once and invites another tenant's", async () => {
    const bob = await rpc<Answer>(hub.url, key.alice, M('members.add'), {
      workspaceId: wsId,
      agentId: id.bob,
    });
    expect(bob.result!.member).toMatchObject({ agentId: id.bob, status: 'active', role: 'member' });
    const partner = await rpc<Answer>(hub.url, key.alice, M('members.add'), {
      workspaceId: wsId,
      agentId: id.partner,
    });
    expect(partner.result!.member).toMatchObject({ agentId: id.partner, status: 'invited' });
    // Another tenant's private agent cannot be named without an access grant: as unknown.
    const hidden = await rpc(hub.url, key.alice, M('members.add'), {
      workspaceId: wsId,
      agentId: id.mallory,
    });
    expect(hidden.error?.code).toBe(-32016);
  });

  it('an invited agent sees the invitation but nothing inside until it joins (WebSocket)', async () => {
    const listed = await rpc<Answer>(hub.url, key.partner, M('list'), {});
    expect(listed.result!.workspaces).toEqual([
      expect.objectContaining({ workspaceId: wsId, status: 'invited' }),
    ]);
    const early = await rpc(hub.url, key.partner, M('memories'), { workspaceId: wsId });
    expect(early.error?.code).toBe(-32015);
    const socket = await connectWsAgent(hub.url, key.partner);
    try {
      const joined = await wsCall(socket, 'join', M('members.add'), {
        workspaceId: wsId,
        agentId: id.partner,
      });
      expect(joined.error).toBeUndefined();
      expect((joined.result as Answer).member).toMatchObject({ status: 'active' });
      const stored = await wsCall(socket, 'store', M('store'), {
        workspaceId: wsId,
        type: 'decision',
        content: 'We store customer orders in PostgreSQL, not in MongoDB',
        tags: ['database'],
      });
      expect(stored.error).toBeUndefined();
      expect((stored.result as Answer).memory).toMatchObject({
        type: 'decision',
        author: id.partner,
      });
    } finally {
      await socket.close();
    }
  });

  it('members share typed memories and recall them by meaning', async () => {
    for (const [who, type, content] of [
      ['alice', 'fact', 'The launch date is the fourteenth of March'],
      ['bob', 'fact', 'Our brand colours are teal and orange'],
      ['bob', 'todo', 'Book the venue for the launch party'],
    ] as const) {
      const r = await http('POST', `/api/workspaces/${wsId}/memories`, key[who], {
        type,
        content,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    const q = await rpc<Answer>(hub.url, key.alice, M('query'), {
      workspaceId: wsId,
      query: 'which database holds customer orders?',
    });
    expect(q.error).toBeUndefined();
    expect(q.result!.memories[0]).toMatchObject({ type: 'decision', author: id.partner });
    expect(q.result!.memories[0]!.content).toContain('PostgreSQL');
    const todos = await http('GET', `/api/workspaces/${wsId}/memories?type=todo`, key.bob);
    expect(todos.body.total).toBe(1);
    expect(todos.body.memories[0]!.content).toContain('venue');
    const page = await http('GET', `/api/workspaces/${wsId}/memories?limit=2&offset=1`, key.bob);
    expect(page.status).toBe(200);
    expect(page.body.memories).toHaveLength(2);
    // The query is read with the route doc's schema: a bad, repeated or unknown parameter is 400
    // naming it (a repeated one was read as its last value).
    for (const [query, field] of [
      ['limit=abc', 'limit'],
      ['limit=0', 'limit'],
      ['offset=-1', 'offset'],
      ['limit=1&limit=2', 'limit'],
      ['colour=blue', 'colour'],
    ]) {
      const r = await http('GET', `/api/workspaces/${wsId}/memories?${query}`, key.bob);
      expect(r.status, query).toBe(400);
      expect(r.body.error.details?.field).toBe(field);
    }
    const types = await rpc<Answer>(hub.url, key.bob, M('types'), { workspaceId: wsId });
    expect(types.result!.types).toEqual([
      { type: 'fact', count: 2 },
      { type: 'decision', count: 1 },
      { type: 'todo', count: 1 },
    ]);
  });

  it('update re-embeds the content; forget removes it', async () => {
    const all = await rpc<Answer>(hub.url, key.alice, M('memories'), {
      workspaceId: wsId,
      type: 'fact',
    });
    const colours = all.result!.memories.find((m: MemoryV) => m.content.includes('colours'))!;
    const updated = await rpc<Answer>(hub.url, key.alice, M('update'), {
      workspaceId: wsId,
      memoryId: colours.memoryId,
      content: 'Our brand colours are purple and gold',
      tags: ['brand'],
    });
    expect(updated.result!.memory).toMatchObject({ tags: ['brand'], type: 'fact' });
    const q = await rpc<Answer>(hub.url, key.bob, M('query'), {
      workspaceId: wsId,
      query: 'purple gold brand colours',
    });
    expect(q.result!.memories[0]!.memoryId).toBe(colours.memoryId);
    const gone = await http(
      'DELETE',
      `/api/workspaces/${wsId}/memories/${colours.memoryId}`,
      key.bob
    );
    expect(gone.status).toBe(200);
    const again = await rpc(hub.url, key.bob, M('forget'), {
      workspaceId: wsId,
      memoryId: colours.memoryId,
    });
    expect(again.error?.data).toMatchObject({ field: 'memoryId' });
  });

  it('secrets are stored encrypted and read back by every member, any tenant', async () => {
    const set = await rpc<Answer>(hub.url, key.alice, M('secrets.set'), {
      workspaceId: wsId,
      name: 'STRIPE_KEY',
      value: 'sk_live_very-secret-value',
    });
    expect(set.result!.secret).toMatchObject({ name: 'STRIPE_KEY', updatedBy: id.alice });
    expect(JSON.stringify(set.result)).not.toContain('very-secret');
    const [row] = await hub.sql<Array<{ ciphertext: Buffer; keyId: string }>>`
      select ciphertext, key_id from workspace_secrets where workspace_id = ${wsId}`;
    expect(row!.ciphertext.toString('latin1')).not.toContain('very-secret');
    expect(row!.keyId).toMatch(/^[0-9a-f]{16}$/);
    const got = await http('GET', `/api/workspaces/${wsId}/secrets/STRIPE_KEY`, key.partner);
    expect(got.body).toMatchObject({ name: 'STRIPE_KEY', value: 'sk_live_very-secret-value' });
    const list = await rpc<Answer>(hub.url, key.bob, M('secrets.list'), { workspaceId: wsId });
    expect(list.result!.secrets).toEqual([expect.objectContaining({ name: 'STRIPE_KEY' })]);
    expect(JSON.stringify(list.result)).not.toContain('very-secret');
    // A tenant admin manages the workspace but is no member: no secrets.
    const admin = await http('GET', `/api/workspaces/${wsId}/secrets/STRIPE_KEY`, key.adminA);
    expect(admin.status).toBe(403);
    const put = await http('PUT', `/api/workspaces/${wsId}/secrets/DB_URL`, key.bob, {
      value: 'postgres://x',
    });
    expect(put.status).toBe(200);
    const del = await rpc<Answer>(hub.url, key.bob, M('secrets.delete'), {
      workspaceId: wsId,
      name: 'DB_URL',
    });
    expect(del.result).toEqual({ name: 'DB_URL', deleted: true });
  });

  it('a non-member and another tenant get the answer of an unknown workspace', async () => {
    const unknown = 'ws_' + '0'.repeat(24);
    for (const method of [
      'get',
      'memories',
      'query',
      'secrets.get',
      'secrets.list',
      'members.list',
    ]) {
      const params = { workspaceId: wsId, query: 'orders', name: 'STRIPE_KEY' };
      const pick = (p: Record<string, unknown>) =>
        Object.fromEntries(
          Object.entries(p).filter(
            ([k]) =>
              k === 'workspaceId' ||
              (k === 'query' && method === 'query') ||
              (k === 'name' && method === 'secrets.get')
          )
        );
      const hidden = await rpc(hub.url, key.mallory, M(method), pick(params));
      const none = await rpc(
        hub.url,
        key.mallory,
        M(method),
        pick({ ...params, workspaceId: unknown })
      );
      expect(hidden.error?.code, method).toBe(-32023);
      expect(JSON.stringify(hidden.error).replaceAll(wsId, '<id>')).toBe(
        JSON.stringify(none.error).replaceAll(unknown, '<id>')
      );
    }
    const otherAdmin = await http('GET', `/api/workspaces/${wsId}`, key.adminB);
    expect(otherAdmin.status).toBe(404);
    expect(otherAdmin.body.error.code).toBe('WORKSPACE_NOT_FOUND');
    expect((await http('GET', '/api/workspaces', key.adminB)).body.count).toBe(0);
    expect((await http('GET', '/api/workspaces', key.mallory)).body.count).toBe(0);
    const mine = await http('GET', '/api/workspaces', key.adminA);
    expect(mine.body.workspaces.map((w: { workspaceId: string }) => w.workspaceId)).toEqual([wsId]);
  });

  it('only the owner removes others; a removed member loses access; the owner deletes', async () => {
    const byMember = await rpc(hub.url, key.partner, M('members.remove'), {
      workspaceId: wsId,
      agentId: id.bob,
    });
    expect(byMember.error?.code).toBe(-32015);
    const removed = await http('DELETE', `/api/workspaces/${wsId}/members/${id.bob}`, key.alice);
    expect(removed.body).toMatchObject({ removed: true });
    const after = await rpc(hub.url, key.bob, M('secrets.get'), {
      workspaceId: wsId,
      name: 'STRIPE_KEY',
    });
    expect(after.error?.code).toBe(-32023);
    const leave = await rpc<Answer>(hub.url, key.partner, M('members.remove'), {
      workspaceId: wsId,
      agentId: id.partner,
    });
    expect(leave.result).toMatchObject({ removed: true });
    const members = await rpc<Answer>(hub.url, key.alice, M('members.list'), { workspaceId: wsId });
    expect(members.result!.members.map((m) => m.agentId)).toEqual([id.alice]);
    const deleted = await rpc<Answer>(hub.url, key.alice, M('delete'), { workspaceId: wsId });
    expect(deleted.result).toEqual({ workspaceId: wsId, deleted: true });
    const gone = await rpc(hub.url, key.alice, M('get'), { workspaceId: wsId });
    expect(gone.error?.code).toBe(-32023);
    const [left] = await hub.sql<Array<{ n: number }>>`
      select (select count(*) from workspace_memories where workspace_id = ${wsId})
           + (select count(*) from workspace_secrets where workspace_id = ${wsId}) as n`;
    expect(Number(left!.n)).toBe(0);
  });
});
