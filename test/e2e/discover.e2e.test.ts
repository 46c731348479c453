// The discovery directory through a running hub (its geocoder a local Nominatim-like server): the
// REST endpoints and their errors, official agents in the directory, statistics from real tasks,
// ratings, PATCH of tags with geocoding, and a WebSocket agent's update_card reaching the search.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { connectWsAgent } from '../support/ws-agent.js';
import { rpc, text } from '../support/rpc.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import {
  createAgent,
  createTenant,
  issueAdminKey,
  setAgentFeatured,
} from '../../infra/db/index.js';
import { startNominatimServer, type NominatimServer } from '../support/nominatim-server.js';
import { officialAgents } from '../../agents/index.js';

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let geo: NominatimServer;
const keys: Record<string, string> = {};
const ids: Record<string, string> = {};

interface Answer {
  status: number;
  body: Record<string, unknown> & {
    error?: { code: string; message: string; details?: Record<string, unknown> };
  };
}

async function call(
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  key?: string,
  body?: unknown
): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== undefined) headers.authorization = `Bearer ${key}`;
  const res = await fetch(`${hub.url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

const agentIds = (a: Answer) => (a.body.agents as Array<{ id: string }>).map((x) => x.id);

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  geo = await startNominatimServer({
    lyon: {
      lat: 45.764,
      lng: 4.8357,
      displayName: 'Lyon, Auvergne-Rhône-Alpes, France',
      country: 'FR',
    },
    'villeurbanne, france': {
      lat: 45.7719,
      lng: 4.8902,
      displayName: 'Villeurbanne, France',
      country: 'FR',
    },
  });
  hub = await startHub(
    testHubConfig(nats, db, {
      PARTITIONS: '4',
      GEOCODER_URL: geo.url,
      GEOCODER_TIMEOUT_MS: '1000',
    }),
    silentLogger
  );
  const acme = await createTenant(hub.sql, { name: 'Acme' });
  const other = await createTenant(hub.sql, { name: 'Other Org', verified: true });
  const add = async (name: string, tenantId: string, extra: Record<string, unknown> = {}) => {
    const created = await createAgent(hub.sql, { tenantId, name, ...extra });
    keys[name] = created.apiKey;
    ids[name] = created.agent.id;
  };
  await add('alice', acme.id, {
    description: 'Books kayak tours',
    category: 'Travel',
    visibility: 'public',
  });
  await add('bob', acme.id, { description: 'Private helper', category: 'Travel' });
  await add('carol', other.id, { description: 'Secret recipes', category: 'Food' });
  await add('dave', other.id, {
    description: 'Public baker',
    category: 'Food',
    visibility: 'public',
  });
  keys.acmeAdmin = (await issueAdminKey(hub.sql, acme.id)).key;
});

afterAll(async () => {
  await hub?.stop();
  await geo?.close();
  await nats?.close();
  await db?.drop();
});

describe('official agents', () => {
  it('appear in the directory with their card, category and tags', async () => {
    // The category keeps out the epa agent, whose card names its source, EPA ECHO.
    const r = await call('GET', '/api/discover/agents?q=ech&category=utilities');
    expect(r.status).toBe(200);
    expect(r.body.agents).toEqual([
      expect.objectContaining({
        id: 'agent-echo-official',
        name: 'Echo',
        category: 'utilities',
        tags: ['echo', 'ping', 'testing', 'latency'],
        tenantName: 'Burrow',
      }),
    ]);
    const detail = await call('GET', '/api/discover/agents/agent-echo-official');
    expect(detail.body.agent).toMatchObject({
      id: 'agent-echo-official',
      agentCard: { name: 'Echo', skills: [{ id: 'echo' }, { id: 'ping' }] },
    });
    const byTag = await call('GET', '/api/discover/agents?skillTag=latency&verified=true');
    expect(agentIds(byTag)).toEqual(['agent-echo-official']);
    const cats = await call('GET', '/api/discover/categories');
    expect(cats.body.categories).toContainEqual({
      name: 'utilities',
      count: officialAgents.filter((a) => a.category === 'utilities').length,
    });
  });
});

describe('search over HTTP', () => {
  it('answers agents, count and offset; a key adds its tenant’s private agents', async () => {
    const anon = await call('GET', '/api/discover/agents?category=travel');
    expect(anon.body).toMatchObject({ count: 1, offset: 0 });
    expect(agentIds(anon)).toEqual([ids.alice]);
    const own = await call('GET', '/api/discover/agents?category=travel&sort=recent', keys.alice);
    expect(agentIds(own).sort()).toEqual([ids.alice, ids.bob].sort());
    const theirs = await call('GET', '/api/discover/agents?category=food', keys.alice);
    expect(agentIds(theirs)).toEqual([ids.dave]);
    const paged = await call(
      'GET',
      '/api/discover/agents?limit=1&offset=1&sort=recent',
      keys.alice
    );
    expect(paged.body).toMatchObject({ offset: 1 });
    expect(agentIds(paged)).toHaveLength(1);
  });

  it('scope=tenant needs a key and returns every agent of the tenant', async () => {
    const none = await call('GET', '/api/discover/agents?scope=tenant');
    expect(none.status).toBe(401);
    const mine = await call('GET', '/api/discover/agents?scope=tenant&limit=1', keys.acmeAdmin);
    expect(agentIds(mine).sort()).toEqual([ids.alice, ids.bob].sort());
    expect(mine.body.count).toBe(2);
  });

  it('refuses bad parameters with 400 naming them, and a bad key with 401', async () => {
    for (const [query, field] of [
      ['limit=51', 'limit'],
      ['offset=-1', 'offset'],
      ['sort=cheapest', 'sort'],
      ['verified=maybe', 'verified'],
      ['country=ZZ', 'country'],
      ['contentMode=pdf', 'contentMode'],
      ['colour=red', 'colour'],
      // PostgreSQL text cannot hold a NUL: a 400, never an internal error.
      ['category=a%00b', 'category'],
      ['tag=%00', 'tag'],
    ] as const) {
      const r = await call('GET', `/api/discover/agents?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMS', details: { field } });
      expect(r.body.error?.message).toContain(field);
    }
    const badKey = await call('GET', '/api/discover/agents', 'bk_' + 'x'.repeat(43));
    expect(badKey.status).toBe(401);
  });
});

