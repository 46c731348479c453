// The directory's queries against real PostgreSQL with a seeded set of agents: every search
// parameter alone and combined, typo tolerance, sorting, paging boundaries, tenant scope,
// categories, detail statistics from real task rows, ratings, nearby ordering and radius edges
// (against a haversine computed here), and locations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAgent,
  createDb,
  createTenant,
  EARTH_RADIUS_KM,
  getAgentDetail,
  listAgentLocations,
  listCategories,
  migrate,
  nearbyAgents,
  rateAgent,
  refreshAgentUsage,
  searchAgents,
  softDeleteAgent,
  updateAgentCard,
  updateAgentSettings,
  type Db,
  type DirectorySearch,
  type Viewer,
} from '../../infra/db/index.js';
import { HubError } from '../../runtime/errors/index.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';

let tdb: TestDatabase;
let db: Db;

const T: Record<string, string> = {};
const A: Record<string, string> = {};
const anon: Viewer = {};
const asAcme = (): Viewer => ({ tenantId: T.acme! });
const asGlobex = (): Viewer => ({ tenantId: T.globex! });

function card(opts: { skillTags?: string[]; input?: string[]; output?: string[] } = {}) {
  return {
    name: 'x',
    description: 'x',
    url: 'http://127.0.0.1:1/a2a',
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: opts.input ?? ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 's1',
        name: 'Skill',
        description: 'd',
        tags: opts.skillTags ?? [],
        examples: [],
        ...(opts.output ? { outputModes: opts.output } : {}),
      },
    ],
  };
}

const search = (over: Partial<DirectorySearch> = {}): DirectorySearch => ({
  words: [],
  sort: 'rating',
  tenantOnly: false,
  limit: 50,
  offset: 0,
  ...over,
});

const ids = (page: { agents: Array<{ id: string }> }) => page.agents.map((a) => a.id);

/** Great-circle distance on the mean-radius sphere, computed independently of the database. */
function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(h));
}

/** The point `km` due north of (lat, lng) on the same sphere. */
const north = (lat: number, km: number) => lat + (km / EARTH_RADIUS_KM) * (180 / Math.PI);

async function agent(
  key: string,
  tenant: string,
  fields: {
    name: string;
    description?: string;
    category?: string;
    tags?: string[];
    visibility?: 'public' | 'private';
    card?: unknown;
  }
): Promise<void> {
  const created = await createAgent(db, {
    tenantId: T[tenant]!,
    name: fields.name,
    description: fields.description ?? '',
    visibility: fields.visibility ?? 'public',
    ...(fields.category !== undefined ? { category: fields.category } : {}),
    tags: fields.tags ?? [],
    ...(fields.card !== undefined ? { card: fields.card } : {}),
  });
  A[key] = created.agent.id;
}

async function task(
  recipient: string,
  sender: string,
  state: string,
  createdAt: Date,
  durationMs: number
): Promise<void> {
  const id = `task-${Math.random().toString(16).slice(2)}`;
  await db`
    insert into tasks (id, context_id, sender_id, recipient_id, sender_tenant_id,
      recipient_tenant_id, state, rev, created_at, updated_at, task)
    values (${id}, ${'ctx-' + id}, ${A[sender]!}, ${A[recipient]!}, 'ten-x', 'ten-y', ${state}, 1,
      ${createdAt}, ${new Date(createdAt.getTime() + durationMs)}, '{}'::jsonb)`;
}

