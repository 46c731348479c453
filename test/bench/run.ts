// `npm run bench`: the benchmarks the issues name, on this machine, printed as tables and saved
// to test/bench/results/*.json. Timing targets are checked here, never in timed tests.
// BENCH_ONLY (a comma list) picks benchmarks; without it, issue 19's four run: round-trip,
// enqueue, drain, memory, then a table of their figures beside the targets. The older ones run
// when named: discover, pixel, nodes, floor (after a round-trip run); BENCH_ONLY=all runs all.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cpus } from 'node:os';
import { roundTrip, type SideSummary } from './round-trip.js';
import { enqueueBench } from './enqueue.js';
import { drainBench, type DrainReport } from './drain.js';
import { memoryBench } from './memory.js';
import { discoverBench } from './discover.js';
import { addTarget, fmt, printTargets, targetRows } from './targets.js';

const out = resolve(import.meta.dirname, 'results');
mkdirSync(out, { recursive: true });
const save = (name: string, value: object) =>
  writeFileSync(
    resolve(out, `${name}.json`),
    JSON.stringify({ at: new Date().toISOString(), ...value }, null, 2)
  );

/**
 * The heap per pending message before issue 19 (README, 2026-11-22: 1,014–1,017 bytes in runs
 * since), with 2 % for run-to-run noise: the target is "as today or better".
 */
const PENDING_BYTES_BEFORE = 1015;
const PENDING_BYTES_NOISE = 1.02;

const ISSUE_19 = ['round-trip', 'enqueue', 'drain', 'memory'];
const ALL = [...ISSUE_19, 'discover', 'pixel', 'nodes', 'floor'];
const asked = (process.env.BENCH_ONLY ?? ISSUE_19.join(',')).split(',').map((s) => s.trim());
const only = new Set(asked.includes('all') ? ALL : asked);
const unknown = [...only].filter((n) => !ALL.includes(n));
if (unknown.length > 0) {
  process.stderr.write(
    `BENCH_ONLY: unknown ${unknown.join(', ')}; known: ${ALL.join(', ')}, all\n`
  );
  process.exit(2);
}
const reports: Record<string, () => Promise<void>> = {
  'round-trip': roundTripReport,
  enqueue: enqueueReport,
  drain: drainReport,
  memory: memoryReport,
  discover: discoverReport,
  pixel: async () => (await import('./pixel.js')).pixelReport(),
  nodes: nodesReport,
  floor: floorReport,
};
for (const name of ALL) {
  if (!only.has(name)) continue;
  const t0 = performance.now();
  await reports[name]!();
  process.stdout.write(`(${name}: ${fmt((performance.now() - t0) / 1000, 0)} s)\n`);
}
if (targetRows().length > 0) {
  printTargets();
  save(`targets-${[...only].filter((n) => ISSUE_19.includes(n)).join('+')}`, {
    cores: cpus().length,
    rows: targetRows(),
  });
}

/** CPU µs per request of each process, in print order. */
function cpuCells(m: Record<string, number>, main: string): string {
  const keys = [main, 'nats', 'postgres', 'echoAgent', 'loadGenerator'];
  return keys
    .filter((k) => m[k] !== undefined)
    .map((k) => fmt(m[k]!, 0))
    .join(' / ');
}

