// What one durable blocking round trip costs the hub and NATS: the round-trip benchmark's load
// (blocking SendMessage to a WebSocket echo agent) against one hub process, measuring hub and
// nats-server CPU from /proc and counting JetStream API requests ($JS.API.>) by kind, per round
// trip. Run: node --import tsx test/bench/round-trip-cost.ts (BENCH_SECONDS, BENCH_CONCURRENCY,
// LOG_COMPACT_* passed to the hub, e.g. LOG_COMPACT_MIN_RECORDS=500 to compact often;
// BENCH_CPU_PROF_DIR=<dir> to write the hub's --cpu-prof there; BENCH_ALL_SUBJECTS=1 to count
// every NATS message per round trip too, by its subject's leading tokens; BENCH_HUB_TREE=<dir> to
// run that tree's hub instead of this one's; BENCH_HUB_NODE_ARGS, e.g. "--trace-gc", for the hub's
// node; BENCH_HUB_LOG_COPY=<file> to keep the hub's log (and what such flags print there);
// BENCH_HUB_ENTRY=dist/infra/bin/hub.js to run the build instead of the sources under tsx).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { startNatsServer } from '../support/nats-server.js';
import { createTestDatabase } from '../support/postgres.js';
import { startHubProcess } from '../support/hub-process.js';
import { createAgent, createDb, createTenant } from '../../infra/db/index.js';
import { runLoad, sendMessageBody } from './load.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const HUB_ENV = ['LOG_COMPACT_MIN_RECORDS', 'LOG_COMPACT_FACTOR'];

function sysSeconds(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(f[12]) / 100;
}

