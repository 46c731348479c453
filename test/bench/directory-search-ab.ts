// Two builds of the in-memory directory timed against each other on the same seeded directory
// (issue 31): each build's own DirectoryModel is loaded with the kept bench seed, and the bench's
// searches run through each build's searchModel in turn, the two alternating which goes first,
// for AB_ROUNDS rounds. The answers must be the same (`differ` counts those that are not); the
// report is p50 and mean per filter pair and per build, and the ratio B / A.
// The builds go under the checkout (dist-ab/ is ignored), where node_modules and the package's
// module type are found:
//   d=$PWD; git worktree add /tmp/a <commit> && (cd /tmp/a && npx tsc -p tsconfig.build.json --outDir "$d/dist-ab/A")
//   npx tsc -p tsconfig.build.json --outDir dist-ab/B
//   node --expose-gc --max-old-space-size=6000 --import tsx test/bench/directory-search-ab.ts dist-ab/A dist-ab/B
// AB_AGENTS: the kept seed's size (default 100000; seeded on first use, test/bench/seeded-directory.ts);
// AB_SEARCHES (default 400); AB_ROUNDS (default 6; the first is the JIT's warm-up, not timed).
// The two models' chunks are put in turn, so neither sits in memory the other has left behind:
// timed apart, a model loaded second was measured up to 2.8 times slower than the first.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadavg } from 'node:os';
import type * as ModelModule from '../../actors/directory/directory-model.js';
import type * as SearchModule from '../../actors/directory/model-search.js';
import { createDb, readDirectoryChunks, type DirectoryPage } from '../../infra/db/index.js';
import { databaseUrl } from '../support/postgres.js';
import { SEARCH_FILTERS, summary } from './directory-search-queries.js';
import { resolvedSearches } from './resolved-searches.js';
import { keptSeed } from './seeded-directory.js';

const AGENTS = Number(process.env.AB_AGENTS ?? 100_000);
const SEARCHES = Number(process.env.AB_SEARCHES ?? 400);
const ROUNDS = Math.max(2, Number(process.env.AB_ROUNDS ?? 6));

interface Build {
  readonly name: string;
  readonly model: ModelModule.DirectoryModel;
  readonly search: typeof SearchModule.searchModel;
  /** Times by filter pair. */
  readonly times: number[][];
}

async function loadBuild(dir: string): Promise<Omit<Build, 'name' | 'times'>> {
  const at = (file: string) => pathToFileURL(resolve(dir, 'actors/directory', file)).href;
  const { DirectoryModel } = (await import(at('directory-model.js'))) as typeof ModelModule;
  const { searchModel } = (await import(at('model-search.js'))) as typeof SearchModule;
  return { model: new DirectoryModel(), search: searchModel };
}

async function main(): Promise<void> {
  const dirs = process.argv.slice(2);
  if (dirs.length !== 2) throw new Error('usage: directory-search-ab.ts <build A> <build B>');
  const builds: Build[] = [];
  for (const [i, dir] of dirs.entries()) {
    builds.push({ name: 'AB'[i]!, ...(await loadBuild(dir)), times: SEARCH_FILTERS.map(() => []) });
  }
  const seed = await keptSeed(AGENTS);
  const sql = createDb(databaseUrl(seed.name), { max: 2 });
  try {
    const t0 = performance.now();
    for (const b of builds) b.model.beginBulk();
    let turn = 0;
    await readDirectoryChunks(
      sql,
      2000,
      (chunk) => {
        for (const b of turn++ % 2 === 0 ? builds : [...builds].reverse()) {
          for (const t of chunk.tenants) b.model.putTenant(t);
          b.model.replaceAgents([], chunk.agents, []);
          b.model.replaceAgents([], [], chunk.locations);
        }
        return Promise.resolve();
      },
      (agents) => {
        for (const b of builds) b.model.reserve(agents);
      }
    );
    for (const b of builds) for (const _ of b.model.finishBulk(1_000_000));
    process.stderr.write(`both loaded in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
    const searches = await resolvedSearches(sql, SEARCHES);
    let differ = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < searches.length; i++) {
        const s = searches[i]!;
        const pages: DirectoryPage[] = [];
        const order = (round + i) % 2 === 0 ? builds : [...builds].reverse();
        for (const b of order) {
          const m0 = performance.now();
          const page = b.search(b.model, {}, s);
          const ms = performance.now() - m0;
          if (round > 0) b.times[i % SEARCH_FILTERS.length]!.push(ms);
          pages.push(page);
        }
        if (round === 0 && JSON.stringify(pages[0]) !== JSON.stringify(pages[1])) differ++;
      }
    }
    const [a, b] = builds as [Build, Build];
    const byFilter = SEARCH_FILTERS.map((f, k) => {
      const sa = summary(a.times[k]!);
      const sb = summary(b.times[k]!);
      return {
        filter: f(0),
        A: { p50: sa.p50, mean: sa.mean },
        B: { p50: sb.p50, mean: sb.mean },
        meanRatio: +(sb.mean / sa.mean).toFixed(3),
      };
    });
    const total = (x: Build) => x.times.flat().reduce((s, v) => s + v, 0);
    process.stdout.write(
      JSON.stringify(
        {
          agents: AGENTS,
          builds: { A: dirs[0], B: dirs[1] },
          searches: searches.length,
          rounds: ROUNDS - 1,
          differ,
          byFilter,
          totalRatio: +(total(b) / total(a)).toFixed(3),
          loadAverage: loadavg(),
        },
        null,
        2
      ) + '\n'
    );
  } finally {
    await sql.end({ timeout: 5 });
  }
}

await main();