async function roundTripReport() {
  const r = await roundTrip();
  const row = (
    name: string,
    s: { throughput: number; p50: number; p90: number; p99: number; max: number; failures: number },
    cpu: string,
    cores: string
  ) =>
    `| ${name} | ${fmt(s.throughput, 0)} | ${fmt(s.p50)} | ${fmt(s.p90)} | ${fmt(s.p99)} | ${fmt(s.max)} | ${s.failures} | ${cpu} | ${cores} |`;
  const cores = (c: { machineCores: number; ourCores: number }) =>
    `${fmt(c.machineCores, 2)} (ours ${fmt(c.ourCores, 2)})`;
  const lines = [
    `\nRound trips: blocking SendMessage, autocannon, ${r.connections} connections, ${r.rounds.length} rounds of hub then reference (${cpus().length} cores)`,
    '| run | req/s | p50 ms | p90 ms | p99 ms | max ms | failed | CPU µs per request: server / nats / postgres / agent / load generator | machine cores busy |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |',
  ];
  r.rounds.forEach((round, i) => {
    const h = round.hub;
    const f = round.reference;
    lines.push(
      row(
        `${i + 1}. hub → WS echo agent`,
        { ...h.load, failures: h.load.failures },
        cpuCells(h.micros, 'hub'),
        cores(h.cpu)
      ),
      row(
        `${i + 1}. @a2a-js/sdk express (in memory)`,
        f.load,
        cpuCells(
          { reference: f.micros['reference']!, loadGenerator: f.micros['loadGenerator']! },
          'reference'
        ),
        cores(f.cpu)
      )
    );
    const p = round.prototype;
    if (p)
      lines.push(
        row(
          `${i + 1}. minimal prototype → WS echo agent`,
          p.load,
          cpuCells(p.micros, 'prototype'),
          cores(p.cpu)
        )
      );
  });
  const sum = (name: string, s: SideSummary, main: string) =>
    row(
      name,
      s,
      cpuCells(
        main === 'hub'
          ? s.micros
          : { reference: s.micros['reference']!, loadGenerator: s.micros['loadGenerator']! },
        main
      ),
      cores(s)
    );
  lines.push(
    sum('all rounds: hub', r.hub, 'hub'),
    sum('all rounds: reference', r.reference, 'reference')
  );
  if (r.prototype) {
    const p = r.prototype;
    lines.push(
      row('all rounds: minimal prototype', p, cpuCells(p.micros, 'prototype'), cores(p)),
      `Minimal prototype of the same durable work (test/bench/prototype-hub.ts): CPU per round trip ${fmt(p.micros['prototype'] ?? 0, 0)} µs = ${fmt((p.micros['prototype'] ?? 0) / (r.reference.micros['reference'] ?? 1), 2)}× the reference's per request (the hub: ${fmt(r.cpuRatio, 2)}×); throughput ${fmt(p.throughput / r.reference.throughput, 2)}× the reference's (the hub: ${fmt(r.throughputRatio, 2)}×).`
    );
  }
  lines.push(
    `PostgreSQL: ${fmt(r.hub.micros['postgresBackends'] ?? 0, 0)} µs per round trip in the benchmark database's backends, the rest in the server's own processes (shared with any other database). Tasks in the index: ${r.durableTasks} for ${r.acceptedTasks} accepted (warm-ups included; more: answers cut off at a run's end).`
  );
  process.stdout.write(lines.join('\n') + '\n');
  const hubCpu = r.hub.micros['hub'] ?? 0;
  const refCpu = r.reference.micros['reference'] ?? 0;
  addTarget({
    measure: 'hub CPU per round trip ÷ reference CPU per request',
    figure: `${fmt(r.cpuRatio, 2)}× (${fmt(hubCpu, 0)} µs ÷ ${fmt(refCpu, 0)} µs)`,
    target: '≤ 0.6×',
    pass: r.cpuRatio <= 0.6,
  });
  addTarget({
    measure: `round trips/s ÷ reference, autocannon ${r.connections} connections`,
    figure: `${fmt(r.throughputRatio, 2)}× (${fmt(r.hub.throughput, 0)} ÷ ${fmt(r.reference.throughput, 0)} req/s)`,
    target: '≥ 2×',
    pass: r.throughputRatio >= 2,
  });
  addTarget({
    measure: 'round trip p99 (hub; p50 / p90 beside)',
    figure: `${fmt(r.hub.p99)} ms (${fmt(r.hub.p50)} / ${fmt(r.hub.p90)})`,
    target: '≤ 25 ms, idle machine',
    pass: r.hub.p99 <= 25,
  });
  save('round-trip', r);
}