beforeAll(async () => {
  tdb = await createTestDatabase('burrow_discover');
  db = createDb(tdb.url, { max: 4 });
  await migrate(db);
  T.acme = (await createTenant(db, { name: 'Acme Weather', verified: true })).id;
  T.globex = (await createTenant(db, { name: 'Globex', verified: false })).id;
  T.initech = (await createTenant(db, { name: 'Initech', verified: true })).id;

  await agent('forecaster', 'acme', {
    name: 'Weather Forecaster',
    description: 'Hourly forecasts, rain radar and storm alerts for any city.',
    category: 'Weather',
    tags: ['weather', 'forecast', 'location:Paris, France'],
    card: card({ skillTags: ['radar', 'alerts'], input: ['text/plain'], output: ['image/png'] }),
  });
  await agent('translator', 'globex', {
    name: 'Polyglot',
    description: 'Translates documents between forty languages.',
    category: 'Language',
    tags: ['translation', 'documents'],
    card: card({ skillTags: ['translate'], input: ['application/pdf', 'text/plain'] }),
  });
  await agent('climate', 'initech', {
    name: 'Climate Archive',
    description: 'Historical weather records and climate statistics.',
    category: 'weather',
    tags: ['climate', 'history'],
    card: card({ skillTags: ['statistics'], input: ['text/csv'] }),
  });
  await agent('secret', 'acme', {
    name: 'Internal Weather Desk',
    description: 'Private weather desk of Acme.',
    category: 'Weather',
    tags: ['weather'],
    visibility: 'private',
  });
  await agent('globexSecret', 'globex', {
    name: 'Globex Weather Ops',
    description: 'Private weather operations.',
    category: 'Operations',
    tags: ['weather'],
    visibility: 'private',
  });
  await agent('pixels', 'globex', {
    name: 'Pixel Painter',
    description: 'Draws pictures from a prompt.',
    category: 'Media',
    tags: ['images', 'art'],
    card: card({ skillTags: ['drawing'], output: ['image/jpeg'] }),
  });
  await agent('gone', 'initech', {
    name: 'Deleted Weather Bot',
    description: 'weather',
    category: 'Weather',
    tags: ['weather'],
  });
  await softDeleteAgent(db, A.gone!);
}, 60_000);

afterAll(async () => {
  await db?.end({ timeout: 5 });
  await tdb?.drop();
});

describe('search: text query', () => {
  it('matches words of the name, description and tags, ranking a name match first', async () => {
    const page = await searchAgents(db, anon, search({ words: ['weather'], sort: 'relevance' }));
    expect(ids(page)).toEqual([A.forecaster, A.climate]);
    expect(page.count).toBe(2);
    const byTag = await searchAgents(db, anon, search({ words: ['documents'] }));
    expect(ids(byTag)).toEqual([A.translator]);
    const byDescription = await searchAgents(db, anon, search({ words: ['radar'] }));
    expect(ids(byDescription)).toEqual([A.forecaster]);
  });

  it('tolerates typos, and matches word prefixes', async () => {
    for (const typo of ['wether', 'weahter', 'forcast', 'tarnslates', 'climat', 'Wéather']) {
      const page = await searchAgents(db, anon, search({ words: [typo], sort: 'relevance' }));
      expect(page.count, typo).toBeGreaterThan(0);
    }
    expect(ids(await searchAgents(db, anon, search({ words: ['tarnslates'] })))).toEqual([
      A.translator,
    ]);
    expect(ids(await searchAgents(db, anon, search({ words: ['polyg'] })))).toEqual([A.translator]);
    // Every word must match (after correction).
    expect(ids(await searchAgents(db, anon, search({ words: ['wether', 'storm'] })))).toEqual([
      A.forecaster,
    ]);
    expect((await searchAgents(db, anon, search({ words: ['zzqxv'] }))).count).toBe(0);
  });

  it('finds a location tag by its address', async () => {
    expect(ids(await searchAgents(db, anon, search({ words: ['paris'] })))).toEqual([A.forecaster]);
  });
});

