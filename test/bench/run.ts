// `npm run bench`: the benchmarks the issues name, on this machine, printed as a table and saved
// to test/bench/results/*.json. Timing targets are checked here, never in timed tests.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cpus } from 'node:os';
import { roundTrip } from './round-trip.js';
import { queueBench } from './queue.js';
import { discoverBench } from './discover.js';

const out = resolve(import.meta.dirname, 'results');
mkdirSync(out, { recursive: true });
const fmt = (n: number, d = 1) => n.toFixed(d);

// BENCH_ONLY=round-trip|queue|discover|pixel|nodes|floor runs one of them.
const only = process.env.BENCH_ONLY;
if (!only || only === 'round-trip') await roundTripReport();
if (!only || only === 'queue') await queueReport();
if (!only || only === 'discover') await discoverReport();
if (!only || only === 'pixel') await (await import('./pixel.js')).pixelReport();
if (!only || only === 'nodes') await nodesReport();
if (!only || only === 'floor') await floorReport();

// After round-trip: it sets the per-message floors against that run's reference throughput.
async function floorReport() {
  const f = await (await import('./floor.js')).floorBench();
  const us = (r: { micros: number }) => fmt(r.micros, 1);
  const rate = (r: { perSecond: number }) => fmt(r.perSecond, 0);
  const lines = [
    `\nPer-message floors, each measured alone (${f.cores} cores)`,
    '| operation | µs each | per second |',
    `| Ed25519 signature, node:crypto, 220 bytes (one core) | ${us(f.rawSign)} | ${rate(f.rawSign)} |`,
    `| x-hub envelope: canonical JSON + signature (one core) | ${us(f.envelopeSign)} | ${rate(f.envelopeSign)} |`,
    `| task actor: created, working, completed (one core) | ${us(f.taskActor)} | ${rate(f.taskActor)} |`,
    `| JetStream publish + ack, 1 KiB, 1,000 in flight (wall) | ${us(f.jetstreamPublish)} | ${rate(f.jetstreamPublish)} |`,
    `| JetStream delete by sequence, 100 in flight (wall) | ${us(f.jetstreamDelete)} | ${rate(f.jetstreamDelete)} |`,
  ];
  const perRoundTrip = f.envelopeSign.micros + f.taskActor.micros;
  const rt = resolve(out, 'round-trip.json');
  if (existsSync(rt)) {
    const run = JSON.parse(readFileSync(rt, 'utf8')) as {
      reference: { throughput: number };
      hub: { clientMicrosPerRequest?: number };
    };
    const target = 4 * run.reference.throughput;
    const client = run.hub.clientMicrosPerRequest ?? 0;
    lines.push(
      `issue 3: 4 × the reference (${fmt(run.reference.throughput, 0)} req/s in round-trip.json) = ${fmt(target, 0)} round trips/s; the envelope and the task actor alone take ${fmt((target * perRoundTrip) / 1e6, 2)} cores for that, and the load generator (${fmt(client, 0)} µs of CPU per request in that run) ${fmt((target * client) / 1e6, 2)} cores, before HTTP, WebSocket, JetStream and the agent`
    );
  }
  const drain = 1000 * 10;
  lines.push(
    `issue 4: 1,000 recipients × 10/s = ${drain} deliveries/s: the envelope and the task actor take ${fmt((drain * perRoundTrip) / 1e6, 2)} cores; ${drain} task writes + ${drain} deletes per second against ceilings of ${rate(f.jetstreamPublish)} publishes and ${rate(f.jetstreamDelete)} deletes per second, each measured with nothing else running`
  );
  process.stdout.write(lines.join('\n') + '\n');
  writeFileSync(
    resolve(out, 'floor.json'),
    JSON.stringify({ at: new Date().toISOString(), ...f }, null, 2)
  );
}

