// What existing hub clients read from the directory (issue 20 points 3 and 4), against real
// PostgreSQL: every one-letter typo of a name of four letters or more finds the agent, the
// listing fields clients read (tenantSlug, verified, featured, pricing, websiteUrl, docsUrl), the
// featured list under search's visibility rules, and the pricing filter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAgent,
  createDb,
  createTenant,
  getAgentDetail,
  listFeaturedAt,
  migrate,
  searchAgents,
  setAgentFeatured,
  softDeleteAgent,
  updateAgentCard,
  type Db,
  type DirectorySearch,
  type Viewer,
} from '../../infra/db/index.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';

let tdb: TestDatabase;
let db: Db;
const A: Record<string, string> = {};
let acme = '';
const anon: Viewer = {};

const search = (over: Partial<DirectorySearch> = {}): DirectorySearch => ({
  words: [],
  sort: 'rating',
  tenantOnly: false,
  limit: 50,
  offset: 0,
  ...over,
});
const ids = (page: { agents: Array<{ id: string }> }) => page.agents.map((a) => a.id);

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Every one-letter typo of `word`, by class: substitution, insertion, deletion, neighbour swap. */
function oneLetterTypos(word: string): Record<string, string[]> {
  const out: Record<string, Set<string>> = {
    substitution: new Set(),
    insertion: new Set(),
    deletion: new Set(),
    swap: new Set(),
  };
  for (let i = 0; i <= word.length; i++) {
    for (const c of LETTERS) {
      if (i < word.length && c !== word[i]) {
        out.substitution!.add(word.slice(0, i) + c + word.slice(i + 1));
      }
      out.insertion!.add(word.slice(0, i) + c + word.slice(i));
    }
    if (i < word.length) out.deletion!.add(word.slice(0, i) + word.slice(i + 1));
    if (i + 1 < word.length && word[i] !== word[i + 1]) {
      out.swap!.add(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
    }
  }
  for (const set of Object.values(out)) set.delete(word);
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, [...v]]));
}

beforeAll(async () => {
  tdb = await createTestDatabase('burrow_discover_clients');
  db = createDb(tdb.url, { max: 4 });
  await migrate(db);
  acme = (await createTenant(db, { name: 'Acme Tools', verified: true })).id;
  const globex = (await createTenant(db, { name: 'Globex' })).id;
  const make = async (key: string, tenantId: string, name: string, extra: object = {}) => {
    const created = await createAgent(db, {
      tenantId,
      name,
      description: '',
      visibility: 'public',
      tags: [],
      ...extra,
    });
    A[key] = created.agent.id;
  };
  await make('echo', acme, 'Echo', {
    card: {
      name: 'Echo',
      description: 'Repeats',
      url: 'http://127.0.0.1:1/a2a',
      version: '1',
      capabilities: {},
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
      documentationUrl: 'https://docs.example.org/echo',
      provider: { organization: 'Acme', url: 'https://acme.example.org' },
    },
  });
  await make('pixel', globex, 'Pixel');
  await make('kanban', globex, 'Kanban');
  // Decoys one or two edits from the names, and a private agent for the visibility rules.
  await make('ethos', globex, 'Ethos');
  await make('pixies', globex, 'Pixies');
  await make('secret', acme, 'Secret Echo', { visibility: 'private' });
}, 60_000);

afterAll(async () => {
  await db?.end({ timeout: 5 });
  await tdb?.drop();
});