describe('search: filters, alone and combined', () => {
  it('filters by category, case-insensitively', async () => {
    const page = await searchAgents(db, anon, search({ category: 'WEATHER', sort: 'recent' }));
    expect(ids(page).sort()).toEqual([A.forecaster, A.climate].sort());
  });

  it('filters by top-level tag and by skill tag, which are different lists', async () => {
    expect(ids(await searchAgents(db, anon, search({ tag: 'Forecast' })))).toEqual([A.forecaster]);
    expect((await searchAgents(db, anon, search({ tag: 'radar' }))).count).toBe(0);
    expect(ids(await searchAgents(db, anon, search({ skillTag: 'radar' })))).toEqual([
      A.forecaster,
    ]);
  });

  it('filters by an input or output media type of the card or its skills, or a family', async () => {
    expect(ids(await searchAgents(db, anon, search({ contentMode: 'application/pdf' })))).toEqual([
      A.translator,
    ]);
    expect(ids(await searchAgents(db, anon, search({ contentMode: 'image/png' })))).toEqual([
      A.forecaster,
    ]);
    const images = await searchAgents(db, anon, search({ contentMode: 'image/*' }));
    expect(ids(images).sort()).toEqual([A.forecaster, A.pixels].sort());
  });

  it('filters by owner (tenant name or slug) and by verified organizations', async () => {
    const byName = await searchAgents(db, anon, search({ owner: 'acme weather' }));
    expect(ids(byName)).toEqual([A.forecaster]);
    expect(ids(await searchAgents(db, anon, search({ owner: 'acme-weather' })))).toEqual([
      A.forecaster,
    ]);
    const verified = await searchAgents(db, anon, search({ verified: true }));
    expect(ids(verified).sort()).toEqual([A.forecaster, A.climate].sort());
    const unverified = await searchAgents(db, anon, search({ verified: false }));
    expect(ids(unverified).sort()).toEqual([A.translator, A.pixels].sort());
    expect((await searchAgents(db, anon, search({ owner: 'nobody' }))).count).toBe(0);
  });

  it('follows a tenant that becomes verified, and back', async () => {
    await db`update tenants set verified = true where id = ${T.globex!}`;
    const now = await searchAgents(db, anon, search({ verified: true, owner: 'Globex' }));
    expect(ids(now).sort()).toEqual([A.translator, A.pixels].sort());
    await db`update tenants set verified = false where id = ${T.globex!}`;
    expect((await searchAgents(db, anon, search({ verified: true, owner: 'globex' }))).count).toBe(
      0
    );
  });

  it('combines a text query with several filters', async () => {
    const page = await searchAgents(
      db,
      anon,
      search({ words: ['wether'], category: 'weather', verified: true, skillTag: 'statistics' })
    );
    expect(ids(page)).toEqual([A.climate]);
    const none = await searchAgents(
      db,
      anon,
      search({ words: ['wether'], contentMode: 'application/pdf' })
    );
    expect(none.count).toBe(0);
  });

  it('answers each agent with the spec fields', async () => {
    const [first] = (await searchAgents(db, anon, search({ tag: 'forecast' }))).agents;
    expect(first).toEqual({
      id: A.forecaster,
      name: 'Weather Forecaster',
      description: 'Hourly forecasts, rain radar and storm alerts for any city.',
      category: 'Weather',
      tags: ['weather', 'forecast', 'location:Paris, France'],
      avgRating: 0,
      ratingCount: 0,
      tenantName: 'Acme Weather',
      tenantSlug: 'acme-weather',
      verified: true,
      featured: false,
      pricing: 'free',
      websiteUrl: null,
      docsUrl: null,
    });
  });

  it('refreshes the derived fields when the card changes', async () => {
    await updateAgentCard(db, A.pixels!, card({ skillTags: ['sketching'] }));
    expect(ids(await searchAgents(db, anon, search({ skillTag: 'sketching' })))).toEqual([
      A.pixels,
    ]);
    expect((await searchAgents(db, anon, search({ skillTag: 'drawing' }))).count).toBe(0);
    await updateAgentCard(db, A.pixels!, card({ skillTags: ['drawing'], output: ['image/jpeg'] }));
  });
});

describe('search: visibility and tenant scope', () => {
  it('shows anonymous callers public agents only, never deleted ones', async () => {
    const page = await searchAgents(db, anon, search({ tag: 'weather' }));
    expect(ids(page)).toEqual([A.forecaster]);
  });

  it("adds the caller's own private agents, never another tenant's", async () => {
    const acme = await searchAgents(db, asAcme(), search({ tag: 'weather' }));
    expect(ids(acme).sort()).toEqual([A.forecaster, A.secret].sort());
    const globex = await searchAgents(db, asGlobex(), search({ tag: 'weather' }));
    expect(ids(globex).sort()).toEqual([A.forecaster, A.globexSecret].sort());
  });

  it("scope=tenant returns every agent of the caller's tenant and nothing else", async () => {
    const page = await searchAgents(
      db,
      asGlobex(),
      search({ tenantOnly: true, limit: undefined, sort: 'recent' })
    );
    expect(ids(page).sort()).toEqual([A.translator, A.globexSecret, A.pixels].sort());
    expect(page.count).toBe(3);
  });
});

