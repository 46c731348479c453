// The proof that actors/directory/text-search.ts is PostgreSQL 15 to the bit: seeded-random
// documents built like the directory's search_tsv (0005 agents_directory_fields), queries built by
// the real directory_query and shaped like it, plus negations, weights, duplicate operands and
// awkward lexemes; for every (document, query) pair `@@`, `ts_rank` as float4 widened to float8,
// and the float4 sum of two ranks must equal the JS answers exactly (===).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  parseTsQuery,
  parseTsVector,
  positionsAt,
  tsMatch,
  tsRank,
  type TsQuery,
  type TsVector,
} from '../../actors/directory/text-search.js';
import { createDb, migrate, type Db } from '../../infra/db/index.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';

const SEED = 0x5eed_2024;

let tdb: TestDatabase;
let db: Db;

/** mulberry32: small, fast, and the same sequence on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(SEED);
const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
function pick<T>(list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}
/** Skewed towards the front of the list, so some words repeat many times in one text. */
function pickSkewed<T>(list: readonly T[]): T {
  return list[Math.floor(random() * random() * list.length)]!;
}

// Word families, so that prefixes match several lexemes and stems collide.
const WORDS = `agent agents agency agenda agentic agile translate translation translator translating
  summarize summary summaries summit search searching searcher research weather whether forecast
  forecasting forecaster code coder coding codex codec data database datum date dates dating image
  imaging imagine imaginary email e-mail mail mailer mailing schedule scheduler scheduling calendar
  travel traveler traveling flight flights book booking bookkeeper finance financial invoice
  invoicing account accountant accounting legal lawyer contract contractor health healthy medical
  music musician news newsletter newspaper sport sports shop shopping price pricing map maps mapping
  route routing router geography location locate locator fast faster fastest quick quickly rapid
  helper help helpful tool tools tooling chat chatbot voice video photo photography text textual pdf
  document documents documentation report reporting reporter real-time café naïve zürich 2024 v2
  the a an and or of to in for with on is it's its`
  .split(/\s+/)
  .filter((w) => w !== '');
const PLACES = ['Paris, France', 'New York', 'São Paulo', 'Zürich', 'Berlin'];
const MISSING = ['zzqx', 'agentx', 'qwertyuiop', 'translatorz'];

function words(n: number): string {
  return Array.from({ length: n }, () => pickSkewed(WORDS)).join(' ');
}

interface DocSource {
  id: number;
  name: string;
  tags: string;
  description: string;
  skills: string;
}

function docSource(id: number): DocSource {
  const tags = Array.from({ length: int(0, 4) }, () =>
    random() < 0.2 ? pick(PLACES) : words(int(1, 2))
  );
  // A few long texts push positions past 100 (word_distance's cut-off) and into the thousands.
  const long = random() < 0.1;
  return {
    id,
    name: words(int(1, 3)),
    tags: tags.join(' '),
    description: words(long ? int(400, 2500) : int(0, 120)),
    skills: Array.from(new Set(Array.from({ length: int(0, 5) }, () => pick(WORDS)))).join(' '),
  };
}

// Literal vectors: quotes, backslashes, characters beyond the BMP next to U+E000..U+FFFF (byte
// order differs from UTF-16 order), stripped lexemes, the largest position, and the empty vector.
const LITERAL_VECTORS = [
  String.raw`'it''s':1A,4 'a\\b':2B 'o''neil':3`,
  `'a':1 'a\uE000':2A 'a\u{1F600}':3B 'a\u{1F600}b':4C 'ab':5`,
  `'agent' 'agenda':3A 'agents'`,
  `'agent':16383A 'fast':16383 'tool':16380B,16383C`,
  `'agent' 'fast'`,
  ``,
  `'x':1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20 'y':21A,100,101,102,103B,300`,
];

