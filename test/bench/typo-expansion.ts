// The typo look-up of the directory on its own (issue 31): directory_query(words, fuzzy), which
// both the SQL search and the in-memory directory call, timed per misspelt word over a lexicon of
// 100,000 and 1,000,000 words. Each word is timed twice: with the function's settings as the
// migrations leave them, and with `jit` back to the session's (what it was before 0025), and the
// two answers must be the same text. Not part of `npm run bench`; run it by hand:
//
//   npx tsx test/bench/typo-expansion.ts
//
// TYPO_SIZES: lexicon sizes (default 100000,1000000). TYPO_SHAPES: `bench` (what the discover bench
// seeds: each agent's number plus the domain words, so mostly digits) and/or `words` (English-like
// made-up words of 2–4 syllables, whose common trigrams make the trigram index read thousands of
// candidates; default both). TYPO_QUERIES: misspelt words per lexicon (default 60).
// TYPO_DATABASE_URL: an already filled database to time instead (seeding 1,000,000 words and their
// deletions takes minutes); it is migrated, never dropped.
// Measured beside it by hand (2026-11-27, 890,000 made-up words): a GiST gist_trgm_ops index
// instead of the GIN one took 360 ms (default signature) to 450 ms (siglen=256, ordered by `<->`)
// per look-up, against 12-40 ms for GIN: with that many words its signatures saturate and every
// scan reads most of the index.
import { createDb, migrate, type Db } from '../../infra/db/index.js';
import { createTestDatabase, databaseUrl } from '../support/postgres.js';
import { typo, WORDS } from './discover.js';

const SIZES = (process.env.TYPO_SIZES ?? '100000,1000000').split(',').map(Number);
const SHAPES = (process.env.TYPO_SHAPES ?? 'bench,words').split(',');
const QUERIES = Number(process.env.TYPO_QUERIES ?? 60);
const SIGNATURE = 'directory_query(text[], boolean)';

// Common English syllables; 2–4 of them make words that share trigrams the way real words do.
const SYLLABLES =
  `con ter ing tion pro re de com ment al er at in ex per sta tra ble ly ous ive ate ize
ful ness port form act cap mar lan gen vis spec cur dic graph log phon sci struct tract mit pos duc
fer mot rupt scrib tend vert voc bio geo hydr micro tele auto trans inter super sub pre post anti
multi uni tri poly neo cyber data net soft ware hub bot ify ana lyt ic ry or ist ism ence ance ant
ent ab ac ad af ag am an ap ar as au ba be bi bo bu ca ce ci co cu da di do du fa fe fi fo fu ga
ge gi go gu ha he hi ho hu ja jo ka ke ki ko la le li lo lu ma me mi mo mu na ne ni no nu pa pe
pi po pu ra ri ro ru sa se si so su ta te ti to tu va ve vi vo wa we wi wo ya yo za ze zo sh ch
th str spr qu`
    .split(/\s+/)
    .filter(Boolean);

interface Timing {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

interface Row {
  shape: string;
  lexicon: number;
  seedSeconds: number;
  queries: number;
  /** ms per directory_query(array[word], true) call. */
  fuzzy: { before: Timing; after: Timing };
  /** ms per directory_query(array[word], false) call. */
  exact: { before: Timing; after: Timing };
  /** Words whose answer (fuzzy and exact) differed between the two settings: must be 0. */
  differing: string[];
}

/** Fill the lexicon and its deletions set-based, as the triggers would (they are skipped). */
async function seedLexicon(sql: Db, shape: string, size: number): Promise<void> {
  await sql.begin(async (tx) => {
    // The triggers would insert row by row; the same rows in two statements are minutes faster.
    await tx`set local session_replication_role = replica`;
    await tx`select setseed(0.31)`;
    await tx`truncate directory_lexicon, directory_lexicon_deletions`;
    if (shape === 'bench') {
      await tx`insert into directory_lexicon (word)
        select i::text from generate_series(1, ${size}::int) i
        union
        select l from unnest(tsvector_to_array(to_tsvector('english', ${WORDS.join(' ')}))) l`;
    } else {
      // Draws repeat, so more than `size` are drawn and the distinct ones kept.
      await tx`
        with gen as (
          select (select string_agg(s[1 + floor(random() * array_length(s, 1))::int + 0 * g], '')
                  from generate_series(1, 2 + i % 3) g where i > 0) as w
          from generate_series(1, ${Math.ceil(size * 1.6)}::int) i,
               (select ${sql.array(SYLLABLES)}::text[] as s) p
        )
        insert into directory_lexicon (word)
        select w from (select distinct w from gen) d limit ${size}`;
      await tx`insert into directory_lexicon (word)
        select l from unnest(tsvector_to_array(to_tsvector('english', ${WORDS.join(' ')}))) l
        on conflict do nothing`;
    }
    // The statement 0016 backfills with.
    await tx`insert into directory_lexicon_deletions (variant, word, pos)
      select d.variant, x.word, d.pos
      from directory_lexicon x, lateral burrow_word_deletions(x.word) d
      where length(x.word) >= 4
      on conflict do nothing`;
  });
  await sql`vacuum analyze directory_lexicon`;
  await sql`vacuum analyze directory_lexicon_deletions`;
}

/** Lexicon words misspelt the bench's way (one in four left as it is). */
async function misspelt(sql: Db): Promise<string[]> {
  await sql`select setseed(0.17)`;
  const rows = await sql<Array<{ word: string }>>`
    select word from directory_lexicon where word ~ '^[a-z]{5,}$' order by random() limit ${QUERIES}`;
  return rows.map((r, i) => typo(r.word, i));
}

function timing(ms: number[]): Timing {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    p50: round(q(0.5)),
    p90: round(q(0.9)),
    p99: round(q(0.99)),
    max: round(s.at(-1) ?? 0),
    mean: round(s.reduce((a, b) => a + b, 0) / Math.max(1, s.length)),
  };
}