describe('search: sorting and paging', () => {
  it('sorts by rating, by popularity (tasks received) and by creation date', async () => {
    await rateAgent(db, {
      agentId: A.translator!,
      raterAgentId: A.forecaster!,
      raterTenantId: T.acme!,
      rating: 5,
      review: 'great',
    });
    await rateAgent(db, {
      agentId: A.climate!,
      raterAgentId: A.forecaster!,
      raterTenantId: T.acme!,
      rating: 3,
      review: 'ok',
    });
    const rated = await searchAgents(db, anon, search({ sort: 'rating' }));
    expect(ids(rated).slice(0, 2)).toEqual([A.translator, A.climate]);

    const now = Date.now();
    for (let i = 0; i < 3; i++) await task('pixels', 'forecaster', 'completed', new Date(now), 10);
    await task('climate', 'forecaster', 'completed', new Date(now), 10);
    expect(await refreshAgentUsage(db, 60_000)).toBe(true);
    // Fresh counts: a second call within the age does nothing.
    expect(await refreshAgentUsage(db, 60_000)).toBe(false);
    const popular = await searchAgents(db, anon, search({ sort: 'popular' }));
    expect(ids(popular).slice(0, 2)).toEqual([A.pixels, A.climate]);

    const recent = await searchAgents(db, anon, search({ sort: 'recent' }));
    expect(ids(recent)).toEqual([A.pixels, A.climate, A.translator, A.forecaster]);
  });

  it('pages without overlap, counts all matches, and keeps the count past the end', async () => {
    const all = await searchAgents(db, anon, search({ sort: 'recent' }));
    expect(all.count).toBe(4);
    const pages: string[] = [];
    for (let offset = 0; offset < 4; offset += 3) {
      const page = await searchAgents(db, anon, search({ sort: 'recent', limit: 3, offset }));
      expect(page.count).toBe(4);
      pages.push(...ids(page));
    }
    expect(pages).toEqual(ids(all));
    const last = await searchAgents(db, anon, search({ sort: 'recent', limit: 3, offset: 3 }));
    expect(ids(last)).toEqual([A.forecaster]);
    const past = await searchAgents(db, anon, search({ sort: 'recent', limit: 3, offset: 4 }));
    expect(past).toEqual({ agents: [], count: 4 });
    const far = await searchAgents(
      db,
      asAcme(),
      search({ words: ['weather'], limit: 1, offset: 99 })
    );
    expect(far).toEqual({ agents: [], count: 3 });
    const one = await searchAgents(db, anon, search({ sort: 'recent', limit: 1 }));
    expect(one.agents).toHaveLength(1);
  });
});

describe('categories', () => {
  it('counts visible agents per category, merging case variants', async () => {
    expect(await listCategories(db, anon)).toEqual([
      { name: 'Weather', count: 2 },
      { name: 'Language', count: 1 },
      { name: 'Media', count: 1 },
    ]);
    const acme = await listCategories(db, asAcme());
    expect(acme[0]).toEqual({ name: 'Weather', count: 3 });
    expect(acme.map((c) => c.name)).not.toContain('Operations');
  });
});

