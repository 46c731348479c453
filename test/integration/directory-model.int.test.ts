// The in-memory directory (actors/directory) against the SQL it replaces on the request
// path: on a seeded directory, hundreds of random searches and nearby searches must give exactly
// the SQL's answers (agents, order, count, distances); after writes through every path the
// directory has (agent fields, soft delete, tenant verified and name, locations, ratings, new
// agents) the next answer already reflects them, read as changes rather than a whole reload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDb,
  migrate,
  nearbyAgentsAt,
  searchAgentsAt,
  type Db,
  type DirectorySearch,
  type NearbySearch,
  type Viewer,
} from '../../infra/db/index.js';
import { LiveDirectory } from '../../gateway/discover/index.js';
import { silentLogger } from '../../runtime/log/index.js';
import { CATEGORIES, CITIES, MODES, seedDirectory, typo, WORDS } from '../bench/discover.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';

let tdb: TestDatabase;
let sql: Db;
let live: LiveDirectory;

/** A small deterministic generator, so a failing case replays. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const pick = <T>(r: () => number, list: readonly T[]): T =>
  list[Math.floor(r() * list.length)] as T;
const maybe = <T>(r: () => number, p: number, value: () => T): T | undefined =>
  r() < p ? value() : undefined;

function randomSearch(r: () => number, i: number): { viewer: Viewer; search: DirectorySearch } {
  const viewer: Viewer =
    r() < 0.4 ? {} : { tenantId: `ten-${(1 + (i % 40)).toString(16).padStart(12, '0')}` };
  const tenantOnly = viewer.tenantId !== undefined && r() < 0.1;
  const nWords = r() < 0.15 ? 0 : r() < 0.8 ? 1 : 2;
  const words = Array.from({ length: nWords }, (_, k) => {
    const w = pick(r, WORDS);
    return r() < 0.5 ? typo(w, i + k) : r() < 0.2 ? w.slice(0, 4) : w;
  });
  if (r() < 0.03) words.push('the');
  const search: DirectorySearch = {
    words,
    category: maybe(r, 0.25, () =>
      r() < 0.2 ? pick(r, CATEGORIES).toUpperCase() : pick(r, CATEGORIES)
    ),
    tag: maybe(r, 0.15, () => pick(r, WORDS)),
    skillTag: maybe(r, 0.1, () => pick(r, WORDS)),
    contentMode: maybe(r, 0.2, () =>
      r() < 0.3 ? `${pick(r, MODES).split('/')[0]}/*` : pick(r, MODES)
    ),
    owner: maybe(r, 0.05, () =>
      r() < 0.5 ? `Bench Org ${1 + (i % 60)}` : `bench-org-${1 + (i % 60)}`
    ),
    verified: maybe(r, 0.2, () => r() < 0.5),
    country: maybe(r, 0.1, () => pick(r, CITIES)[2]),
    sort: pick(r, ['relevance', 'relevance', 'rating', 'popular', 'recent'] as const),
    tenantOnly,
    limit: tenantOnly ? undefined : pick(r, [1, 5, 10, 50]),
    offset: pick(r, [0, 0, 0, 3, 10, 400]),
    pricing: maybe(r, 0.03, () => 'paid' as const),
  };
  for (const k of Object.keys(search) as Array<keyof DirectorySearch>) {
    if (search[k] === undefined) delete search[k];
  }
  return { viewer, search };
}

function randomNearby(r: () => number, i: number): { viewer: Viewer; search: NearbySearch } {
  const [lat, lng] = pick(r, CITIES);
  const viewer: Viewer =
    r() < 0.5 ? {} : { tenantId: `ten-${(1 + (i % 40)).toString(16).padStart(12, '0')}` };
  const search: NearbySearch = {
    lat: Math.max(-90, Math.min(90, lat + (r() - 0.5) * 0.6)),
    lng: lng + (r() - 0.5) * 0.6,
    radiusKm: pick(r, [1, 5, 10, 25, 50, 500]),
    limit: pick(r, [1, 20, 50]),
    offset: pick(r, [0, 0, 5, 100, 300]),
  };
  if (r() < 0.15) search.tag = pick(r, WORDS);
  if (r() < 0.15) search.category = pick(r, CATEGORIES);
  return { viewer, search };
}

async function expectParity(seed: number, searches: number, nearby: number): Promise<void> {
  const r = rng(seed);
  for (let i = 0; i < searches; i++) {
    const { viewer, search } = randomSearch(r, i);
    const memory = await live.search(viewer, search);
    const fromSql = await searchAgentsAt(sql, viewer, search);
    expect(memory, JSON.stringify({ viewer, search })).toBeDefined();
    expect(memory?.result, JSON.stringify({ viewer, search })).toEqual(fromSql.result);
  }
  for (let i = 0; i < nearby; i++) {
    const { viewer, search } = randomNearby(r, i);
    const memory = await live.nearby(viewer, search);
    const fromSql = await nearbyAgentsAt(sql, viewer, search);
    expect(memory?.result, JSON.stringify({ viewer, search })).toEqual(fromSql.result);
  }
}

async function loaded(): Promise<void> {
  for (let i = 0; i < 300 && !live.stats().loaded; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(live.stats().loaded).toBe(true);
}

beforeAll(async () => {
  tdb = await createTestDatabase('burrow_dirmodel');
  sql = createDb(tdb.url, { max: 4 });
  await migrate(sql);
  await seedDirectory(sql, 4000);
  // Ratings and usage with ties, so every sort's tie-breaks are exercised.
  await sql`
    update agents set rating_avg = (abs(hashtext(id)) % 9) / 2.0,
      rating_count = abs(hashtext(id || 'n')) % 4, usage_count = abs(hashtext(id || 'u')) % 7
    where id like 'agent-0%'`;
  live = new LiveDirectory(sql, silentLogger, { pruneEveryMs: 0 });
  live.start();
  await loaded();
}, 120_000);

afterAll(async () => {
  live?.close();
  await sql?.end({ timeout: 5 });
  await tdb?.drop();
});

describe('in-memory directory', () => {
  it('answers searches and nearby exactly as the SQL does', async () => {
    expect(live.stats().agents).toBe(4000 + (await officialCount()));
    await expectParity(1, 500, 200);
  }, 120_000);

  it('a write on any path shows in the next answer, read as changes', async () => {
    const before = live.stats();
    const target = 'agent-000000000011';
    await sql`update agents set name = 'Zyzzyva Unique Helper', tags = '["zyzzyva", "location:Paris"]'::jsonb
      where id = ${target}`;
    const renamed = await live.search({}, searchFor(['zyzzyva']));
    expect(renamed?.result.agents.map((a) => a.id)).toEqual([target]);

    // Tenant verified and renamed: every agent of it moves.
    await sql`update tenants set verified = not verified, name = 'Renamed Org'
      where id = 'ten-000000000002'`;
    const owned = await live.search({}, { ...searchFor([]), owner: 'renamed org', limit: 50 });
    const fromSql = await searchAgentsAt(
      sql,
      {},
      { ...searchFor([]), owner: 'renamed org', limit: 50 }
    );
    expect(owned?.result).toEqual(fromSql.result);
    expect(owned?.result.count).toBeGreaterThan(0);

    // Soft delete, a new agent, a moved location, a rating.
    await sql`update agents set deleted_at = now() where id = 'agent-000000000012'`;
    await sql`insert into agents (id, tenant_id, name, description, transport, visibility, category, tags)
      values ('agent-00000000ffff', 'ten-000000000003', 'Quokka Finder', 'finds quokkas', 'websocket',
        'public', 'travel', '["quokka"]'::jsonb)`;
    await sql`update agent_locations set lat = 10, lng = 10, pos = ll_to_earth(10, 10)
      where agent_id = (select agent_id from agent_locations order by agent_id limit 1)`;
    await sql`update agents set rating_avg = 5, rating_count = 99 where id = 'agent-000000000013'`;
    // What clients read beside the search fields: the featured mark and the card's links.
    await sql`update agents set featured = true, visibility = 'public' where id = 'agent-000000000014'`;
    await sql`update agents set card = '{"documentationUrl": "https://docs.example.org/x",
      "provider": {"url": "https://example.org"}}'::jsonb, visibility = 'public' where id = 'agent-000000000015'`;
    const everyone = { ...searchFor([]), limit: undefined, sort: 'recent' as const };
    const all = await live.search({}, everyone);
    expect(all?.result).toEqual((await searchAgentsAt(sql, {}, everyone)).result);
    const byId = new Map(all?.result.agents.map((a) => [a.id, a]));
    expect(byId.get('agent-000000000014')?.featured).toBe(true);
    expect(byId.get('agent-000000000015')).toMatchObject({
      docsUrl: 'https://docs.example.org/x',
      websiteUrl: 'https://example.org',
    });
    const quokka = await live.search({}, searchFor(['quokka']));
    expect(quokka?.result.agents.map((a) => a.id)).toEqual(['agent-00000000ffff']);
    const gone = await live.search({}, { ...searchFor([]), limit: 50, offset: 0 });
    expect(gone?.result.agents.some((a) => a.id === 'agent-000000000012')).toBe(false);

    await expectParity(2, 200, 100);
    const after = live.stats();
    expect(BigInt(after.generation ?? '0')).toBeGreaterThan(BigInt(before.generation ?? '0'));
    expect(after.fullReads).toBe(before.fullReads);
  }, 120_000);

  it('re-ranks agents whose words changed place but not set (name and description swapped)', async () => {
    const before = live.stats();
    // The same lexemes, at other positions and weights: the postings' rank shares must follow.
    await sql`update agents set name = description, description = name
      where id in (select id from agents where id like 'agent-0%' order by id limit 300)`;
    for (const words of [['helps'], ['answers'], ['questions'], ['helps', 'answers']]) {
      const search = { ...searchFor(words), limit: 20 };
      const memory = await live.search({}, search);
      expect(memory?.result, words.join(' ')).toEqual(
        (await searchAgentsAt(sql, {}, search)).result
      );
      expect(memory?.result.count).toBeGreaterThan(100);
    }
    expect(live.stats().fullReads).toBe(before.fullReads);
  }, 120_000);

  it('ranks a few matches of a word every agent holds as the SQL does (galloping the postings)', async () => {
    // `helps` is in every agent's description: narrowed by category and verified to a few dozen
    // matches, its posting is many times longer than they are, and ranking jumps to them.
    let galloped = 0;
    for (const category of CATEGORIES.slice(0, 8)) {
      for (const verified of [true, false]) {
        const search = { ...searchFor(['helps']), category, verified, limit: 20 };
        const memory = await live.search({}, search);
        const fromSql = await searchAgentsAt(sql, {}, search);
        expect(memory?.result, JSON.stringify(search)).toEqual(fromSql.result);
        const count = fromSql.result.count;
        if (count >= 48 && count * 32 < 4000) galloped++;
      }
    }
    expect(galloped).toBeGreaterThan(0);
  }, 120_000);

  it("a viewer's own private agents, among many candidates, are in its answers", async () => {
    // A tenant holding a large share of the directory, a fifth of it private: searches whose
    // candidates are a bitset apply visibility a word at a time, and must keep these agents.
    const tenantId = 'ten-000000000001';
    await sql`update agents set tenant_id = ${tenantId}
      where id like 'agent-0%' and abs(hashtext(id || 'own')) % 3 = 0`;
    const r = rng(3);
    let own = 0;
    for (let i = 0; i < 150; i++) {
      const { search } = randomSearch(r, i);
      const viewer = { tenantId };
      const memory = await live.search(viewer, search);
      const fromSql = await searchAgentsAt(sql, viewer, search);
      expect(memory?.result, JSON.stringify({ viewer, search })).toEqual(fromSql.result);
      if (search.limit === undefined || search.limit >= 10) own += fromSql.result.count;
    }
    expect(own).toBeGreaterThan(0);
    const privateOwn = { ...searchFor([]), limit: undefined, sort: 'recent' as const };
    const mine = await live.search({ tenantId }, privateOwn);
    const others = await live.search({}, privateOwn);
    // The viewer sees its own private agents beside every public one; a stranger does not.
    expect((mine?.result.count ?? 0) - (others?.result.count ?? 0)).toBeGreaterThan(100);
  }, 120_000);

  it('ranks a dense search right after one that matched agents beyond its bitsets', async () => {
    // New agents take slots past the end of bitsets built before them (a value none of them
    // holds keeps its shorter bitset). A dense search over the new agents leaves its matches in
    // the scratch bitset; the next dense search, intersecting a shorter bitset, must not rank
    // those stale bits as its own matches when the postings it walks reach the new slots. The new
    // agents hold `helps` in differing ways, so stale shares would not all be the same.
    const before = live.stats();
    await sql`insert into agents (id, tenant_id, name, description, transport, visibility, category, tags)
      select 'agent-0000000f' || lpad(to_hex(i), 4, '0'), 'ten-000000000003',
        case when i % 3 = 0 then 'Helps Quokka Spotter ' else 'Quokka Spotter ' end || i,
        'Helps with quokka sightings' || repeat(', helps again', i % 4), 'websocket', 'public',
        'energy', '[]'::jsonb
      from generate_series(1, 320) i`;
    const spotters = { ...searchFor(['quokka']), category: 'energy', limit: 5 };
    const fresh = await live.search({}, spotters);
    expect(fresh?.result).toEqual((await searchAgentsAt(sql, {}, spotters)).result);
    expect(fresh?.result.count).toBeGreaterThanOrEqual(320);
    for (const category of ['finance', 'legal', 'health']) {
      const search = { ...searchFor(['helps']), category, limit: 20 };
      const memory = await live.search({}, search);
      const fromSql = await searchAgentsAt(sql, {}, search);
      expect(memory?.result, category).toEqual(fromSql.result);
      expect(fromSql.result.count, category).toBeGreaterThanOrEqual(48);
      // The stale matches again, between the old categories' searches.
      await live.search({}, spotters);
    }
    expect(live.stats().fullReads).toBe(before.fullReads);
  }, 120_000);

  it('a node that missed pruned changes reads the whole directory again', async () => {
    const other = new LiveDirectory(sql, silentLogger, { pruneEveryMs: 0 });
    try {
      other.start();
      for (let i = 0; i < 300 && !other.stats().loaded; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const reads = other.stats().fullReads;
      await sql`update agents set description = 'pruned away' where id = 'agent-000000000016'`;
      await sql`update agents set description = 'pruned away too' where id = 'agent-000000000017'`;
      await sql`delete from directory_changes`;
      // The whole read runs in the background, built in chunks: SQL answers until it is complete.
      expect(await other.search({}, { ...searchFor(['pruned']), limit: 50 })).toBeUndefined();
      for (let i = 0; i < 300 && !other.stats().loaded; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await expectParityOf(other);
      expect(other.stats().fullReads).toBe(reads + 1);
    } finally {
      other.close();
    }
  }, 120_000);
});

function searchFor(words: string[]): DirectorySearch {
  return { words, sort: 'relevance', tenantOnly: false, limit: 10, offset: 0 };
}

async function officialCount(): Promise<number> {
  const [row] = await sql<Array<{ n: number }>>`
    select count(*)::int as n from directory_entries where id not like 'agent-0%'`;
  return row?.n ?? 0;
}

async function expectParityOf(other: LiveDirectory): Promise<void> {
  const search = { ...searchFor(['pruned']), limit: 50 };
  const memory = await other.search({}, search);
  expect(memory?.result).toEqual((await searchAgentsAt(sql, {}, search)).result);
  expect(memory?.result.count).toBe(2);
}