describe('detail, statistics and ratings', () => {
  it('computes statistics from the tasks the agent really handled, and sorts by popularity', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await rpc(hub.url, keys.alice, 'SendMessage', {
        message: text(`hello ${i}`),
        configuration: { agentId: 'echo', blocking: true },
      });
      expect((r.result as { status?: { state?: string } }).status?.state).toBe('completed');
    }
    // The task index is written in batches just after each change.
    await until(async () => {
      const d = await call('GET', '/api/discover/agents/agent-echo-official');
      const stats = (d.body.agent as { stats: { totalMessages: number } }).stats;
      return stats.totalMessages === 3;
    });
    const d = await call('GET', '/api/discover/agents/agent-echo-official');
    const stats = (d.body.agent as { stats: Record<string, number> }).stats;
    expect(stats).toMatchObject({ totalMessages: 3, successRate: 1, ratingCount: 0 });
    expect(stats.avgResponseTime).toBeGreaterThanOrEqual(0);
    expect(stats.avgResponseTime).toBeLessThan(10_000);
    const popular = await call('GET', '/api/discover/agents?sort=popular');
    expect(agentIds(popular)[0]).toBe('agent-echo-official');
  });

  it('rates with an agent key: one rating per rater, never its own tenant', async () => {
    const path = `/api/discover/agents/${ids.dave}/rate`;
    expect((await call('POST', path, undefined, { rating: 5 })).status).toBe(401);
    const first = await call('POST', path, keys.alice, { rating: 2, review: 'stale bread' });
    expect(first).toEqual({ status: 200, body: { success: true, avgRating: 2, ratingCount: 1 } });
    const again = await call('POST', path, keys.alice, { rating: 4, review: 'better' });
    expect(again.body).toEqual({ success: true, avgRating: 4, ratingCount: 1 });
    const bob = await call('POST', path, keys.bob, { rating: 5, review: 'great' });
    expect(bob.body).toEqual({ success: true, avgRating: 4.5, ratingCount: 2 });

    const own = await call('POST', path, keys.carol, { rating: 5, review: 'mine' });
    expect([own.status, own.body.error?.code]).toEqual([403, 'FORBIDDEN']);
    const admin = await call('POST', path, keys.acmeAdmin, { rating: 5 });
    expect(admin.status).toBe(403);
    const hidden = await call('POST', `/api/discover/agents/${ids.carol}/rate`, keys.alice, {
      rating: 5,
    });
    expect([hidden.status, hidden.body.error?.code]).toEqual([404, 'NOT_FOUND']);
    const bad = await call('POST', path, keys.alice, { rating: 6 });
    expect([bad.status, bad.body.error?.details?.field]).toEqual([400, 'rating']);

    const detail = await call('GET', `/api/discover/agents/${ids.dave}`);
    expect(detail.body.reviews).toEqual([
      { rating: 5, review: 'great', created_at: expect.any(Number), reviewer_name: 'bob' },
      { rating: 4, review: 'better', created_at: expect.any(Number), reviewer_name: 'alice' },
    ]);
    const sorted = await call('GET', '/api/discover/agents?sort=rating');
    expect(agentIds(sorted)[0]).toBe(ids.dave);
  });

  it('answers 404 for private agents of other tenants on every endpoint', async () => {
    for (const path of [
      `/api/discover/agents/${ids.carol}`,
      `/api/discover/agents/${ids.carol}/locations`,
      '/api/discover/agents/agent-000000000000',
    ]) {
      const r = await call('GET', path, keys.alice);
      expect([r.status, r.body.error?.code], path).toEqual([404, 'NOT_FOUND']);
    }
    expect((await call('GET', `/api/discover/agents/${ids.carol}`, keys.dave)).status).toBe(200);
  });
});