async function enqueueReport() {
  const e = await enqueueBench();
  const l = e.load;
  const lines = [
    `\nOffline enqueue: non-blocking SendMessage over HTTP to ${e.recipients} offline WebSocket recipients, autocannon, ${e.connections} connections (${cpus().length} cores)`,
    `| msg/s | p50 ms | p90 ms | p99 ms | max ms | failed | CPU µs per message: hub / nats / postgres / load generator | machine cores busy |`,
    '| ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |',
    `| ${fmt(l.throughput, 0)} | ${fmt(l.p50)} | ${fmt(l.p90)} | ${fmt(l.p99)} | ${fmt(l.max)} | ${l.failures} | ${cpuCells(e.micros, 'hub')} | ${fmt(e.cpu.machineCores, 2)} (ours ${fmt(e.cpu.ourCores, 2)}) |`,
    `durable: ${e.accepted} accepted (warm-up included), ${e.queuedBefore} queued; after kill -9 of the hub and a takeover by a new one (${fmt(e.takeoverMs / 1000)} s): ${e.queuedAfterRestart} queued${e.durable ? '' : ' — MESSAGES LOST'}`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  addTarget({
    measure: 'offline enqueue over HTTP, durable (all accepted found after kill -9)',
    figure: `${fmt(l.throughput, 0)} msg/s${e.durable ? '' : ', but LOST messages'}`,
    target: '≥ 5,000 msg/s (and ≥ 4× the code before, run A/B)',
    pass: e.durable && l.throughput >= 5000,
  });
  save('enqueue', e);
}

async function drainReport() {
  const d = await drainBench();
  const group = (name: string, g: DrainReport['paced']) =>
    `| ${name} | ${fmt(g.seeding.throughput, 0)} (${g.seeding.accepted} of ${g.seeding.messages}) | ${fmt(g.settledSeconds, 0)} | ${fmt(g.total, 0)} | ${fmt(g.perRecipient.min, 2)} / ${fmt(g.perRecipient.p10, 2)} / ${fmt(g.perRecipient.median, 2)} / ${fmt(g.perRecipient.p90, 2)} / ${fmt(g.perRecipient.max, 2)} | ${g.withinTenPercent} | ${g.unserved} / ${g.ranDry} / ${g.droppedSockets} | ${fmt(g.reconnectMs, 0)} | ${fmt(g.firstMessageAfterWelcomeMs.median, 0)} / ${fmt(g.firstMessageAfterWelcomeMs.p99, 0)} | ${g.deliveries > 0 ? cpuCells(g.micros, 'hub') : '–'} | ${fmt(g.cpu.machineCores, 2)} (ours ${fmt(g.cpu.ourCores, 2)}) |`;
  const lines = [
    `\nDrain: each group on a hub of its own; ${d.backlog} queued messages per recipient (seeded over HTTP, autocannon, 50 connections); once the hub and nats-server are idle, the group reconnects at once; each recipient's rate over the ${fmt(d.paced.windowSeconds, 0)} s after its welcome, the group's in all their sum; CPU from the first connection to the last window's end (${cpus().length} cores)`,
    '| group | seeded msg/s (accepted) | idle after s | deliveries/s in all | per recipient msg/s: min / p10 / median / p90 / max | within 10/s ± 10% | unserved / ran dry / sockets lost | reconnect ms | first message after welcome ms: median / p99 | CPU µs per delivery: hub / nats / postgres | machine cores busy |',
    '| --- | ---: | ---: | ---: | --- | ---: | --- | ---: | --- | --- | --- |',
    group(`${d.paced.recipients} recipients`, d.paced),
    group(`${d.mass.recipients} recipients`, d.mass),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  const p = d.paced;
  addTarget({
    measure: `drain, ${p.recipients} at once, each recipient (min / median / max)`,
    figure: `${fmt(p.perRecipient.min, 2)} / ${fmt(p.perRecipient.median, 2)} / ${fmt(p.perRecipient.max, 2)} msg/s, ${p.withinTenPercent} of ${p.recipients} within`,
    target: '10/s ± 10% each',
    pass: p.withinTenPercent === p.recipients && p.ranDry === 0,
  });
  const m = d.mass;
  addTarget({
    measure: `drain, ${m.recipients} at once, deliveries in all`,
    figure: `${fmt(m.total, 0)}/s`,
    target: '≥ 3,000/s',
    pass: m.total >= 3000 && m.ranDry === 0,
  });
  addTarget({
    measure: `drain, ${m.recipients} at once, slowest ÷ fastest recipient`,
    figure: `${fmt(m.slowestOverFastest, 2)} (${fmt(m.perRecipient.min, 2)} ÷ ${fmt(m.perRecipient.max, 2)} msg/s, ${m.unserved} unserved)`,
    target: '≥ 0.5, every recipient served',
    pass: m.slowestOverFastest >= 0.5 && m.unserved === 0,
  });
  save('drain', d);
}

async function memoryReport() {
  const m = await memoryBench();
  const i = m.idle;
  const p = m.pending.pending100k;
  const lines = [
    `\nMemory (${cpus().length} cores)`,
    '| measure | value |',
    '| --- | --- |',
    `| ${i.agents} idle WebSocket agents: hub heap per agent (its resident memory per agent) | ${fmt(i.heapBytesPerAgent / 1024, 1)} KB (${fmt(i.rssBytesPerAgent / 1024, 1)} KB) |`,
    `| the same sockets' client side (\`ws\`) in the benchmark process: heap per socket | ${fmt(i.clientHeapBytesPerSocket / 1024, 1)} KB |`,
    `| ${p.messages} pending: hub heap per message | ${fmt(p.heapBytesPerMessage, 0)} bytes |`,
    `| ${p.messages} pending: index rebuild (sum over partitions) / whole takeover by a new node | ${fmt(p.rebuildMs, 0)} ms / ${fmt(p.takeoverMs, 0)} ms |`,
    `| enqueue, queue layer alone (admit + durable append + index), 256 in flight | ${fmt(m.pending.enqueueLayer.throughput, 0)} msg/s |`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  addTarget({
    measure: `idle WebSocket agents, hub heap each (${i.agents})`,
    figure: `${fmt(i.heapBytesPerAgent / 1024, 1)} KB`,
    target: '≤ 16 KB',
    pass: i.heapBytesPerAgent <= 16 * 1024,
  });
  addTarget({
    measure: `${p.messages} pending messages, hub heap each`,
    figure: Number.isNaN(p.heapBytesPerMessage)
      ? 'needs node --expose-gc'
      : `${fmt(p.heapBytesPerMessage, 0)} bytes`,
    target: `≤ ${fmt(PENDING_BYTES_BEFORE, 0)} bytes (before, README) + 2 % noise`,
    pass: p.heapBytesPerMessage <= PENDING_BYTES_BEFORE * PENDING_BYTES_NOISE,
  });
  save('memory', m);
}

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
      hub: { micros?: Record<string, number> };
    };
    const target = 4 * run.reference.throughput;
    const client = run.hub.micros?.['loadGenerator'] ?? 0;
    lines.push(
      `issue 3: 4 × the reference (${fmt(run.reference.throughput, 0)} req/s in round-trip.json) = ${fmt(target, 0)} round trips/s; the envelope and the task actor alone take ${fmt((target * perRoundTrip) / 1e6, 2)} cores for that, and the load generator (${fmt(client, 0)} µs of CPU per request in that run) ${fmt((target * client) / 1e6, 2)} cores, before HTTP, WebSocket, JetStream and the agent`
    );
  }
  const drain = 1000 * 10;
  lines.push(
    `issue 4: 1,000 recipients × 10/s = ${drain} deliveries/s: the envelope and the task actor take ${fmt((drain * perRoundTrip) / 1e6, 2)} cores; ${drain} task writes + ${drain} deletes per second against ceilings of ${rate(f.jetstreamPublish)} publishes and ${rate(f.jetstreamDelete)} deletes per second, each measured with nothing else running`
  );
  process.stdout.write(lines.join('\n') + '\n');
  save('floor', f);
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
  save('nodes', { rows });
}

