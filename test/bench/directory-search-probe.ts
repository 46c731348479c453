// Where a directory search's time goes, in one process and without HTTP (issue 31): the bench's
// searches (discover.ts: a misspelt word and two filters) against a loaded LiveDirectory, each
// timed in its parts: PostgreSQL's typo expansion (directory_query, as the first request for some
// words waits for it), the model's own search with that expansion, and encoding the answer.
//   BENCH_DIRECTORY_DB=<url> node --import tsx test/bench/directory-search-probe.ts
// BENCH_PROBE_SEARCHES sets how many (default 400). Without a seeded database of that size,
// directory-search-synthetic.ts times the model alone at 100,000 and 1,000,000 agents.
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { LiveDirectory } from '../../actors/directory/index.js';
import type { DirectoryModel } from '../../actors/directory/directory-model.js';
import { searchModel } from '../../actors/directory/model-search.js';
import { createDb } from '../../infra/db/index.js';
import { silentLogger } from '../../runtime/log/index.js';
import { SEARCH_FILTERS as filters, summary } from './directory-search-queries.js';
import { resolveSearch } from './resolved-searches.js';

async function main(): Promise<void> {
  const url = process.env.BENCH_DIRECTORY_DB;
  if (url === undefined) throw new Error('BENCH_DIRECTORY_DB must name the seeded database');
  const n = Number(process.env.BENCH_PROBE_SEARCHES ?? 400);
  const sql = createDb(url, { max: 2 });
  const live = new LiveDirectory(sql, silentLogger, { pruneEveryMs: 0 });
  try {
    const t0 = performance.now();
    live.start();
    while (!live.stats().loaded) await sleep(20);
    process.stderr.write(`loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    const model = (live as unknown as { model: DirectoryModel }).model;
    const expansion: number[] = [];
    const modelMs: number[] = [];
    const encode: number[] = [];
    const matches: number[] = [];
    const liveFirst: number[] = [];
    const liveAgain: number[] = [];
    /** Model time by filter pair (the bench rotates over five). */
    const byFilter: number[][] = filters.map(() => []);
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < n; i++) {
        const { resolved, expansionMs } = await resolveSearch(sql, i);
        const { search } = resolved;
        const m0 = performance.now();
        const page = searchModel(model, {}, resolved);
        const m1 = performance.now();
        JSON.stringify(page);
        const m2 = performance.now();
        const l0 = performance.now();
        await live.search({}, search);
        const l1 = performance.now();
        await live.search({}, search);
        const l2 = performance.now();
        // The first pass warms the JIT and PostgreSQL's caches: the second is reported.
        if (pass === 0) continue;
        expansion.push(expansionMs);
        modelMs.push(m1 - m0);
        byFilter[i % filters.length]!.push(m1 - m0);
        encode.push(m2 - m1);
        matches.push(page.count);
        liveFirst.push(l1 - l0);
        liveAgain.push(l2 - l1);
      }
    }
    const report = {
      agents: live.stats().agents,
      searches: n,
      matchesMean: Math.round(matches.reduce((a, b) => a + b, 0) / matches.length),
      expansionMs: summary(expansion),
      modelSearchMs: summary(modelMs),
      modelSearchMsByFilter: byFilter.map((xs, f) => ({ filter: filters[f]!(0), ...summary(xs) })),
      encodeMs: summary(encode),
      liveSearchMs: summary(liveFirst),
      liveSearchRepeatedMs: summary(liveAgain),
      loadAverage: loadavg(),
    };
    process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  } finally {
    live.close();
    await sql.end({ timeout: 5 });
  }
}

await main();