describe('settings, locations and nearby', () => {
  it('geocodes location tags on PATCH and finds the agent nearby', async () => {
    const r = await call('PATCH', `/api/agents/${ids.alice}`, keys.alice, {
      tags: '["kayak","location:Lyon","location:Villeurbanne, France"]',
      description: 'Kayak tours on the Rhône',
      category: 'Outdoors',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      tags: ['kayak', 'location:Lyon', 'location:Villeurbanne, France'],
      category: 'Outdoors',
    });
    const locations = await call('GET', `/api/discover/agents/${ids.alice}/locations`);
    expect(locations.body.locations).toEqual([
      {
        tag: 'location:Lyon',
        lat: 45.764,
        lng: 4.8357,
        displayName: 'Lyon, Auvergne-Rhône-Alpes, France',
        country: 'FR',
        visibility: 'public',
      },
      expect.objectContaining({ tag: 'location:Villeurbanne, France', country: 'FR' }),
    ]);
    const near = await call('GET', '/api/discover/agents/nearby?lat=45.77&lng=4.89&radius=2');
    expect(near.body).toMatchObject({
      center: { lat: 45.77, lng: 4.89 },
      radius: 2,
      count: 1,
      offset: 0,
    });
    expect(near.body.agents).toEqual([
      expect.objectContaining({
        id: ids.alice,
        location: { name: 'Villeurbanne, France', lat: 45.7719, lng: 4.8902, country: 'FR' },
        distance: expect.any(Number),
      }),
    ]);
    const found = await call(
      'GET',
      '/api/discover/agents?q=kayk%20rhone&country=fr&category=outdoors'
    );
    expect(agentIds(found)).toEqual([ids.alice]);
  });

  it('answers 422 naming an address it cannot geocode, and saves nothing', async () => {
    const r = await call('PATCH', `/api/agents/${ids.alice}`, keys.alice, {
      tags: '["location:Atlantis Under The Sea"]',
      visibility: 'private',
    });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({
      code: 'UNPROCESSABLE',
      details: { field: 'tags', tag: 'location:Atlantis Under The Sea' },
    });
    const after = await call('GET', `/api/agents/${ids.alice}`, keys.alice);
    expect(after.body).toMatchObject({
      visibility: 'public',
      tags: ['kayak', 'location:Lyon', 'location:Villeurbanne, France'],
    });
    const bad = await call('PATCH', `/api/agents/${ids.alice}`, keys.alice, {
      visibility: 'everyone',
    });
    expect([bad.status, bad.body.error?.details?.field]).toEqual([400, 'visibility']);
    const nul = await call('PATCH', `/api/agents/${ids.alice}`, keys.alice, {
      description: 'half\u0000way',
    });
    expect([nul.status, nul.body.error?.details?.field]).toEqual([400, 'description']);
  });

  it('validates nearby parameters and never shows private agents of others', async () => {
    for (const [query, field] of [
      ['lng=4', 'lat'],
      ['lat=91&lng=4', 'lat'],
      ['lat=45&lng=4&radius=501', 'radius'],
      ['lat=45&lng=4&limit=0', 'limit'],
    ] as const) {
      const r = await call('GET', `/api/discover/agents/nearby?${query}`);
      expect([r.status, r.body.error?.details?.field], query).toEqual([400, field]);
    }
    await call('PATCH', `/api/agents/${ids.carol}`, keys.carol, { tags: ['location:Lyon'] });
    const anon = await call('GET', '/api/discover/agents/nearby?lat=45.764&lng=4.8357');
    expect(agentIds(anon)).toEqual([ids.alice]);
    const sameTenant = await call(
      'GET',
      '/api/discover/agents/nearby?lat=45.764&lng=4.8357',
      keys.dave
    );
    expect(agentIds(sameTenant).sort()).toEqual([ids.alice, ids.carol].sort());
  });
});