describe('detail and ratings', () => {
  it('computes the statistics from the tasks the agent received', async () => {
    const at = new Date(Date.now() - 60_000);
    await task('translator', 'pixels', 'completed', at, 200);
    await task('translator', 'pixels', 'completed', at, 400);
    await task('translator', 'pixels', 'failed', at, 50);
    await task('translator', 'pixels', 'canceled', at, 50);
    await task('translator', 'pixels', 'working', at, 50);
    const detail = await getAgentDetail(db, anon, A.translator!);
    expect(detail?.agent).toMatchObject({
      id: A.translator,
      name: 'Polyglot',
      agentCard: card({ skillTags: ['translate'], input: ['application/pdf', 'text/plain'] }),
      stats: {
        avgRating: 5,
        ratingCount: 1,
        totalMessages: 5,
        successRate: 2 / 3,
        avgResponseTime: 300,
      },
    });
    const quiet = await getAgentDetail(db, anon, A.forecaster!);
    expect(quiet?.agent.stats).toEqual({
      avgRating: 0,
      ratingCount: 0,
      totalMessages: 0,
      successRate: 0,
      avgResponseTime: 0,
    });
  });

  it('lists reviews newest first with the reviewer and Unix seconds', async () => {
    const before = Math.floor(Date.now() / 1000);
    await rateAgent(db, {
      agentId: A.translator!,
      raterAgentId: A.climate!,
      raterTenantId: T.initech!,
      rating: 2,
      review: '  slow  ',
    });
    const detail = await getAgentDetail(db, anon, A.translator!);
    expect(detail?.reviews).toEqual([
      {
        rating: 2,
        review: 'slow',
        created_at: expect.any(Number),
        reviewer_name: 'Climate Archive',
      },
      {
        rating: 5,
        review: 'great',
        created_at: expect.any(Number),
        reviewer_name: 'Weather Forecaster',
      },
    ]);
    expect(detail!.reviews[0]!.created_at).toBeGreaterThanOrEqual(before - 1);
    expect(detail!.reviews[0]!.created_at).toBeLessThan(before + 60);
    expect(detail?.agent.stats).toMatchObject({ avgRating: 3.5, ratingCount: 2 });
  });

  it('replaces a rater’s earlier rating instead of adding one', async () => {
    const r = await rateAgent(db, {
      agentId: A.translator!,
      raterAgentId: A.climate!,
      raterTenantId: T.initech!,
      rating: 4,
      review: 'better now',
    });
    expect(r).toEqual({ avgRating: 4.5, ratingCount: 2 });
    const detail = await getAgentDetail(db, anon, A.translator!);
    expect(detail?.reviews.map((x) => x.review)).toEqual(['better now', 'great']);
  });

  it("refuses the rater's own tenant (403), invisible agents (404) and bad values (400)", async () => {
    const code = async (p: Promise<unknown>) => {
      try {
        await p;
      } catch (err) {
        if (err instanceof HubError) return [err.code, err.httpStatus, err.data];
        throw err;
      }
      return 'resolved';
    };
    const base = { raterAgentId: A.forecaster!, raterTenantId: T.acme!, review: '' };
    expect(await code(rateAgent(db, { ...base, agentId: A.secret!, rating: 5 }))).toEqual([
      'FORBIDDEN',
      403,
      { agentId: A.secret },
    ]);
    expect((await code(rateAgent(db, { ...base, agentId: A.globexSecret!, rating: 5 })))[0]).toBe(
      'NOT_FOUND'
    );
    expect((await code(rateAgent(db, { ...base, agentId: A.gone!, rating: 5 })))[0]).toBe(
      'NOT_FOUND'
    );
    for (const rating of [0, 6, 2.5]) {
      expect(await code(rateAgent(db, { ...base, agentId: A.pixels!, rating }))).toEqual([
        'INVALID_PARAMS',
        400,
        { field: 'rating' },
      ]);
    }
    const long = { ...base, agentId: A.pixels!, rating: 3, review: 'x'.repeat(2001) };
    expect((await code(rateAgent(db, long)))[2]).toEqual({ field: 'review' });
    expect((await getAgentDetail(db, anon, A.pixels!))?.agent.stats.ratingCount).toBe(0);
  });

  it('hides private agents of other tenants and deleted agents', async () => {
    expect(await getAgentDetail(db, anon, A.secret!)).toBeNull();
    expect(await getAgentDetail(db, asGlobex(), A.secret!)).toBeNull();
    expect((await getAgentDetail(db, asAcme(), A.secret!))?.agent.id).toBe(A.secret);
    expect(await getAgentDetail(db, anon, A.gone!)).toBeNull();
    expect(await getAgentDetail(db, anon, 'agent-000000000000')).toBeNull();
  });
});

