// `npm run bench`: the benchmarks the issues name, on this machine, printed as a table and saved
// to test/bench/results/*.json. Timing targets are checked here, never in timed tests.
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cpus } from 'node:os';
import { roundTrip } from './round-trip.js';

const out = resolve(import.meta.dirname, 'results');
mkdirSync(out, { recursive: true });
const fmt = (n: number, d = 1) => n.toFixed(d);

const r = await roundTrip();
const rows = [
  ['target', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'errors'],
  [
    'Burrow hub → WS echo agent',
    fmt(r.hub.throughput, 0),
    fmt(r.hub.p50),
    fmt(r.hub.p90),
    fmt(r.hub.p99),
    fmt(r.hub.max),
    String(r.hub.errors),
  ],
  [
    '@a2a-js/sdk express (in-memory)',
    fmt(r.reference.throughput, 0),
    fmt(r.reference.p50),
    fmt(r.reference.p90),
    fmt(r.reference.p99),
    fmt(r.reference.max),
    String(r.reference.errors),
  ],
];
process.stdout.write(
  `\nRound trips, blocking SendMessage, 50 concurrent senders (${cpus().length} cores)\n`
);
for (const row of rows) process.stdout.write(`| ${row.join(' | ')} |\n`);
process.stdout.write(
  `throughput ratio hub/reference: ${fmt(r.ratio, 2)}× (target ≥ 4×, p99 ≤ 25 ms); durable tasks indexed: ${r.durableTasks} of ${r.hub.requests + r.hub.errors}+ sent\n`
);
writeFileSync(
  resolve(out, 'round-trip.json'),
  JSON.stringify({ at: new Date().toISOString(), ...r }, null, 2)
);