describe('WebSocket agents', () => {
  it("update_card refreshes the agent's directory entry", async () => {
    const ws = await connectWsAgent(hub.url, keys.alice);
    try {
      ws.send({
        type: 'update_card',
        agentCard: {
          name: 'alice',
          description: 'Kayak tours',
          url: 'ws://alice',
          version: '2.0.0',
          capabilities: { streaming: false, pushNotifications: false },
          defaultInputModes: ['text/plain'],
          defaultOutputModes: ['application/geo+json'],
          skills: [{ id: 'book', name: 'Book', description: 'Books a tour', tags: ['paddling'] }],
        },
      });
      await ws.next('card_updated');
      const bySkill = await call(
        'GET',
        '/api/discover/agents?skillTag=paddling&contentMode=application/geo%2Bjson'
      );
      expect(agentIds(bySkill)).toEqual([ids.alice]);
      const detail = await call('GET', `/api/discover/agents/${ids.alice}`);
      expect(detail.body.agent).toMatchObject({ agentCard: { version: '2.0.0' } });
    } finally {
      await ws.close();
    }
  });
});

describe('kept answers', () => {
  // Answers are kept only when read with SQL: this node has no in-memory directory. The file's
  // main hub (with one) is checked for the same freshness below.
  let sqlHub: Hub;
  beforeAll(async () => {
    sqlHub = await startHub(
      testHubConfig(nats, db, {
        PARTITIONS: '4',
        GEOCODER_URL: geo.url,
        DIRECTORY_IN_MEMORY: 'false',
      }),
      silentLogger
    );
  });
  afterAll(async () => {
    await sqlHub?.stop();
  });

  /** GET with the X-Cache header the hub answers with. */
  async function get(
    path: string,
    key?: string,
    headers: Record<string, string> = {},
    on: Hub = sqlHub
  ) {
    const res = await fetch(`${on.url}${path}`, {
      headers: { ...headers, ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) },
    });
    return {
      status: res.status,
      cache: res.headers.get('x-cache'),
      body: (await res.json()) as { agents: Array<{ id: string; avgRating: number }> } & Record<
        string,
        unknown
      >,
    };
  }
  const idsOf = (r: Awaited<ReturnType<typeof get>>) => r.body.agents.map((a) => a.id);

  it('reuses an answer until a directory write commits, through any path', async () => {
    const acme = await createTenant(hub.sql, { name: 'Glass Works' });
    const made = await createAgent(hub.sql, {
      tenantId: acme.id,
      name: 'glazier',
      description: 'Glassblowing workshops',
      visibility: 'public',
    });
    const path = '/api/discover/agents?q=glassblowing';
    const first = await get(path);
    expect([first.cache, idsOf(first)]).toEqual(['miss', [made.agent.id]]);
    const again = await get(path);
    expect([again.cache, again.body]).toEqual(['hit', first.body]);
    // Written straight to the database, as the CLI or another hub node would.
    await hub.sql`update agents set visibility = 'private' where id = ${made.agent.id}`;
    const hidden = await get(path);
    expect([hidden.cache, hidden.body.count, idsOf(hidden)]).toEqual(['miss', 0, []]);
    await hub.sql`update agents set visibility = 'public' where id = ${made.agent.id}`;
    expect(idsOf(await get(path))).toEqual([made.agent.id]);

    // A tenant becoming verified changes the verified filter's answer.
    const verified = `${path}&verified=true`;
    expect((await get(verified)).body.count).toBe(0);
    await hub.sql`update tenants set verified = true where id = ${acme.id}`;
    expect(idsOf(await get(verified))).toEqual([made.agent.id]);

    // A rating changes the agent's figures in the answer.
    const rated = await call('POST', `/api/discover/agents/${made.agent.id}/rate`, keys.dave, {
      rating: 4,
    });
    expect(rated.status).toBe(200);
    expect((await get(path)).body.agents[0]?.avgRating).toBe(4);
  });

  it('answers from the in-memory directory see every committed write, and are not kept', async () => {
    const tenant = await createTenant(hub.sql, { name: 'Stained Glass Co' });
    const made = await createAgent(hub.sql, {
      tenantId: tenant.id,
      name: 'leadlighter',
      description: 'Leadlight restoration',
      visibility: 'public',
    });
    const path = '/api/discover/agents?q=leadlight';
    const memory = (p: string) => get(p, undefined, {}, hub);
    await until(async () => (await memory(path)).body.count === 1);
    const first = await memory(path);
    expect([first.cache, idsOf(first)]).toEqual(['miss', [made.agent.id]]);
    expect((await memory(path)).cache).toBe('miss');
    // Written straight to the database, as the CLI or another hub node would.
    await hub.sql`update agents set visibility = 'private' where id = ${made.agent.id}`;
    expect((await memory(path)).body.count).toBe(0);
    await hub.sql`update agents set visibility = 'public' where id = ${made.agent.id}`;
    expect(idsOf(await memory(path))).toEqual([made.agent.id]);
    await hub.sql`update tenants set verified = true where id = ${tenant.id}`;
    expect(idsOf(await memory(`${path}&verified=true`))).toEqual([made.agent.id]);
    await hub.sql`update agents set rating_avg = 3.5, rating_count = 2 where id = ${made.agent.id}`;
    expect((await memory(path)).body.agents[0]?.avgRating).toBe(3.5);
  });

  it('expands a misspelt word again once the lexicon has new words', async () => {
    // No agent has the word yet: the expansion of the typo finds nothing, and is kept.
    const path = '/api/discover/agents?q=ceramcis';
    const fresh = { 'cache-control': 'no-cache' };
    expect((await get(path, undefined, fresh)).body.count).toBe(0);
    const tenant = await createTenant(hub.sql, { name: 'Clay Studio' });
    const made = await createAgent(hub.sql, {
      tenantId: tenant.id,
      name: 'potter',
      description: 'Ceramics classes',
      visibility: 'public',
    });
    // Read afresh (no kept answer), so only the kept expansion could make this miss the agent.
    expect(idsOf(await get(path, undefined, fresh))).toEqual([made.agent.id]);
  });

  it('reuses nearby answers only until a location moves', async () => {
    const path = '/api/discover/agents/nearby?lat=45.764&lng=4.8357&radius=5';
    const before = await get(path);
    expect((await get(path)).cache).toBe('hit');
    const located = await get(path);
    expect(idsOf(located)).toEqual(idsOf(before));
    await hub.sql`delete from agent_locations where agent_id = ${ids.alice!}`;
    const moved = await get(path);
    expect(moved.cache).toBe('miss');
    expect(idsOf(moved)).not.toContain(ids.alice);
  });

  it("never gives one tenant's answer to another, and reads afresh on Cache-Control: no-cache", async () => {
    const path = '/api/discover/agents?category=travel&sort=recent';
    await hub.sql`update agents set category = 'Travel' where id = ${ids.alice!}`;
    const own = await get(path, keys.alice);
    expect(idsOf(own)).toContain(ids.bob);
    expect((await get(path, keys.alice)).cache).toBe('hit');
    const anon = await get(path);
    expect(anon.cache).toBe('miss');
    expect(idsOf(anon)).not.toContain(ids.bob);
    const other = await get(path, keys.dave);
    expect(other.cache).toBe('miss');
    expect(idsOf(other)).not.toContain(ids.bob);
    const fresh = await get(path, keys.alice, { 'cache-control': 'no-cache' });
    expect([fresh.cache, fresh.body]).toEqual(['miss', own.body]);
  });
});