async function nodesReport() {
  const rows = await (await import('./nodes.js')).nodesBench();
  const lines = [
    `\nRound trips with 1, 2 and 3 hub nodes on one machine (${cpus().length} cores), one NATS, ${process.env.BENCH_CONCURRENCY ?? 50} concurrent senders`,
    '| hub nodes | req/s | p50 ms | p99 ms | errors | CPU per node (cores) |',
    ...rows.map(
      (r) =>
        `| ${r.nodes} | ${fmt(r.throughput, 0)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${r.errors} | ${r.cpuCores.map((c) => fmt(c, 2)).join(' / ')} |`
    ),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  writeFileSync(
    resolve(out, 'nodes.json'),
    JSON.stringify({ at: new Date().toISOString(), rows }, null, 2)
  );
}

async function roundTripReport() {
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
    `throughput ratio hub/reference: ${fmt(r.ratio, 2)}× (target ≥ 4×, p99 ≤ 25 ms); durable tasks indexed: ${r.durableTasks} of ${r.hub.requests + r.hub.errors}+ sent; load generator CPU per request: hub ${fmt(r.hub.clientMicrosPerRequest, 0)} µs, reference ${fmt(r.reference.clientMicrosPerRequest, 0)} µs\n`
  );
  writeFileSync(
    resolve(out, 'round-trip.json'),
    JSON.stringify({ at: new Date().toISOString(), ...r }, null, 2)
  );
}

async function queueReport() {
  const q = await queueBench();
  const e = q.enqueueHttp;
  const d = q.drain;
  const m = q.pending100k;
  const lines = [
    `\nOffline queues (${cpus().length} cores)`,
    `| measure | value |`,
    `| enqueue, HTTP SendMessage to offline agents, 50 concurrent | ${fmt(e.throughput, 0)} msg/s (p50 ${fmt(e.p50)} ms, p99 ${fmt(e.p99)} ms, ${e.errors} errors) |`,
    `| enqueue, queue layer (admit + durable append + index), 256 in flight | ${fmt(q.enqueueLayer.throughput, 0)} msg/s |`,
    `| drain, ${d.recipients} recipients reconnecting at once, first ${d.messagesEach} messages each | per-recipient rate min ${fmt(d.ratePerRecipient.min, 2)} / p10 ${fmt(d.ratePerRecipient.p10, 2)} / median ${fmt(d.ratePerRecipient.median, 2)} / p90 ${fmt(d.ratePerRecipient.p90, 2)} / max ${fmt(d.ratePerRecipient.max, 2)} msg/s; ${d.withinTenPercent} of ${d.recipients} within 10/s ± 10% |`,
    `| first queued message after welcome | median ${fmt(d.firstMessageAfterWelcomeMs.median)} ms, p99 ${fmt(d.firstMessageAfterWelcomeMs.p99)} ms |`,
    `| ${m.messages} pending: hub heap per message | ${fmt(m.heapBytesPerMessage, 0)} bytes |`,
    `| ${m.messages} pending: index rebuild (sum over partitions) / whole takeover by a new node | ${fmt(m.rebuildMs, 0)} ms / ${fmt(m.takeoverMs, 0)} ms |`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  writeFileSync(
    resolve(out, 'queue.json'),
    JSON.stringify({ at: new Date().toISOString(), ...q }, null, 2)
  );
}

async function discoverReport() {
  const d = await discoverBench();
  const row = (name: string, l: (typeof d)['search']) =>
    `| ${name} | ${fmt(l.throughput, 0)} | ${fmt(l.p50, 2)} | ${fmt(l.p90, 2)} | ${fmt(l.p99, 2)} | ${fmt(l.max, 1)} | ${l.errors} | ${fmt(l.meanMatches, 0)} |`;
  const lines = [
    `\nDirectory, ${d.agents} agents (${d.locations} locations; seeded in ${fmt(d.seedSeconds, 0)} s), ${d.concurrency} concurrent clients (${cpus().length} cores)`,
    '| measure | req/s | p50 ms | p90 ms | p99 ms | max ms | errors | mean matches |',
    row('PostgreSQL `SELECT 1` round trip (postgres.js)', d.selectOne),
    row('GET /api/discover/agents, q (often misspelt) + two filters, no-cache', d.search),
    row('GET /api/discover/agents/nearby, radius 5-50 km, no-cache', d.nearby),
    row(
      `search without no-cache (${d.distinctSearches} distinct, kept answers hit ${fmt(100 * d.searchCached.hitRatio, 0)} %)`,
      d.searchCached
    ),
    row(
      `nearby without no-cache (${d.distinctNearby} distinct, kept answers hit ${fmt(100 * d.nearbyCached.hitRatio, 0)} %)`,
      d.nearbyCached
    ),
    `target: p99 ≤ 15 ms for search and nearby (no-cache rows: every answer computed afresh, after a fresh read of the directory generation)`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  writeFileSync(
    resolve(out, 'discover.json'),
    JSON.stringify({ at: new Date().toISOString(), ...d }, null, 2)
  );
}