function quoteTerm(lexeme: string): string {
  return `'${lexeme.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

const WEIGHT_LETTERS = ['A', 'B', 'C', 'D'];

function weightSuffix(prefix: boolean): string {
  const w =
    random() < 0.15
      ? Array.from(new Set([pick(WEIGHT_LETTERS), pick(WEIGHT_LETTERS)])).join('')
      : '';
  return prefix || w !== '' ? `:${prefix ? '*' : ''}${w}` : '';
}

/** A prefix of a lexeme (sometimes the whole lexeme), or a word no document holds. */
function prefixOf(lexicon: readonly string[]): string {
  if (random() < 0.1) return pick(MISSING);
  const lex = pick(lexicon);
  const chars = [...lex];
  return chars.slice(0, Math.min(chars.length, int(2, 8))).join('');
}

function plainTerm(lexicon: readonly string[]): string {
  return random() < 0.15 ? pick(MISSING) : pick(lexicon);
}

/** AND of parenthesized OR groups, each a prefix operand and up to three plain ones. */
function directoryShaped(lexicon: readonly string[], groups: number): string {
  return Array.from({ length: groups }, () => {
    const alts = [quoteTerm(prefixOf(lexicon)) + ':*'];
    for (let i = int(0, 3); i > 0; i--) alts.push(quoteTerm(plainTerm(lexicon)));
    return `(${alts.join(' | ')})`;
  }).join(' & ');
}

/** Random trees of &, | and ! over a small pool, so the same string recurs with and without :*. */
function randomTree(pool: readonly string[], depth: number): string {
  if (depth === 0 || random() < 0.25) {
    const prefix = random() < 0.5;
    return quoteTerm(pick(pool)) + weightSuffix(prefix);
  }
  const node = `( ${randomTree(pool, depth - 1)} ${random() < 0.6 ? '&' : '|'} ${randomTree(pool, depth - 1)} )`;
  return random() < 0.12 ? `!${node}` : node;
}

const HANDWRITTEN = [
  `'agent' & !'agenda'`,
  `!'agent'`,
  `!!'agent' & 'search':*`,
  `!( 'agent' | 'search' )`,
  `'agent':A | 'agent':B & 'search':*C`,
  `'agent':*AB & !'travel':D`,
  `( 'agent':* | 'agenc' ) & ( 'agenc':* | 'agent' )`,
  `'agent':* & 'agent' & 'agent':*`,
  `'agent' & 'agent':* & 'agent'`,
  `'zzqx' & 'qwertyuiop'`,
  `'zzqx' | 'qwertyuiop'`,
  `'agent' & 'zzqx'`,
  String.raw`'it''s' & 'a\\b' | 'o''neil':*`,
  `'a':* & 'a\uE000':*`,
  `'a\u{1F600}':* | 'ab'`,
  `'a\u{1F600}' & 'a'`,
  `'x' & 'y'`,
  `'x' | 'y':A`,
  `'fast' & 'tool' & 'agent'`,
  `!'x' | !'y'`,
];

beforeAll(async () => {
  tdb = await createTestDatabase('burrow_ts_parity');
  db = createDb(tdb.url, { max: 2 });
  await migrate(db);
  await db`create table ts_docs (id int primary key, v tsvector not null)`;
  await db`create table ts_queries (id int primary key, q tsquery not null)`;

  const sources = Array.from({ length: 320 }, (_, i) => docSource(i));
  // The expression of agents_directory_fields, on the same folding function.
  await db`
    insert into ts_docs (id, v)
    select id,
      setweight(to_tsvector('english', burrow_fold(name)), 'A') ||
      setweight(to_tsvector('english', coalesce(burrow_fold(tags), '')), 'B') ||
      setweight(to_tsvector('english', burrow_fold(description)), 'C') ||
      setweight(to_tsvector('english', skills), 'D')
    from jsonb_to_recordset(${JSON.stringify(sources)}::text::jsonb)
      as t(id int, name text, tags text, description text, skills text)`;
  // One text past 16383 words: positions clamp, so several lexemes share the last one.
  await db`
    insert into ts_docs (id, v)
    values (${sources.length}, setweight(to_tsvector('english', ${words(17_000)}), 'C'))`;
  await db`update ts_docs set v = strip(v) where id % 37 = 5`;
  const literals = LITERAL_VECTORS.map((v, i) => ({ id: sources.length + 1 + i, v }));
  await db`
    insert into ts_docs (id, v)
    select id, v::tsvector from jsonb_to_recordset(${JSON.stringify(literals)}::text::jsonb)
      as t(id int, v text)`;

  // directory_query looks misspelt words up in the lexicon the agents trigger would have filled.
  await db`
    insert into directory_lexicon (word)
    select distinct lexeme from ts_docs, unnest(v) on conflict do nothing`;
  const lexicon = (
    await db<Array<{ lexeme: string }>>`
      select distinct lexeme from ts_docs, unnest(v) where id < ${sources.length} order by 1`
  ).map((r) => r.lexeme);

  let id = 0;
  // The real directory_query, fuzzy then exact for the same words (what a search ranks by).
  for (let n = 0; n < 40; n++) {
    const ws = Array.from({ length: int(1, 3) }, () => {
      const w = pick(WORDS);
      // A dropped letter now and then, for the fuzzy alternatives.
      if (w.length < 5 || random() < 0.6) return w;
      const at = int(1, w.length - 2);
      return w.slice(0, at) + w.slice(at + 1);
    });
    for (const fuzzy of [true, false]) {
      const rows = await db`
        insert into ts_queries (id, q)
        select ${id}, q from directory_query(${db.array(ws)}::text[], ${fuzzy}) q
        where q is not null
        returning id`;
      id += rows.length;
    }
  }
  const texts: string[] = [];
  for (let n = 0; n < 70; n++) texts.push(directoryShaped(lexicon, int(1, 4)));
  for (let n = 0; n < 15; n++) texts.push(directoryShaped(lexicon, 1));
  for (let n = 0; n < 15; n++) {
    texts.push(
      random() < 0.5 ? quoteTerm(plainTerm(lexicon)) : `${quoteTerm(prefixOf(lexicon))}:*`
    );
  }
  const pool = ['agent', 'agenc', 'agen', 'search', 'research', 'fast', 'x', 'a', 'a\u{1F600}'];
  for (let n = 0; n < 30; n++) texts.push(randomTree(pool, int(3, 6)));
  texts.push(...HANDWRITTEN);
  const queries = texts.map((q, i) => ({ id: id + i, q }));
  await db`
    insert into ts_queries (id, q)
    select id, q::tsquery from jsonb_to_recordset(${JSON.stringify(queries)}::text::jsonb)
      as t(id int, q text)`;
});

afterAll(async () => {
  await db?.end({ timeout: 5 });
  await tdb?.drop();
});

describe('text-search parity with PostgreSQL 15', () => {
  it('parses every vector as unnest(v) reads it', async () => {
    const docs = await db<Array<{ id: number; v: string }>>`
      select id, v::text as v from ts_docs order by id`;
    const rows = await db<
      Array<{ id: number; lexeme: string; positions: number[] | null; weights: string[] | null }>
    >`
      select d.id, u.lexeme, u.positions, u.weights
      from ts_docs d, unnest(d.v) with ordinality u(lexeme, positions, weights, ord)
      order by d.id, u.ord`;
    const expected = new Map<number, { lexemes: string[]; positions: number[][] }>();
    for (const d of docs) expected.set(d.id, { lexemes: [], positions: [] });
    for (const r of rows) {
      const e = expected.get(r.id)!;
      e.lexemes.push(r.lexeme);
      const code = (w: string) => 'DCBA'.indexOf(w) << 14;
      e.positions.push((r.positions ?? []).map((p, i) => code(r.weights![i]!) | p));
    }
    for (const d of docs) {
      const v = parseTsVector(d.v);
      expect({
        lexemes: v.lexemes,
        positions: v.lexemes.map((_, i) => [...positionsAt(v, i)]),
      }).toEqual(expected.get(d.id));
    }
  });

  it('matches and ranks every (document, query) pair exactly as PostgreSQL does', async () => {
    const started = performance.now();
    const docs = await db<Array<{ id: number; v: string }>>`
      select id, v::text as v from ts_docs order by id`;
    const queries = await db<Array<{ id: number; q: string }>>`
      select id, q::text as q from ts_queries order by id`;
    const results = await db<
      Array<{ doc: number; query: number; match: boolean; rank: number; rankSum: number }>
    >`
      select d.id as doc, q.id as query, d.v @@ q.q as match,
        ts_rank(d.v, q.q)::float8 as rank,
        (ts_rank(d.v, q.q) + ts_rank(d.v, q2.q))::float8 as rank_sum
      from ts_docs d
      cross join ts_queries q
      join ts_queries q2 on q2.id = (q.id + 1) % ${queries.length}
      order by d.id, q.id`;
    const sqlMs = performance.now() - started;

    const jsStarted = performance.now();
    const vectors = new Map<number, TsVector>();
    for (const d of docs) vectors.set(d.id, parseTsVector(d.v));
    const parsed = new Map<number, TsQuery>();
    for (const q of queries) {
      const tq = parseTsQuery(q.q);
      expect(tq, q.q).not.toBeNull();
      parsed.set(q.id, tq!);
    }
    const mismatches: string[] = [];
    let matched = 0;
    for (const r of results) {
      const v = vectors.get(r.doc)!;
      const q = parsed.get(r.query)!;
      const q2 = parsed.get((r.query + 1) % queries.length)!;
      const match = tsMatch(v, q);
      const rank = tsRank(v, q);
      const rankSum = Math.fround(rank + tsRank(v, q2));
      if (match) matched++;
      if (match !== r.match || rank !== r.rank || rankSum !== r.rankSum) {
        mismatches.push(
          `doc ${r.doc} query ${r.query} ${queries[r.query]!.q}: pg ${r.match} ${r.rank} ${r.rankSum}` +
            ` js ${match} ${rank} ${rankSum}`
        );
      }
    }
    const jsMs = performance.now() - jsStarted;
    console.log(
      `text-search parity: ${results.length} pairs (${docs.length} documents × ${queries.length}` +
        ` queries, ${matched} matching), SQL ${sqlMs.toFixed(0)} ms, JS ${jsMs.toFixed(0)} ms`
    );
    expect(mismatches.slice(0, 20)).toEqual([]);
    expect(results.length).toBe(docs.length * queries.length);
    expect(results.length).toBeGreaterThan(50_000);
    // Enough of each path to mean something: matches, non-matches, AND pairs that never met.
    expect(matched).toBeGreaterThan(2_000);
    expect(results.filter((r) => r.rank === Math.fround(1e-20)).length).toBeGreaterThan(100);
  });

  it('leaves phrase queries to PostgreSQL', async () => {
    const [row] = await db<Array<{ a: string; b: string }>>`
      select 'a <-> b'::tsquery::text as a, to_tsquery('simple', 'x & (y <2> z)')::text as b`;
    expect(parseTsQuery(row!.a)).toBeNull();
    expect(parseTsQuery(row!.b)).toBeNull();
  });
});