describe('what hub clients read (issue 20)', () => {
  const found = async (q: string) =>
    agentIds(await call('GET', `/api/discover/agents?q=${encodeURIComponent(q)}`));

  it('finds echo, pixel and kanban by a one-letter typo of each class', async () => {
    const typos: Record<string, string[]> = {
      // substitution, insertion, deletion, swap of neighbours
      'agent-echo-official': ['ecno', 'echoo', 'eho', 'ecoh'],
      'agent-pixel-official': ['pixol', 'pixxel', 'pxel', 'pxiel'],
      'agent-kanban-official': ['kanbam', 'kannban', 'kanbn', 'kanabn'],
    };
    for (const [id, words] of Object.entries(typos)) {
      for (const word of words) expect(await found(word), word).toContain(id);
    }
  });

  it("answers findBestAgent('echo', {pricing: 'free'}) with echo and the fields it reads", async () => {
    const r = await call('GET', '/api/discover/agents?q=echo&pricing=free');
    expect(r.status).toBe(200);
    expect((r.body.agents as unknown[])[0]).toEqual(
      expect.objectContaining({
        id: 'agent-echo-official',
        tenantName: 'Burrow',
        tenantSlug: 'official',
        verified: true,
        featured: false,
        pricing: 'free',
        websiteUrl: null,
        docsUrl: null,
      })
    );
    expect((await call('GET', '/api/discover/agents?q=echo&pricing=paid')).body.count).toBe(0);
    const bad = await call('GET', '/api/discover/agents?pricing=cheap');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ details: { field: 'pricing' } });
    const detail = await call('GET', '/api/discover/agents/agent-echo-official');
    expect(detail.body.agent).toMatchObject({ tenantSlug: 'official', pricing: 'free' });
  });

  it('lists featured agents under the visibility rules of search', async () => {
    const featuredIds = async (key?: string) => {
      const r = await call('GET', '/api/discover/featured', key);
      expect(r.status).toBe(200);
      expect(r.body.count).toBe((r.body.agents as unknown[]).length);
      return agentIds(r).sort();
    };
    expect(await featuredIds()).toEqual([]);
    await setAgentFeatured(hub.sql, 'agent-echo-official', true);
    await setAgentFeatured(hub.sql, ids.bob!, true);
    try {
      expect(await featuredIds()).toEqual(['agent-echo-official']);
      expect(await featuredIds(keys.alice)).toEqual([ids.bob, 'agent-echo-official'].sort());
      expect(await featuredIds(keys.dave)).toEqual(['agent-echo-official']);
      // The in-memory directory follows the mark as any other directory write.
      const [echo] = (await call('GET', '/api/discover/agents?q=echo')).body.agents as Array<{
        featured: boolean;
      }>;
      expect(echo?.featured).toBe(true);
      expect((await call('GET', '/api/discover/featured?limit=5')).status).toBe(400);
    } finally {
      await setAgentFeatured(hub.sql, 'agent-echo-official', false);
      await setAgentFeatured(hub.sql, ids.bob!, false);
    }
  });

  it("shows the links set in the agent's settings before its card's, and refuses others", async () => {
    const dave = async () =>
      (
        (await call('GET', '/api/discover/agents?q=baker')).body.agents as Array<{
          id: string;
          websiteUrl: string | null;
          docsUrl: string | null;
        }>
      ).find((a) => a.id === ids.dave);
    expect(await dave()).toMatchObject({ websiteUrl: null, docsUrl: null });
    const set = await call('PATCH', `/api/agents/${ids.dave}`, keys.dave, {
      websiteUrl: 'https://baker.example.org',
      docsUrl: 'https://baker.example.org/docs',
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      websiteUrl: 'https://baker.example.org',
      docsUrl: 'https://baker.example.org/docs',
    });
    expect(await dave()).toMatchObject({
      websiteUrl: 'https://baker.example.org',
      docsUrl: 'https://baker.example.org/docs',
    });
    for (const [body, field] of [
      [{ websiteUrl: 'javascript:alert(1)' }, 'websiteUrl'],
      [{ docsUrl: 42 }, 'docsUrl'],
      [{ docsUrl: `https://x.org/${'a'.repeat(2048)}` }, 'docsUrl'],
    ] as const) {
      const bad = await call('PATCH', `/api/agents/${ids.dave}`, keys.dave, body);
      expect(bad.status, field).toBe(400);
      expect(bad.body.error).toMatchObject({ details: { field } });
    }
    const cleared = await call('PATCH', `/api/agents/${ids.dave}`, keys.dave, {
      websiteUrl: null,
      docsUrl: null,
    });
    expect(cleared.status).toBe(200);
    expect(await dave()).toMatchObject({ websiteUrl: null, docsUrl: null });
  });
});