/** Each word's fuzzy and exact answers and how long each call took. */
async function timeWords(sql: Db, words: string[]) {
  const answers: string[] = [];
  const fuzzy: number[] = [];
  const exact: number[] = [];
  for (const w of words) {
    let t = performance.now();
    const [f] = await sql<Array<{ q: string | null }>>`
      select directory_query(${sql.array([w])}::text[], true)::text as q`;
    fuzzy.push(performance.now() - t);
    t = performance.now();
    const [x] = await sql<Array<{ q: string | null }>>`
      select directory_query(${sql.array([w])}::text[], false)::text as q`;
    exact.push(performance.now() - t);
    answers.push(`${f?.q ?? 'null'} / ${x?.q ?? 'null'}`);
  }
  return { answers, fuzzy, exact };
}

async function measure(url: string, shape: string, size: number, seed: boolean): Promise<Row> {
  // One connection: the session (its loaded dictionaries) is the same for every call.
  const sql = createDb(url, { max: 1 });
  try {
    await migrate(sql);
    const t0 = performance.now();
    if (seed) await seedLexicon(sql, shape, size);
    const seedSeconds = (performance.now() - t0) / 1000;
    const [{ n } = { n: 0 }] = await sql<Array<{ n: number }>>`
      select count(*)::int as n from directory_lexicon`;
    const words = await misspelt(sql);
    // Warm up the session's dictionaries (unaccent, snowball) and the lexicon's pages.
    await timeWords(sql, words.slice(0, 5));
    const [{ config } = { config: null }] = await sql<Array<{ config: string[] | null }>>`
      select proconfig as config from pg_proc where oid = ${SIGNATURE}::regprocedure`;
    const jitOff = config?.includes('jit=off') ?? false;
    const after = await timeWords(sql, words);
    // Before 0025: the function ran with the session's jit (on by default).
    await sql.unsafe(`alter function ${SIGNATURE} reset jit`);
    let before: Awaited<ReturnType<typeof timeWords>>;
    try {
      before = await timeWords(sql, words);
    } finally {
      if (jitOff) await sql.unsafe(`alter function ${SIGNATURE} set jit = off`);
    }
    return {
      shape,
      lexicon: n,
      seedSeconds: Math.round(seedSeconds),
      queries: words.length,
      fuzzy: { before: timing(before.fuzzy), after: timing(after.fuzzy) },
      exact: { before: timing(before.exact), after: timing(after.exact) },
      differing: words.filter((_, i) => before.answers[i] !== after.answers[i]),
    };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  const given = process.env.TYPO_DATABASE_URL;
  if (given) {
    rows.push(await measure(given, 'given', 0, false));
  } else {
    for (const shape of SHAPES) {
      for (const size of SIZES) {
        const db = await createTestDatabase('burrow_bench_typo');
        try {
          rows.push(await measure(db.url, shape, size, true));
        } finally {
          await db.drop();
        }
        console.error(JSON.stringify(rows.at(-1)));
      }
    }
  }
  const admin = createDb(given ?? databaseUrl('postgres'), { max: 1 });
  const [{ jit } = { jit: false }] = await admin<Array<{ jit: boolean }>>`
    select pg_jit_available() as jit`;
  await admin.end({ timeout: 5 });
  console.log(JSON.stringify({ jitAvailable: jit, rows }, null, 2));
  if (rows.some((r) => r.differing.length > 0)) process.exitCode = 1;
}

await main();
