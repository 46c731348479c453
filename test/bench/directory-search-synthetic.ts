// The in-memory directory's search at 100,000 and 1,000,000 agents without seeding them into
// PostgreSQL (issue 31: a million seeded agents cost ~25 minutes of both cores). A small directory
// is seeded for real (BENCH_PROBE_TEMPLATES agents, default 10,000, through the real triggers:
// discover.ts seedDirectory), read as the model reads it, and its rows are cloned into a model of
// each size: every clone gets its own id and its own number in its name (the one digit lexeme of
// its tsvector), so each word, filter value and tenant holds the same share of the agents as in
// the bench's seed. The bench's searches (directory-search-queries.ts) are expanded and folded
// once by that database (directory_query's answers do not depend on the digit lexemes), then the
// model's searchModel is timed alone, both ways in turn on each search: with its bitsets
// ("bitsets") and with the candidate walk they replaced ("walk", setBitsetSearch(false)), whose
// answers must be the same (mismatches). p50/p99 per size and filter pair, and heap per agent.
//   node --expose-gc --import tsx test/bench/directory-search-synthetic.ts
// BENCH_PROBE_SIZES (default 100000,1000000); BENCH_PROBE_SEARCHES (default 400); BENCH_PROBE_PASSES
// (default 4, the first one the JIT's warm-up and not timed; bestOfPassesMs: each search's least
// time over the timed passes, for a machine others are using); BENCH_KEEP_DB=1 keeps the template
// seed for the next run.
import { loadavg } from 'node:os';
import { DirectoryModel } from '../../actors/directory/directory-model.js';
import {
  searchModel,
  setBitsetSearch,
  type ResolvedSearch,
} from '../../actors/directory/model-search.js';
import {
  createDb,
  readDirectoryChunks,
  type DirectoryModelAgentRow,
  type DirectoryModelLocationRow,
  type DirectoryModelTenantRow,
  type DirectoryPage,
} from '../../infra/db/index.js';
import { SEARCH_FILTERS, searchQuery, summary } from './directory-search-queries.js';
import { resolvedSearches } from './resolved-searches.js';
import { seededDirectory } from './seeded-directory.js';

const TEMPLATES = Number(process.env.BENCH_PROBE_TEMPLATES ?? 10_000);
const SIZES = (process.env.BENCH_PROBE_SIZES ?? '100000,1000000').split(',').map(Number);
const SEARCHES = Number(process.env.BENCH_PROBE_SEARCHES ?? 400);
/** Passes over the searches; all but the first (the JIT's warm-up) are timed. */
const PASSES = Math.max(2, Number(process.env.BENCH_PROBE_PASSES ?? 4));

interface Templates {
  tenants: DirectoryModelTenantRow[];
  agents: DirectoryModelAgentRow[];
  locations: Map<string, DirectoryModelLocationRow[]>;
}

const gc = (): void => {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g === undefined) throw new Error('run with node --expose-gc');
  g();
  g();
};

const used = (): number => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/** A flat string of its own (not a slice of, nor the same string as, the template's). */
const own = (s: string): string => Buffer.from(s).toString();

async function prepare(): Promise<{ templates: Templates; searches: ResolvedSearch[] }> {
  const db = await seededDirectory(TEMPLATES);
  process.stderr.write(`template directory of ${TEMPLATES} in ${db.seedSeconds.toFixed(0)} s\n`);
  const sql = createDb(db.url, { max: 2 });
  try {
    const templates: Templates = { tenants: [], agents: [], locations: new Map() };
    await readDirectoryChunks(sql, 2000, (chunk) => {
      templates.tenants.push(...chunk.tenants);
      templates.agents.push(...chunk.agents);
      for (const l of chunk.locations) {
        const list = templates.locations.get(l.agentId) ?? [];
        list.push(l);
        templates.locations.set(l.agentId, list);
      }
      return Promise.resolve();
    });
    const searches = await resolvedSearches(sql, SEARCHES);
    return { templates, searches };
  } finally {
    await sql.end({ timeout: 5 });
    await db.drop();
  }
}

/** Agent `k` (0-based) of a synthetic directory: a clone of a template with its own id and number. */
function cloneRow(t: DirectoryModelAgentRow, k: number): DirectoryModelAgentRow {
  const n = String(k + 1);
  // The seed names agents "<Word> <Word> <i>", and the digits are the vector's first lexeme.
  const tsv = t.tsv.replace(/^'\d+':/, `'${n}':`);
  if (tsv === t.tsv && !t.tsv.startsWith(`'${n}':`)) {
    throw new Error(`template ${t.id} has no number lexeme first: ${t.tsv.slice(0, 40)}`);
  }
  return {
    ...t,
    id: `agent-${(k + 1).toString(16).padStart(12, '0')}`,
    tsv,
    name: t.name.replace(/\d+$/, n),
    description: own(t.description),
    tags: t.tags.map(own),
  };
}

