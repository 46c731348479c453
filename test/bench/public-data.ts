// The public-data agents' own costs (issue 21): a trials search through a running hub when the
// answer must come from the upstream (a loopback ClinicalTrials.gov fixture: bucket take, fetch,
// cache write) and when the cluster-wide PostgreSQL cache holds it, beside the echo agent's round
// trip through the same hub (the floor of any official-agent call); then the cache and bucket
// statements alone. Run: node --import tsx test/bench/public-data.ts [requests, default 40]
import { performance } from 'node:perf_hooks';
import { createDb, migrate } from '../../infra/db/index.js';
import { readCached, takeToken, writeCached } from '../../agents/kit/public-data/store.js';
import { startFakeClinicalTrials } from '../support/fake-clinicaltrials.js';
import { ask, startAgentHub } from '../support/official-agents.js';
import { createTestDatabase } from '../support/postgres.js';

const N = Number(process.argv[2] ?? 40);

function summary(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!.toFixed(2);
  return `p50 ${q(0.5)} ms · p90 ${q(0.9)} ms · max ${s.at(-1)!.toFixed(2)} ms (n=${s.length})`;
}

async function timed(f: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

const ct = await startFakeClinicalTrials();
const h = await startAgentHub({
  TRIALS_URL: `${ct.origin}/api/v2`,
  TRIALS_REQUESTS_PER_MINUTE: '600000',
});
try {
  const key = (await h.agent(await h.tenant('bench'), 'bench')).key;
  const terms = Array.from({ length: N }, (_, i) => `melanoma ${i}`);
  const check = async (body: Record<string, unknown>) => {
    const a = await ask(h.url, key, 'trials', body);
    if (a.state !== 'completed') throw new Error(a.statusText);
  };
  for (let i = 0; i < 5; i++) await ask(h.url, key, 'echo', 'warm up');
  await check({ skill: 'search', query: 'warm up' });
  const echo: number[] = [];
  for (let i = 0; i < N; i++) echo.push(await timed(() => ask(h.url, key, 'echo', `hello ${i}`)));
  const miss: number[] = [];
  for (const t of terms) miss.push(await timed(() => check({ skill: 'search', query: t })));
  const hit: number[] = [];
  for (const t of terms) hit.push(await timed(() => check({ skill: 'search', query: t })));
  console.log(`echo round trip          ${summary(echo)}`);
  console.log(`trials, upstream (miss)  ${summary(miss)}`);
  console.log(`trials, cache hit        ${summary(hit)}`);
} finally {
  await h.close();
  await ct.close();
}

const tdb = await createTestDatabase();
const sql = createDb(tdb.url, { max: 2 });
try {
  await migrate(sql);
  const body = JSON.stringify({ studies: Array.from({ length: 20 }, (_, i) => ({ nctId: i })) });
  const at = new Date();
  const each = async (label: string, f: (i: number) => Promise<unknown>) => {
    const ms: number[] = [];
    for (let i = 0; i < 200; i++) ms.push(await timed(() => f(i)));
    console.log(`${label.padEnd(24)} ${summary(ms)}`);
  };
  await each('takeToken', () => takeToken(sql, 'bench', { rate: 1e6, capacity: 1e6 }));
  await each('writeCached', (i) =>
    writeCached(sql, { key: `k${i}`, source: 'S', body, retrievedAt: at, ttlMs: 60_000 })
  );
  await each('readCached (hit)', (i) => readCached(sql, `k${i}`));
} finally {
  await sql.end();
  await tdb.drop();
}
