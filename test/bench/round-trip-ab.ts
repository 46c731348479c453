// Two hub builds side by side, for a CPU claim on a machine other work keeps busy: each build's
// hub (its own nats-server, database and WebSocket echo agent) takes the round-trip benchmark's
// blocking SendMessage calls in short windows, A and B alternating (ABBA), at the same fixed rate,
// so that both see the same machine and the same batching (a hub's CPU per round trip falls as
// its throughput rises: more of a turn's writes share one system call). Per window and in all:
// hub CPU µs per successful round trip (from /proc, the hub with its descendants).
// BENCH_AB_A=<tree> BENCH_AB_B=<tree> node --import tsx test/bench/round-trip-ab.ts
// (BENCH_AB_RATE req/s, default 600; BENCH_AB_WINDOWS, default 8; BENCH_AB_SECONDS, default 6;
// BENCH_CONCURRENCY, default 50; HUB_NODE_ARGS for both hubs.)
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startNatsServer } from '../support/nats-server.js';
import { createTestDatabase } from '../support/postgres.js';
import { startHubProcess, type HubProcess } from '../support/hub-process.js';
import { createAgent, createDb, createTenant } from '../../infra/db/index.js';
import { cannon } from './cannon.js';
import { sendMessageBody } from './load.js';
import { child } from './round-trip.js';

const RATE = Number(process.env.BENCH_AB_RATE ?? 600);
const WINDOWS = Number(process.env.BENCH_AB_WINDOWS ?? 8);
const SECONDS = Number(process.env.BENCH_AB_SECONDS ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONCURRENCY ?? 50);

function cpuOf(pid: number): number {
  // The hub's own process: its threads are in its figures, and it has no children.
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

interface Side {
  name: string;
  tree: string;
  hub: HubProcess;
  agent: ChildProcess;
  apiKey: string;
  to: string;
  close: () => Promise<void>;
  cpu: number;
  ok: number;
  seconds: number;
  windows: number[];
}

async function startSide(name: string, tree: string): Promise<Side> {
  const nats = await startNatsServer();
  const db = await createTestDatabase(`burrow_ab_${name.toLowerCase()}`);
  const hub = await startHubProcess({
    entry: join(resolve(tree), 'infra/bin/hub.ts'),
    env: {
      NATS_URL: nats.url,
      DATABASE_URL: db.url,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000000',
    },
    ...(process.env.HUB_NODE_ARGS ? { nodeArgs: process.env.HUB_NODE_ARGS.split(' ') } : {}),
  });
  const sql = createDb(db.url, { max: 2 });
  const tenant = await createTenant(sql, { name: 'Bench' });
  const sender = await createAgent(sql, { tenantId: tenant.id, name: 'sender' });
  const echo = await createAgent(sql, { tenantId: tenant.id, name: 'ws-echo' });
  await sql.end({ timeout: 2 });
  const agent = (await child('test/bench/ws-echo-agent.ts', [hub.url, echo.apiKey], /^ready$/))
    .proc;
  return {
    name,
    tree,
    hub,
    agent,
    apiKey: sender.apiKey,
    to: echo.agent.id,
    cpu: 0,
    ok: 0,
    seconds: 0,
    windows: [],
    close: async () => {
      agent.kill('SIGTERM');
      hub.kill('SIGTERM');
      await hub.exited;
      await nats.close();
      await db.drop();
    },
  };
}

async function measure(s: Side, warmup: number): Promise<void> {
  let before = 0;
  let after = 0;
  const r = await cannon({
    url: `${s.hub.url}/a2a`,
    connections: CONNECTIONS,
    warmupSeconds: warmup,
    seconds: SECONDS,
    overallRate: RATE,
    headers: { authorization: `Bearer ${s.apiKey}`, 'a2a-version': '1.0' },
    body: (i) => sendMessageBody(i, s.to, `hello ${i}`, { blocking: true }),
    ok: (status, body) => status === 200 && body.includes('"state":"completed"'),
    onMeasureStart: () => {
      before = cpuOf(s.hub.pid);
    },
    onMeasureEnd: () => {
      after = cpuOf(s.hub.pid);
    },
  });
  s.cpu += after - before;
  s.ok += r.successes;
  s.seconds += r.seconds;
  s.windows.push(((after - before) * 1e6) / Math.max(1, r.successes));
}

const trees = [process.env.BENCH_AB_A, process.env.BENCH_AB_B];
if (!trees[0] || !trees[1]) {
  process.stderr.write('BENCH_AB_A and BENCH_AB_B must name the two trees to compare\n');
  process.exit(2);
}
const a = await startSide('A', trees[0]);
const b = await startSide('B', trees[1]);
try {
  for (let w = 0; w < WINDOWS; w++) {
    // ABBA: a drift in the machine's load over the run weighs on both alike.
    const order = w % 2 === 0 ? [a, b] : [b, a];
    for (const s of order) await measure(s, w < 2 ? 3 : 1);
  }
  const per = (s: Side) => (s.cpu * 1e6) / Math.max(1, s.ok);
  const line = (s: Side) =>
    `${s.name} ${s.tree}: ${per(s).toFixed(0)} µs per round trip (${s.ok} at ` +
    `${(s.ok / s.seconds).toFixed(0)}/s), windows ${s.windows.map((x) => x.toFixed(0)).join(' ')}`;
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  process.stdout.write(
    `rate ${RATE}/s, ${WINDOWS} windows of ${SECONDS} s each, load average ${load}\n` +
      `${line(a)}\n${line(b)}\nB ÷ A: ${(per(b) / per(a)).toFixed(3)}\n`
  );
} finally {
  await a.close();
  await b.close();
}