async function discoverReport() {
  const d = await discoverBench();
  const row = (name: string, l: (typeof d)['search']) =>
    `| ${name} | ${fmt(l.throughput, 0)} | ${fmt(l.p50, 2)} | ${fmt(l.p90, 2)} | ${fmt(l.p99, 2)} | ${fmt(l.max, 1)} | ${l.errors} | ${fmt(l.meanMatches, 0)} |`;
  const loadLine = (x: Pick<typeof d, 'agents' | 'load'>) =>
    `in-memory directory, ${x.agents} agents: ${fmt(x.load.bytesPerAgent, 0)} B/agent (heap ${fmt(x.load.heapUsedPerAgent, 0)} + typed arrays ${fmt(x.load.arrayBuffersPerAgent, 0)}), loaded in ${fmt(x.load.loadSeconds, 1)} s, event-loop delay max ${fmt(x.load.loopDelayMaxMs, 0)} ms during the load (p99 ${fmt(x.load.loopDelayP99Ms, 0)} ms; idle loop's max just before ${fmt(x.load.idleLoopDelayMaxMs, 0)} ms); longest slice the load ran ${fmt(x.load.longestSliceMs, 1)} ms (CPU ${fmt(x.load.longestSliceCpuMs, 1)} ms), longest major GC pause ${fmt(x.load.gcPauseMaxMs, 1)} ms; machine load average ${x.load.loadAverage.map((n) => n.toFixed(1)).join(' ')} (1, 5, 15 min) when it ended`;
  const seeded = (x: Pick<typeof d, 'locations' | 'seedSeconds' | 'seedCopied'>) =>
    `${x.locations} locations; ${x.seedCopied ? 'copied from the kept seed' : 'seeded'} in ${fmt(x.seedSeconds, 0)} s`;
  const lines = [
    `\nDirectory, ${d.agents} agents (${seeded(d)}), ${d.concurrency} concurrent clients (${cpus().length} cores)`,
    loadLine(d),
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
  for (const l of d.larger) {
    lines.push(
      `\nDirectory, ${l.agents} agents (${seeded(l)})`,
      loadLine(l),
      '| measure | req/s | p50 ms | p90 ms | p99 ms | max ms | errors | mean matches |',
      row('PostgreSQL `SELECT 1` round trip (postgres.js)', l.selectOne),
      row('GET /api/discover/agents, no-cache', l.search),
      row('GET /api/discover/agents/nearby, no-cache', l.nearby),
      'target at 1,000,000: p99 ≤ 50 ms, heap ≤ 2 GB'
    );
  }
  process.stdout.write(lines.join('\n') + '\n');
  save('discover', d);
}
