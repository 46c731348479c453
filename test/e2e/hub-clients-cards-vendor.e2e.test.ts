// What existing hub clients send and read (decisions.md §11), against a real hub: partial agent
// cards (update_card, PATCH, `burrow agents create --url`) get the default card's fields; errors on
// WebSocket frames name the field and carry the frame's id; the vendor discovery methods answer
// on /a2a and the WebSocket with the REST bodies; REST errors carry a top-level message.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { partitionsSettled, testHubConfig } from '../support/test-hub.js';
import { connectWsAgent, type Frame, type TestWsAgent } from '../support/ws-agent.js';
import { rpc } from '../support/rpc.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant, getAgent } from '../../infra/db/index.js';

const BIN = resolve(import.meta.dirname, '../../infra/bin/burrow.js');

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let cardServer: Server;
let cardBase: string;
let tenantId: string;
const keys: Record<string, string> = {};
const ids: Record<string, string> = {};

/** The card an existing hub client sends: no capabilities, modes or skills. */
const PARTIAL = {
  name: 'Partial',
  description: 'Sends only what it knows',
  url: 'http://partial.example/a2a',
  version: '2.3.4',
};

async function call(
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  key?: string,
  body?: unknown
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== undefined) headers.authorization = `Bearer ${key}`;
  const res = await fetch(`${hub.url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A JSON-RPC call over the agent WebSocket: the answer is the frame with the same id. */
function wsCall(agent: TestWsAgent, id: string, method: string, params: unknown): Promise<Frame> {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no answer to ${id}`)), 10_000);
    const onMessage = (data: Buffer) => {
      const f = JSON.parse(data.toString()) as Frame;
      if (f.id !== id) return;
      clearTimeout(timer);
      agent.ws.off('message', onMessage);
      done(f);
    };
    agent.ws.on('message', onMessage);
    agent.send({ jsonrpc: '2.0', id, method, params });
  });
}

/** The registered card (agent.json) as the hub serves it, read with the agent's own key. */
async function registeredCard(agentId: string, key: string): Promise<Record<string, unknown>> {
  const r = await call('GET', `/agents/${agentId}/.well-known/agent.json`, key);
  expect(r.status).toBe(200);
  return r.body;
}

