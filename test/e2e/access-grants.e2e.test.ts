// Access grants through a real hub (issue 28 item 2): an agent asks to message another tenant's
// private agent; until the owner approves, the answer stays the one an unknown agent gets (-32016,
// issue 18: a stranger never learns that a private agent exists; an admin key still gets -32015);
// a grant lets exactly that pair message each other, both ways, on /a2a and the per-agent
// endpoint, and puts the peer in x-gopherhole/agents.available; deny, the CLI and auto-approve.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { testHubConfig } from '../support/test-hub.js';
import { rpc, text } from '../support/rpc.js';
import { connectWsAgent, type TestWsAgent } from '../support/ws-agent.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant, issueAdminKey } from '../../infra/db/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
const key: Record<string, string> = {};
const id: Record<string, string> = {};
const tenant = { a: '', b: '' };
const sockets: TestWsAgent[] = [];
const UNKNOWN = 'agent-000000000000';

interface RequestV {
  requestId: string;
  status: string;
  requesterAgentId: string;
  targetAgentId: string;
}
interface Body {
  request: RequestV;
  requests: RequestV[];
  agents: Array<{ id: string; access?: string }>;
  autoApprove: boolean;
  error: { code: string };
}

async function http(method: string, path: string, k: string | undefined, body?: unknown) {
  const res = await fetch(`${hub.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${k ?? ''}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const raw = await res.text();
  return { status: res.status, body: (raw === '' ? null : JSON.parse(raw)) as Body };
}

const send = (from: string, to: string | undefined, words: string) =>
  rpc(hub.url, key[from], 'SendMessage', {
    message: text(words),
    configuration: { agentId: to },
  });

function burrow(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'infra/bin/burrow.ts', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: db.url, NATS_URL: nats.url },
        timeout: 60_000,
      },
      (err, stdout, stderr) =>
        done({ code: err === null ? 0 : Number(err.code ?? 1), stdout, stderr })
    );
  });
}

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db, { PARTITIONS: '4' }), silentLogger);
  tenant.a = (await createTenant(hub.sql, { name: 'Owner Labs' })).id;
  tenant.b = (await createTenant(hub.sql, { name: 'Asker Corp' })).id;
  for (const [name, t] of [
    ['bob', tenant.a],
    ['carol', tenant.a],
    ['mallory', tenant.b],
    ['mia', tenant.b],
  ] as const) {
    const c = await createAgent(hub.sql, { tenantId: t, name, visibility: 'private' });
    id[name] = c.agent.id;
    key[name] = c.apiKey;
  }
  key.adminA = (await issueAdminKey(hub.sql, tenant.a)).key;
  key.adminB = (await issueAdminKey(hub.sql, tenant.b)).key;
  for (const name of ['bob', 'carol', 'mallory', 'mia']) {
    sockets.push(await connectWsAgent(hub.url, key[name]));
  }
}, 60_000);

afterAll(async () => {
  for (const s of sockets) await s.close();
  await hub?.stop();
  await nats?.close();
  await db?.drop();
});

describe('access grants', () => {
  let requestId = '';

  it('without a grant, a private agent of another tenant is answered as an unknown one', async () => {
    const hidden = await send('mallory', id.bob, 'hello bob');
    const unknown = await send('mallory', UNKNOWN, 'hello bob');
    expect(hidden.error?.code).toBe(-32016);
    expect(JSON.stringify(hidden.error).replaceAll(id.bob!, '<id>')).toBe(
      JSON.stringify(unknown.error).replaceAll(UNKNOWN, '<id>')
    );
  });

  it('asking about a private agent and an unknown id answers alike: 202 pending', async () => {
    const asked = await http('POST', `/api/agents/${id.bob}/request-access`, key.mallory, {
      message: 'we would like to send you orders',
    });
    const none = await http('POST', `/api/agents/${UNKNOWN}/request-access`, key.mallory, {
      message: 'we would like to send you orders',
    });
    expect(asked.status).toBe(202);
    expect(none.status).toBe(202);
    const shape = (b: Body) => Object.keys(b.request).sort();
    expect(shape(asked.body)).toEqual(shape(none.body));
    expect(asked.body.request).toMatchObject({ status: 'pending', requesterAgentId: id.mallory });
    requestId = asked.body.request.requestId;
    const typo = await http('POST', `/api/agents/${id.bob}/request-access`, key.mallory, {
      mesage: 'x',
    });
    expect([typo.status, typo.body.error.code]).toEqual([400, 'INVALID_PARAMS']);
    const sameTenant = await http('POST', `/api/agents/${id.bob}/request-access`, key.carol);
    expect(sameTenant.status).toBe(409);
  });

  it("the owner's tenant sees the request; the asker's tenant does not; pending is no grant", async () => {
    const inbox = await http('GET', '/api/access-requests?status=pending', key.adminA);
    expect(inbox.body.requests.map((r) => r.requestId)).toEqual([requestId]);
    const bobsOwn = await http('GET', '/api/access-requests', key.bob);
    expect(bobsOwn.body.requests).toHaveLength(1);
    const carols = await http('GET', '/api/access-requests', key.carol);
    expect(carols.body.requests).toHaveLength(0);
    const askers = await http('GET', '/api/access-requests', key.adminB);
    expect(askers.body.requests).toHaveLength(0);
    const notTheirs = await http('POST', `/api/access-requests/${requestId}/approve`, key.adminB);
    expect(notTheirs.status).toBe(404);
    const carolTries = await http('POST', `/api/access-requests/${requestId}/approve`, key.carol);
    expect(carolTries.status).toBe(404);
    expect((await send('mallory', id.bob, 'still pending')).error?.code).toBe(-32016);
  });

  it('denied (API) is no grant; approved with the CLI lets exactly that pair talk', async () => {
    const denied = await http('POST', `/api/access-requests/${requestId}/deny`, key.adminA);
    expect(denied.body.request.status).toBe('denied');
    expect((await send('mallory', id.bob, 'denied')).error?.code).toBe(-32016);

    const listed = await burrow(['access', 'list', '--tenant', tenant.a, '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as RequestV[])[0]).toMatchObject({
      requestId,
      status: 'denied',
    });
    const approved = await burrow(['access', 'approve', requestId, '--tenant', tenant.a, '--json']);
    expect(approved.code, approved.stderr).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ requestId, status: 'approved' });

    const there = await send('mallory', id.bob, 'hello bob, granted');
    expect(there.error).toBeUndefined();
    const bob = sockets[0]!;
    expect(JSON.stringify(await bob.next('message'))).toContain('hello bob, granted');
    const back = await send('bob', id.mallory, 'hello mallory');
    expect(back.error).toBeUndefined();
    expect(JSON.stringify(await sockets[2]!.next('message'))).toContain('hello mallory');
    // The per-agent endpoint too.
    const perAgent = await rpc(
      hub.url,
      key.mallory,
      'SendMessage',
      {
        message: { ...text('via the per-agent endpoint'), messageId: 'm-per-agent' },
        configuration: { returnImmediately: true },
      },
      `/agents/${id.bob}/a2a`
    );
    expect(perAgent.error).toBeUndefined();
    // Exactly that pair: not mallory's colleague, not bob's colleague.
    expect((await send('mia', id.bob, 'me too?')).error?.code).toBe(-32016);
    expect((await send('mallory', id.carol, 'and carol?')).error?.code).toBe(-32016);
    // An admin key, which sees the agent, is still refused with -32015.
    expect((await send('adminA', id.bob, 'from the admin')).error?.code).toBe(-32015);
  });

  it('agents.available lists the granted peer to each side of the pair only', async () => {
    const avail = async (who: string) =>
      (await rpc<Body>(hub.url, key[who], 'x-gopherhole/agents.available', {})).result!.agents;
    const mallorys = await avail('mallory');
    expect(mallorys.find((a) => a.id === id.bob)).toMatchObject({ access: 'granted' });
    expect(mallorys.map((a) => a.id)).not.toContain(id.carol);
    expect((await avail('bob')).find((a) => a.id === id.mallory)).toMatchObject({
      access: 'granted',
    });
    expect((await avail('mia')).map((a) => a.id)).not.toContain(id.bob);
  });

  it('an agent set to auto-approve grants a request at once', async () => {
    const bad = await http('PUT', `/api/agents/${id.carol}/access`, key.adminA, {
      autoApprove: 'yes',
    });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'INVALID_PARAMS']);
    const hidden = await http('PUT', `/api/agents/${id.carol}/access`, key.adminB, {
      autoApprove: true,
    });
    expect(hidden.status).toBe(404);
    const set = await http('PUT', `/api/agents/${id.carol}/access`, key.adminA, {
      autoApprove: true,
    });
    expect(set.body).toMatchObject({ agentId: id.carol, autoApprove: true });
    expect((await http('GET', `/api/agents/${id.carol}/access`, key.carol)).body.autoApprove).toBe(
      true
    );
    const asked = await http('POST', `/api/agents/${id.carol}/request-access`, key.mia);
    expect(asked.status).toBe(200);
    expect(asked.body.request.status).toBe('approved');
    expect((await send('mia', id.carol, 'hello carol')).error).toBeUndefined();
  });
});