describe('typo tolerance for short names', () => {
  it.each(['echo', 'pixel', 'kanban'])(
    'finds %s by every one-letter typo of each class',
    async (name) => {
      const missed: string[] = [];
      for (const [kind, typos] of Object.entries(oneLetterTypos(name))) {
        for (const typo of typos) {
          const page = await searchAgents(db, anon, search({ words: [typo], sort: 'relevance' }));
          if (!ids(page).includes(A[name]!)) missed.push(`${kind}:${typo}`);
        }
      }
      expect(missed).toEqual([]);
    },
    120_000
  );

  it('keeps to one edit: two-letter typos of a short name find nothing', async () => {
    for (const typo of ['ohce', 'exhi', 'kbnaan']) {
      const page = await searchAgents(db, anon, search({ words: [typo] }));
      expect(ids(page), typo).toEqual([]);
    }
  });

  it('adds the edits to the query with trigram neighbours, each word once', async () => {
    const [row] = await db<Array<{ q: string }>>`
      select directory_query(array['ecoh'], true)::text as q`;
    expect(row?.q).toBe(`'ecoh':* | 'echo'`);
    const [exact] = await db<Array<{ q: string }>>`
      select directory_query(array['ecoh'], false)::text as q`;
    expect(exact?.q).toBe(`'ecoh':*`);
  });

  // Issue 31: its estimate passes the JIT thresholds at a million lexicon words, and compiling
  // cost 0.3-1 s per call. A later CREATE OR REPLACE of the function drops its SET clauses unless
  // it restates them, which this catches.
  it('runs directory_query without JIT, and with the trigram index forced', async () => {
    const [row] = await db<Array<{ config: string[] }>>`
      select proconfig as config from pg_proc
      where oid = 'directory_query(text[], boolean)'::regprocedure`;
    expect(row?.config).toEqual(expect.arrayContaining(['jit=off', 'enable_seqscan=off']));
  });

  it("runs every statement of the hub's connections without JIT", async () => {
    const [row] = await db<Array<{ jit: string }>>`show jit`;
    expect(row?.jit).toBe('off');
  });
});

describe('the fields clients read', () => {
  it('lists tenantSlug, verified, featured, pricing and the card links (null when unknown)', async () => {
    const [echo] = (await searchAgents(db, anon, search({ words: ['echo'], sort: 'relevance' })))
      .agents;
    expect(echo).toMatchObject({
      id: A.echo,
      tenantName: 'Acme Tools',
      tenantSlug: 'acme-tools',
      verified: true,
      featured: false,
      pricing: 'free',
      websiteUrl: 'https://acme.example.org',
      docsUrl: 'https://docs.example.org/echo',
    });
    const [pixel] = (await searchAgents(db, anon, search({ words: ['pixel'], sort: 'relevance' })))
      .agents;
    expect(pixel).toMatchObject({
      tenantSlug: 'globex',
      verified: false,
      websiteUrl: null,
      docsUrl: null,
    });
    const detail = await getAgentDetail(db, anon, A.echo!);
    expect(detail?.agent).toMatchObject({ tenantSlug: 'acme-tools', docsUrl: expect.any(String) });
  });

  it('passes on http(s) links only', async () => {
    await updateAgentCard(db, A.kanban!, {
      name: 'Kanban',
      description: 'Boards',
      url: 'http://127.0.0.1:1/a2a',
      version: '1',
      capabilities: {},
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
      documentationUrl: 'javascript:alert(1)',
      provider: { organization: 'Globex', url: 42 },
    });
    const [kanban] = (
      await searchAgents(db, anon, search({ words: ['kanban'], sort: 'relevance' }))
    ).agents;
    expect(kanban).toMatchObject({ websiteUrl: null, docsUrl: null });
  });

  it('matches every agent with pricing free (no filter) and none with paid', async () => {
    expect(ids(await searchAgents(db, anon, search({ words: ['echo'] })))).toContain(A.echo);
    expect((await searchAgents(db, anon, search({ words: ['echo'], pricing: 'paid' }))).count).toBe(
      0
    );
  });
});

describe('featured agents', () => {
  it('lists the marked agents under the visibility rules of search, and forgets unmarked ones', async () => {
    expect((await listFeaturedAt(db, anon)).result).toEqual([]);
    expect(await setAgentFeatured(db, A.echo!, true)).toBe(true);
    expect(await setAgentFeatured(db, A.secret!, true)).toBe(true);
    const before = (await listFeaturedAt(db, anon)).generation;
    expect((await listFeaturedAt(db, anon)).result.map((a) => a.id)).toEqual([A.echo]);
    const own = (await listFeaturedAt(db, { tenantId: acme })).result.map((a) => a.id);
    expect(own.sort()).toEqual([A.echo, A.secret].sort());
    const [echo] = (await searchAgents(db, anon, search({ words: ['echo'], sort: 'relevance' })))
      .agents;
    expect(echo?.featured).toBe(true);

    await setAgentFeatured(db, A.echo!, false);
    const after = await listFeaturedAt(db, anon);
    expect(after.result).toEqual([]);
    // The mark is a directory write: answers kept at the old generation are not served again.
    expect(BigInt(after.generation)).toBeGreaterThan(BigInt(before));
    await softDeleteAgent(db, A.secret!);
    expect(await setAgentFeatured(db, A.secret!, true)).toBe(false);
    expect((await listFeaturedAt(db, { tenantId: acme })).result).toEqual([]);
  });
});
