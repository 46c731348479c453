// Two built hub trees compared the way a CPU claim on this machine needs: round-trip-cost.ts run
// for each tree in turn, AB then BA, so that drift and the slot in a pair weigh on both alike,
// with the pairs and their medians printed. One run of a build against itself differs by up to 10%,
// and about one run in five is an outlier of +15-20% (fifteenth session), so a single pair, or
// pairs in one order only, say little; medians over both orders say more.
// `node --import tsx test/bench/round-trip-pairs.ts <tree A> <tree B>` (each tree built:
// `npm run build` there; ROUND_TRIP_PAIRS, default 3 per order; BENCH_HUB_NODE_ARGS and the other
// round-trip-cost.ts variables pass through).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const ENTRY = 'dist/infra/bin/hub.js';

interface Run {
  cpu: number;
  /** The benchmark database's PostgreSQL backends, ms per round trip. */
  pg: number;
  throughput: number;
  p99: number;
}

function runOnce(tree: string): Run {
  const out = execFileSync('node', ['--import', 'tsx', 'test/bench/round-trip-cost.ts'], {
    cwd: ROOT,
    env: { ...process.env, BENCH_HUB_TREE: tree, BENCH_HUB_ENTRY: ENTRY },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    maxBuffer: 16 << 20,
  });
  const r = JSON.parse(out.slice(out.indexOf('{'))) as {
    hubCpuMsPerRoundTrip: number;
    postgresBackendsCpuMsPerRoundTrip: number;
    throughput: number;
    p99: number;
  };
  return {
    cpu: r.hubCpuMsPerRoundTrip,
    pg: r.postgresBackendsCpuMsPerRoundTrip,
    throughput: r.throughput,
    p99: r.p99,
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function main(): void {
  const trees = process.argv.slice(2, 4).map((t) => resolve(t));
  if (trees.length !== 2) {
    process.stderr.write('usage: round-trip-pairs.ts <tree A> <tree B>\n');
    process.exit(2);
  }
  for (const t of trees) {
    if (!existsSync(join(t, ENTRY))) {
      process.stderr.write(`${t} has no ${ENTRY}: run npm run build there first\n`);
      process.exit(2);
    }
  }
  const [a, b] = trees as [string, string];
  const perOrder = Number(process.env.ROUND_TRIP_PAIRS ?? 3);
  const runs: { a: Run[]; b: Run[] } = { a: [], b: [] };
  let bLower = 0;
  const one = (r: Run) =>
    `${r.cpu.toFixed(3)} ms (pg ${r.pg.toFixed(3)}) ${Math.round(r.throughput)}/s p99 ${r.p99.toFixed(1)}`;
  const line = (order: string, i: number, ra: Run, rb: Run) =>
    `${order} ${i + 1}: A ${one(ra)} | B ${one(rb)}\n`;
  for (const order of ['AB', 'BA'] as const) {
    for (let i = 0; i < perOrder; i++) {
      const first = runOnce(order === 'AB' ? a : b);
      const second = runOnce(order === 'AB' ? b : a);
      const [ra, rb] = order === 'AB' ? [first, second] : [second, first];
      runs.a.push(ra);
      runs.b.push(rb);
      if (rb.cpu < ra.cpu) bLower++;
      process.stdout.write(line(order, i, ra, rb));
    }
  }
  const cpuA = median(runs.a.map((r) => r.cpu));
  const cpuB = median(runs.b.map((r) => r.cpu));
  const pgA = median(runs.a.map((r) => r.pg));
  const pgB = median(runs.b.map((r) => r.pg));
  const thrA = median(runs.a.map((r) => r.throughput));
  const thrB = median(runs.b.map((r) => r.throughput));
  process.stdout.write(
    `A ${a}\nB ${b}\n` +
      `median hub CPU per round trip: A ${cpuA.toFixed(3)} ms, B ${cpuB.toFixed(3)} ms ` +
      `(B/A ${(cpuB / cpuA).toFixed(3)}); B lower in ${bLower} of ${runs.a.length} pairs\n` +
      `median PostgreSQL backends' CPU per round trip: A ${pgA.toFixed(3)} ms, ` +
      `B ${pgB.toFixed(3)} ms (B/A ${(pgB / pgA).toFixed(3)})\n` +
      `median round trips/s: A ${Math.round(thrA)}, B ${Math.round(thrB)} ` +
      `(B/A ${(thrB / thrA).toFixed(3)})\n`
  );
}

main();