const DEFAULTS = {
  capabilities: { streaming: false, pushNotifications: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [],
};

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db), silentLogger);
  await partitionsSettled([hub], 8);
  const acme = await createTenant(hub.sql, { name: 'Acme Kayaks' });
  const rival = await createTenant(hub.sql, { name: 'Rival' });
  tenantId = acme.id;
  const add = async (name: string, tenant: string, extra: Record<string, unknown> = {}) => {
    const created = await createAgent(hub.sql, { tenantId: tenant, name, ...extra });
    keys[name] = created.apiKey;
    ids[name] = created.agent.id;
  };
  await add('carder', acme.id);
  await add('patcher', acme.id);
  await add('paddler', acme.id, { description: 'Books kayak tours', visibility: 'public' });
  await add('helper', acme.id, { description: 'Private kayak helper' });
  await add('rival-public', rival.id, { description: 'Rents kayak gear', visibility: 'public' });
  await add('rival-secret', rival.id, { description: 'Secret kayak plans' });
  for (const who of ['paddler', 'rival-public']) {
    const r = await call('PATCH', `/api/agents/${ids[who]}`, keys[who], {
      tags: ['location:Lyon, France'],
    });
    expect(r.status).toBe(200);
  }
  cardServer = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(PARTIAL));
  });
  await new Promise<void>((ok) => cardServer.listen(0, '127.0.0.1', ok));
  cardBase = `http://127.0.0.1:${(cardServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await hub?.stop();
  await new Promise((ok) => cardServer?.close(ok));
  await nats?.close();
  await db?.drop();
});

describe('partial agent cards get the default card (decisions.md §11)', () => {
  it('update_card without capabilities, modes or skills is card_updated, and served with them', async () => {
    const agent = await connectWsAgent(hub.url, keys.carder);
    try {
      agent.send({ type: 'update_card', agentCard: PARTIAL });
      const updated = await agent.next('card_updated');
      expect(updated.agentCard).toMatchObject({ ...PARTIAL, ...DEFAULTS });
      expect(await registeredCard(ids.carder!, keys.carder!)).toMatchObject({
        version: '2.3.4',
        ...DEFAULTS,
      });
      const v1 = await fetch(`${hub.url}/agents/${ids.carder}/.well-known/agent-card.json`, {
        headers: { authorization: `Bearer ${keys.carder}`, 'a2a-version': '1.0' },
      });
      expect(await v1.json()).toMatchObject({
        version: '2.3.4',
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [],
      });
    } finally {
      await agent.close();
    }
  });

  it('an update_card with an id and a bad field gets an error naming the field, with that id', async () => {
    const agent = await connectWsAgent(hub.url, keys.carder);
    try {
      agent.send({ type: 'update_card', id: 'card-7', agentCard: { ...PARTIAL, version: 'one' } });
      const error = await agent.next('error');
      expect(error).toMatchObject({
        type: 'error',
        id: 'card-7',
        error: 'INVALID_PARAMS',
        field: 'agentCard.version',
      });
      expect(error.message).toContain('agentCard.version');
    } finally {
      await agent.close();
    }
  });

  it('PATCH /api/agents/:id takes a partial card; a bad one is 400 naming the field', async () => {
    const ok = await call('PATCH', `/api/agents/${ids.patcher}`, keys.patcher, { card: PARTIAL });
    expect(ok.status).toBe(200);
    expect(await registeredCard(ids.patcher!, keys.patcher!)).toMatchObject({
      version: '2.3.4',
      ...DEFAULTS,
    });
    const bad = await call('PATCH', `/api/agents/${ids.patcher}`, keys.patcher, {
      card: { ...PARTIAL, version: 'one' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ details: { field: 'card.version' } });
  });

  it('burrow agents create --url registers an agent whose card is partial', async () => {
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
      execFile(
        process.execPath,
        [
          BIN,
          'agents',
          'create',
          '--tenant',
          tenantId,
          '--name',
          'Fetched',
          '--url',
          cardBase,
          '--json',
        ],
        {
          env: { ...process.env, DATABASE_URL: db.url, NATS_URL: nats.url },
          timeout: 30_000,
        },
        (err, stdout, stderr) =>
          done({ code: typeof err?.code === 'number' ? err.code : err ? 1 : 0, stdout, stderr })
      )
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const { agentId } = JSON.parse(run.stdout) as { agentId: string };
    expect((await getAgent(hub.sql, agentId))?.card).toMatchObject(PARTIAL);
    expect(await registeredCard(agentId, keys.carder!)).toMatchObject({
      version: '2.3.4',
      ...DEFAULTS,
    });
  });
});

describe('an agent without a card has the default card in discovery', () => {
  it('is found by contentMode=text/plain, in memory and with SQL', async () => {
    for (const q of ['contentMode=text/plain', 'contentMode=text/*&q=kayak']) {
      const r = await call('GET', `/api/discover/agents?${q}&limit=50`, keys.paddler);
      expect(r.status).toBe(200);
      const found = (r.body.agents as { id: string }[]).map((a) => a.id);
      expect(found).toEqual(expect.arrayContaining([ids.helper, ids.paddler]));
    }
    const sql = await hub.sql<{ contentModes: string[] }[]>`
      select content_modes from agents where id = ${ids.helper!}`;
    expect(sql[0]?.contentModes.sort()).toEqual(['text/*', 'text/plain']);
  });
});

describe('vendor discovery methods (x-gopherhole/*)', () => {
  const cases: { method: string; params: Record<string, unknown>; rest: string }[] = [
    {
      method: 'x-gopherhole/agents.discover',
      params: { query: 'kayak', limit: 5, verified: false },
      rest: '/api/discover/agents?query=kayak&limit=5&verified=false',
    },
    {
      // What the TypeScript client's discoverAgents({organization, sort: 'smart'}) sends.
      method: 'x-gopherhole/agents.discover',
      params: { query: 'kayak', organization: 'Acme Kayaks', owner: 'Acme Kayaks', sort: 'smart' },
      rest: '/api/discover/agents?query=kayak&owner=Acme%20Kayaks',
    },
    {
      method: 'x-gopherhole/agents.discover.nearby',
      params: { lat: 45.764, lng: 4.8357, radius: 25 },
      rest: '/api/discover/agents/nearby?lat=45.764&lng=4.8357&radius=25',
    },
    {
      method: 'x-gopherhole/agents.available',
      params: {},
      rest: '/api/discover/agents?scope=tenant',
    },
    {
      method: 'x-gopherhole/agents.available',
      params: { query: 'kayak' },
      rest: '/api/discover/agents?query=kayak',
    },
  ];

  it.each(cases)(
    '$method $params answers the REST body of $rest, over HTTP and WebSocket',
    async ({ method, params, rest }) => {
      const expected = await call('GET', rest, keys.paddler);
      expect(expected.status).toBe(200);
      expect((expected.body.agents as unknown[]).length).toBeGreaterThan(0);
      const http = await rpc(hub.url, keys.paddler, method, params);
      expect(http.error).toBeUndefined();
      expect(http.result).toEqual(expected.body);
      const agent = await connectWsAgent(hub.url, keys.paddler);
      try {
        const frame = await wsCall(agent, `ws-${method}`, method, params);
        expect(frame.error).toBeUndefined();
        expect(frame.result).toEqual(expected.body);
      } finally {
        await agent.close();
      }
    }
  );

  it("shows the caller's own private agents, never another tenant's", async () => {
    const r = await rpc<{ agents: { id: string }[] }>(
      hub.url,
      keys.paddler,
      'x-gopherhole/agents.discover',
      { query: 'kayak' }
    );
    const found = r.result?.agents.map((a) => a.id) ?? [];
    expect(found).toEqual(expect.arrayContaining([ids.paddler, ids.helper, ids['rival-public']]));
    expect(found).not.toContain(ids['rival-secret']);
    const available = await rpc<{ agents: { id: string }[] }>(
      hub.url,
      keys.paddler,
      'x-gopherhole/agents.available',
      {}
    );
    const reachable = available.result?.agents.map((a) => a.id) ?? [];
    expect(reachable).toEqual(expect.arrayContaining([ids.carder, ids.paddler, ids.helper]));
    expect(reachable).not.toContain(ids['rival-public']);
    expect(reachable).not.toContain(ids['rival-secret']);
  });

  it('a bad param is -32602 naming it; an unknown x-gopherhole method is -32601', async () => {
    const agent = await connectWsAgent(hub.url, keys.paddler);
    try {
      const bad: [string, Record<string, unknown>, string][] = [
        ['x-gopherhole/agents.discover', { limit: 500 }, 'limit'],
        ['x-gopherhole/agents.discover', { colour: 'red' }, 'colour'],
        ['x-gopherhole/agents.discover', { tag: ['a'] }, 'tag'],
        ['x-gopherhole/agents.discover.nearby', { lng: 4.8 }, 'lat'],
        ['x-gopherhole/agents.available', { public: 'yes' }, 'public'],
      ];
      for (const [method, params, field] of bad) {
        const http = await rpc(hub.url, keys.paddler, method, params);
        expect(http.error).toMatchObject({ code: -32602, data: { field } });
        const ws = await wsCall(agent, `bad-${field}`, method, params);
        expect(ws.error).toMatchObject({ code: -32602, data: { field } });
      }
      const http = await rpc(hub.url, keys.paddler, 'x-gopherhole/agents.frobnicate', {});
      expect(http.error?.code).toBe(-32601);
      const ws = await wsCall(agent, 'unknown', 'x-gopherhole/agents.frobnicate', {});
      expect((ws.error as { code: number }).code).toBe(-32601);
    } finally {
      await agent.close();
    }
  });
});

describe('REST errors', () => {
  it('carry a top-level message a client can show, beside the structured error', async () => {
    const r = await call('POST', `/api/discover/agents/${ids.paddler}/rate`, keys.helper, {
      rating: 5,
    });
    expect(r.status).toBe(403);
    expect(r.body.error).toMatchObject({ code: 'FORBIDDEN' });
    expect(typeof r.body.message).toBe('string');
    expect(r.body.message).toBe((r.body.error as { message: string }).message);
  });
});