describe('nearby and locations', () => {
  const centre = { lat: 48.8566, lng: 2.3522 };
  const loc = (tag: string, lat: number, lng: number, country = 'FR') => ({
    tag,
    lat,
    lng,
    displayName: tag.slice('location:'.length),
    country,
  });

  beforeAll(async () => {
    // Distances due north of the centre: 2, 9.99 and 10.01 km; plus a far second location.
    const set = async (key: string, locations: ReturnType<typeof loc>[], tags: string[]) =>
      updateAgentSettings(db, A[key]!, { tags, locations });
    await set(
      'forecaster',
      [loc('location:Paris, France', north(centre.lat, 2), centre.lng)],
      ['weather', 'forecast', 'location:Paris, France']
    );
    await set(
      'translator',
      [
        loc('location:Berlin', 52.52, 13.405, 'DE'),
        loc('location:Near Paris', north(centre.lat, 9.99), centre.lng),
      ],
      ['translation', 'documents', 'location:Berlin', 'location:Near Paris']
    );
    await set(
      'pixels',
      [loc('location:Just Outside', north(centre.lat, 10.01), centre.lng)],
      ['images', 'art', 'location:Just Outside']
    );
    await set(
      'secret',
      [loc('location:Acme HQ', north(centre.lat, 1), centre.lng)],
      ['weather', 'location:Acme HQ']
    );
  });

  it('orders by distance, agrees with a haversine, and keeps each agent once', async () => {
    const found = await nearbyAgents(db, anon, { ...centre, radiusKm: 10, limit: 20, offset: 0 });
    expect(found.agents.map((a) => a.id)).toEqual([A.forecaster, A.translator]);
    expect(found.count).toBe(2);
    for (const a of found.agents) {
      const expected = haversineKm(centre.lat, centre.lng, a.location.lat, a.location.lng);
      expect(a.distance).toBeCloseTo(expected, 3);
    }
    expect(found.agents[1]).toMatchObject({
      id: A.translator,
      location: { name: 'Near Paris', country: 'FR' },
      tenantName: 'Globex',
    });
    expect(found.agents[0]!.distance).toBeCloseTo(2, 2);
    expect(found.agents[1]!.distance).toBeCloseTo(9.99, 2);
  });

  it('includes a location exactly at the radius edge once the radius reaches it', async () => {
    const edge = haversineKm(centre.lat, centre.lng, north(centre.lat, 10.01), centre.lng);
    const inside = await nearbyAgents(db, anon, {
      ...centre,
      radiusKm: edge + 0.0005,
      limit: 20,
      offset: 0,
    });
    expect(inside.agents.map((a) => a.id)).toContain(A.pixels);
    const outside = await nearbyAgents(db, anon, {
      ...centre,
      radiusKm: edge - 0.0005,
      limit: 20,
      offset: 0,
    });
    expect(outside.agents.map((a) => a.id)).not.toContain(A.pixels);
  });

  it('uses the nearest of an agent’s locations, and reaches far ones with a large radius', async () => {
    const berlin = await nearbyAgents(db, anon, {
      lat: 52.52,
      lng: 13.405,
      radiusKm: 500,
      limit: 20,
      offset: 0,
    });
    expect(berlin.agents.map((a) => a.id)).toEqual([A.translator]);
    expect(berlin.agents[0]!.location.name).toBe('Berlin');
    expect(berlin.agents[0]!.distance).toBeCloseTo(0, 3);
  });

  it('filters by tag and category, pages, and shows private agents only to their tenant', async () => {
    const q = { ...centre, radiusKm: 20, limit: 20, offset: 0 };
    expect((await nearbyAgents(db, anon, { ...q, tag: 'art' })).agents.map((a) => a.id)).toEqual([
      A.pixels,
    ]);
    expect(
      (await nearbyAgents(db, anon, { ...q, category: 'LANGUAGE' })).agents.map((a) => a.id)
    ).toEqual([A.translator]);
    const acme = await nearbyAgents(db, asAcme(), q);
    expect(acme.agents.map((a) => a.id)).toEqual([A.secret, A.forecaster, A.translator, A.pixels]);
    const page = await nearbyAgents(db, asAcme(), { ...q, limit: 2, offset: 2 });
    expect(page.agents.map((a) => a.id)).toEqual([A.translator, A.pixels]);
    expect(page.count).toBe(4);
    expect(await nearbyAgents(db, asAcme(), { ...q, limit: 2, offset: 10 })).toEqual({
      agents: [],
      count: 4,
    });
  });

  it('searches by country', async () => {
    const de = await searchAgents(db, anon, search({ country: 'DE' }));
    expect(ids(de)).toEqual([A.translator]);
    const fr = await searchAgents(db, anon, search({ country: 'FR', sort: 'recent' }));
    expect(ids(fr)).toEqual([A.pixels, A.translator, A.forecaster]);
    const frPrivate = await searchAgents(db, asAcme(), search({ country: 'FR', sort: 'recent' }));
    expect(ids(frPrivate)).toContain(A.secret);
  });

  it('lists every location of an agent in tag order, and hides invisible agents', async () => {
    expect(await listAgentLocations(db, anon, A.translator!)).toEqual([
      {
        tag: 'location:Berlin',
        lat: 52.52,
        lng: 13.405,
        displayName: 'Berlin',
        country: 'DE',
        visibility: 'public',
      },
      expect.objectContaining({ tag: 'location:Near Paris', country: 'FR' }),
    ]);
    expect(await listAgentLocations(db, anon, A.climate!)).toEqual([]);
    expect(await listAgentLocations(db, anon, A.secret!)).toBeNull();
    expect(await listAgentLocations(db, asAcme(), A.secret!)).toEqual([
      expect.objectContaining({ tag: 'location:Acme HQ', visibility: 'private' }),
    ]);
  });

  it('drops locations whose tag goes when tags are set without geocoding', async () => {
    await updateAgentSettings(db, A.translator!, { tags: ['translation', 'location:Berlin'] });
    const left = await listAgentLocations(db, anon, A.translator!);
    expect(left?.map((l) => l.tag)).toEqual(['location:Berlin']);
  });
});