function build(size: number, templates: Templates): DirectoryModel {
  const model = new DirectoryModel();
  model.beginBulk();
  model.reserve(size);
  for (const t of templates.tenants) model.putTenant(t);
  const STEP = 500;
  for (let k = 0; k < size; k += STEP) {
    const rows: DirectoryModelAgentRow[] = [];
    const locations: DirectoryModelLocationRow[] = [];
    for (let j = k; j < Math.min(size, k + STEP); j++) {
      const t = templates.agents[j % templates.agents.length]!;
      const row = cloneRow(t, j);
      rows.push(row);
      for (const l of templates.locations.get(t.id) ?? []) {
        locations.push({ ...l, agentId: row.id });
      }
    }
    model.replaceAgents([], rows, locations);
  }
  // In steps of LiveDirectory's size (FINISH_STEP): the longest is what a slice can overrun by.
  const steps = model.finishBulk(1000);
  for (let done = false; !done;) {
    const t0 = performance.now();
    done = steps.next().done === true;
    longestFinishStepMs = Math.max(longestFinishStepMs, performance.now() - t0);
  }
  return model;
}

let longestFinishStepMs = 0;

const WAYS = ['bitsets', 'walk'] as const;

/** One way's times: every timed pass, each search's least, and by filter pair. */
class Timings {
  private readonly all: number[] = [];
  private readonly best: number[];
  private readonly byFilter: number[][] = SEARCH_FILTERS.map(() => []);

  constructor(searches: number) {
    this.best = Array.from({ length: searches }, () => Infinity);
  }

  add(i: number, ms: number): void {
    this.all.push(ms);
    this.best[i] = Math.min(this.best[i]!, ms);
    this.byFilter[i % SEARCH_FILTERS.length]!.push(ms);
  }

  report() {
    return {
      ms: summary(this.all),
      /** Each search's least time over the timed passes: what a busy machine's turns leave out. */
      bestOfPassesMs: summary(this.best),
      byFilter: this.byFilter.map((xs, f) => ({ filter: SEARCH_FILTERS[f]!(0), ...summary(xs) })),
      slowest: this.best
        .map((ms, i) => ({ query: searchQuery(i), bestMs: +ms.toFixed(3) }))
        .sort((a, b) => b.bestMs - a.bestMs)
        .slice(0, 5),
    };
  }
}

function sameAnswer(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

async function main(): Promise<void> {
  const { templates, searches } = await prepare();
  const report: unknown[] = [];
  for (const size of SIZES) {
    const before = used();
    const t0 = performance.now();
    let model: DirectoryModel | undefined = build(size, templates);
    const buildSeconds = (performance.now() - t0) / 1000;
    const finishStepMs = longestFinishStepMs;
    longestFinishStepMs = 0;
    const bytesPerAgent = (used() - before) / size;
    const matches: number[] = [];
    let mismatches = 0;
    const timed = { bitsets: new Timings(searches.length), walk: new Timings(searches.length) };
    for (let pass = 0; pass < PASSES; pass++) {
      for (let i = 0; i < searches.length; i++) {
        const s = searches[i]!;
        // The two ways in turn, each first on every other pass, so the machine's moods and
        // the caches fall on both alike.
        const pages: Record<string, DirectoryPage> = {};
        for (const way of pass % 2 === 0 ? WAYS : [...WAYS].reverse()) {
          setBitsetSearch(way === 'bitsets');
          const m0 = performance.now();
          pages[way] = searchModel(model, {}, s);
          const ms = performance.now() - m0;
          if (pass > 0) timed[way].add(i, ms);
        }
        setBitsetSearch(true);
        if (pass !== 1) continue;
        matches.push(pages.bitsets!.count);
        if (!sameAnswer(pages.bitsets, pages.walk)) {
          mismatches++;
          process.stderr.write(`differs: ${searchQuery(i)}\n`);
        }
      }
    }
    report.push({
      agents: size,
      buildSeconds: +buildSeconds.toFixed(1),
      bytesPerAgent: Math.round(bytesPerAgent),
      /** The longest step of the whole read's finish (text index, bitsets), wall ms, GC included. */
      longestFinishStepMs: +finishStepMs.toFixed(2),
      searches: searches.length,
      matchesMean: Math.round(matches.reduce((a, b) => a + b, 0) / matches.length),
      mismatches,
      bitsets: timed.bitsets.report(),
      walk: timed.walk.report(),
    });
    model = undefined;
    gc();
  }
  process.stdout.write(
    JSON.stringify({ templates: TEMPLATES, results: report, loadAverage: loadavg() }, null, 2) +
      '\n'
  );
}

await main();