function cpuSeconds(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

const nats = await startNatsServer();
const db = await createTestDatabase('burrow_bench_cost');
const env: Record<string, string> = {
  NATS_URL: nats.url,
  DATABASE_URL: db.url,
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '1000000',
};
for (const k of HUB_ENV) if (process.env[k]) env[k] = process.env[k];
const profDir = process.env.BENCH_CPU_PROF_DIR;
const tree = process.env.BENCH_HUB_TREE;
const hub = await startHubProcess({
  env,
  // Another build's hub (an A/B of two trees), with this tree's load and counting.
  ...(tree ? { entry: resolve(tree, 'infra/bin/hub.ts') } : {}),
  // e.g. BENCH_HUB_ENTRY=dist/infra/bin/hub.js: the build `npm start` runs (npm run build first),
  // of BENCH_HUB_TREE when one is named (resolved against this tree, it ran this tree's build in
  // both arms of an A/B).
  ...(process.env.BENCH_HUB_ENTRY
    ? { entry: resolve(tree ?? ROOT, process.env.BENCH_HUB_ENTRY) }
    : {}),
  nodeArgs: [
    ...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []),
    ...(process.env.BENCH_HUB_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
  ],
});
const sql = createDb(db.url, { max: 2 });
let agentProc: ChildProcess | undefined;
const watcher = await connect({ servers: nats.url });
const apiCalls = new Map<string, number>();
let counting = false;
watcher.subscribe('$JS.API.>', {
  callback: (_e, m) => {
    if (!counting) return;
    // $JS.API.STREAM.MSG.DELETE.HUB_P03 → STREAM.MSG.DELETE
    const kind = m.subject
      .split('.')
      .slice(2)
      .filter((t) => t === t.toUpperCase() && !t.startsWith('HUB_') && !/\d/.test(t))
      .join('.');
    apiCalls.set(kind, (apiCalls.get(kind) ?? 0) + 1);
  },
});
// Every message on the bus, by subject with ids and numbers cut (acks to _INBOX included).
const allSubjects = new Map<string, number>();
if (process.env.BENCH_ALL_SUBJECTS === '1') {
  watcher.subscribe('>', {
    callback: (_e, m) => {
      if (!counting) return;
      const kind = m.subject
        .split('.')
        .slice(0, m.subject.startsWith('_INBOX.') ? 2 : 4)
        .map((t) => (/\d/.test(t) && t.length > 6 ? '*' : t))
        .join('.');
      allSubjects.set(kind, (allSubjects.get(kind) ?? 0) + 1);
    },
  });
}
try {
  const tenant = await createTenant(sql, { name: 'Bench' });
  const sender = await createAgent(sql, { tenantId: tenant.id, name: 'sender' });
  const echo = await createAgent(sql, { tenantId: tenant.id, name: 'ws-echo' });
  agentProc = spawn(
    process.execPath,
    ['--import', 'tsx', resolve(ROOT, 'test/bench/ws-echo-agent.ts'), hub.url, echo.apiKey],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] }
  );
  await new Promise<void>((res) => {
    createInterface({ input: agentProc!.stdout! }).on('line', (l) => l === 'ready' && res());
  });
  const load = (seconds: number, warmupSeconds: number) =>
    runLoad({
      url: `${hub.url}/a2a`,
      concurrency: CONCURRENCY,
      warmupSeconds,
      seconds,
      headers: { authorization: `Bearer ${sender.apiKey}`, 'a2a-version': '1.0' },
      body: (i) => sendMessageBody(i, echo.agent.id, `hello ${i}`, { blocking: true }),
      ok: (status, body) => status === 200 && body.includes('"state":"completed"'),
    });
  await load(WARMUP, 0);
  await watcher.flush();
  counting = true;
  // The benchmark database's backends (the hub's pool, open after the warm-up): the task index's
  // statements are most of their work.
  const backends = (
    await sql<Array<{ pid: number }>>`select pid from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()`
  ).map((b) => b.pid);
  // Each backend's start figure, so that one ending during the run (unreadable at the end) drops
  // out of both ends rather than subtracting its start from the total.
  const pgStart = new Map<number, number>();
  const pgSeconds = () => {
    let sum = 0;
    for (const pid of backends) {
      try {
        const s = cpuSeconds(pid);
        if (!pgStart.has(pid)) pgStart.set(pid, s);
        sum += s - pgStart.get(pid)!;
      } catch {
        // ended: not counted
      }
    }
    return sum;
  };
  const cpu0 = {
    hub: cpuSeconds(hub.pid),
    nats: cpuSeconds(nats.pid),
    sys: sysSeconds(hub.pid),
    pg: pgSeconds(),
  };
  const r = await load(SECONDS, 0);
  const cpu1 = {
    hub: cpuSeconds(hub.pid),
    nats: cpuSeconds(nats.pid),
    sys: sysSeconds(hub.pid),
    pg: pgSeconds(),
  };
  await watcher.flush();
  counting = false;
  const n = r.requests + r.errors;
  const per = Object.fromEntries(
    [...apiCalls].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, +(v / n).toFixed(4)])
  );
  const total = [...apiCalls.values()].reduce((a, b) => a + b, 0);
  process.stdout.write(
    JSON.stringify(
      {
        env: Object.fromEntries(HUB_ENV.map((k) => [k, process.env[k] ?? '(default)'])),
        roundTrips: r.requests,
        errors: r.errors,
        throughput: +r.throughput.toFixed(1),
        p50: r.p50,
        p99: r.p99,
        hubCpuMsPerRoundTrip: +(((cpu1.hub - cpu0.hub) * 1000) / n).toFixed(3),
        hubSysCpuMsPerRoundTrip: +(((cpu1.sys - cpu0.sys) * 1000) / n).toFixed(3),
        natsCpuMsPerRoundTrip: +(((cpu1.nats - cpu0.nats) * 1000) / n).toFixed(3),
        postgresBackendsCpuMsPerRoundTrip: +(((cpu1.pg - cpu0.pg) * 1000) / n).toFixed(3),
        jsApiRequestsPerRoundTrip: +(total / n).toFixed(4),
        jsApiByKind: per,
        ...(allSubjects.size > 0
          ? {
              natsMessagesPerRoundTrip: Object.fromEntries(
                [...allSubjects]
                  .sort((a, b) => b[1] - a[1])
                  .map(([k, v]) => [k, +(v / n).toFixed(4)])
              ),
            }
          : {}),
      },
      null,
      2
    ) + '\n'
  );
} finally {
  agentProc?.kill('SIGTERM');
  await watcher.close();
  await sql.end({ timeout: 2 });
  hub.kill('SIGTERM');
  await hub.exited;
  if (process.env.BENCH_HUB_LOG_COPY) writeFileSync(process.env.BENCH_HUB_LOG_COPY, hub.log());
  // The --cpu-prof file is written as the process exits.
  if (profDir) await new Promise((r) => setTimeout(r, 500));
  await nats.close();
  await db.drop();
}
