// Issue 10's benchmark: the round trip of issue 3 (blocking SendMessage to a WebSocket echo agent)
// with 1, 2 and 3 hub nodes on this machine, one NATS server and one PostgreSQL shared. Each node
// has its own echo agent and its own senders, and tasks live on whichever node owns their
// partition, so most requests cross nodes. Reports throughput, latency and each node's CPU.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { startNatsServer } from '../support/nats-server.js';
import { createTestDatabase } from '../support/postgres.js';
import { startHubProcess, type HubProcess } from '../support/hub-process.js';
import { benchHubOptions } from './built-hub.js';
import { createAgent, createDb, createTenant } from '../../infra/db/index.js';
import { runLoad, sendMessageBody, type LoadResult } from './load.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const PARTITIONS = 32;
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ; 100 on Linux). */
const TICKS = 100;

export interface NodesRow {
  nodes: number;
  throughput: number;
  p50: number;
  p99: number;
  errors: number;
  /** Per hub node: CPU used during the measured window, in cores (1.0 = one core busy). */
  cpuCores: number[];
}

export async function nodesBench(counts: readonly number[] = [1, 2, 3]): Promise<NodesRow[]> {
  const rows: NodesRow[] = [];
  for (const n of counts) rows.push(await runWith(n));
  return rows;
}

async function runWith(n: number): Promise<NodesRow> {
  const nats = await startNatsServer();
  const db = await createTestDatabase('burrow_bench_nodes');
  const hubs: HubProcess[] = [];
  const agents: ChildProcess[] = [];
  const sql = createDb(db.url, { max: 2 });
  try {
    const env = {
      NATS_URL: nats.url,
      DATABASE_URL: db.url,
      LOG_LEVEL: 'warn',
      PARTITIONS: String(PARTITIONS),
      HEARTBEAT_MS: '500',
      NODE_TTL_MS: '3000',
      LOCK_INACTIVE_MS: '3000',
      ADMIN_TOKEN,
      RATE_LIMIT_PER_MINUTE: '1000000',
    };
    // The first node provisions streams and buckets alone; the others join it.
    hubs.push(await startHubProcess({ ...benchHubOptions(), env: { ...env, NODE_ID: 'bench-1' } }));
    for (let i = 2; i <= n; i++) {
      hubs.push(
        await startHubProcess({ ...benchHubOptions(), env: { ...env, NODE_ID: `bench-${i}` } })
      );
    }
    await settled(hubs);

    const tenant = await createTenant(sql, { name: 'Bench nodes' });
    const pairs = [];
    for (const hub of hubs) {
      const sender = await createAgent(sql, { tenantId: tenant.id, name: `sender-${hub.nodeId}` });
      const echo = await createAgent(sql, { tenantId: tenant.id, name: `echo-${hub.nodeId}` });
      agents.push(await echoAgent(hub.url, echo.apiKey));
      pairs.push({ hub, sender: sender.apiKey, echoId: echo.agent.id });
    }

    const before = hubs.map(cpuTicks);
    const started = Date.now();
    const results: LoadResult[] = await Promise.all(
      pairs.map((p) =>
        runLoad({
          url: `${p.hub.url}/a2a`,
          concurrency: Math.max(1, Math.round(CONCURRENCY / n)),
          warmupSeconds: WARMUP,
          seconds: SECONDS,
          headers: { authorization: `Bearer ${p.sender}`, 'a2a-version': '1.0' },
          body: (i) => sendMessageBody(i, p.echoId, `hello ${i}`, { blocking: true }),
          ok: (status, body) => status === 200 && body.includes('"state":"completed"'),
        })
      )
    );
    const wallSeconds = (Date.now() - started) / 1000;
    const cpuCores = hubs.map((h, i) => (cpuTicks(h) - before[i]!) / TICKS / wallSeconds);
    const total = results.reduce((s, r) => s + r.throughput, 0);
    // Each node's senders are weighted by what they did; p99 is the worst node's.
    const p50 = results.reduce((s, r) => s + r.p50 * r.throughput, 0) / total;
    return {
      nodes: n,
      throughput: total,
      p50,
      p99: Math.max(...results.map((r) => r.p99)),
      errors: results.reduce((s, r) => s + r.errors, 0),
      cpuCores,
    };
  } finally {
    for (const a of agents) a.kill('SIGTERM');
    await sql.end({ timeout: 2 });
    for (const h of hubs) h.kill('SIGTERM');
    await Promise.all(hubs.map((h) => h.exited));
    await nats.close();
    await db.drop();
  }
}

/** Wait until the nodes together own every partition, each node some. */
async function settled(hubs: readonly HubProcess[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const owned = await Promise.all(
      hubs.map(async (h) => {
        const r = await fetch(`${h.url}/debug/cluster`, {
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        return r.ok ? ((await r.json()) as { owned: number[] }).owned.length : 0;
      })
    );
    if (owned.every((o) => o > 0) && owned.reduce((a, b) => a + b, 0) === PARTITIONS) return;
    if (Date.now() > deadline) throw new Error(`partitions did not settle: ${owned.join(', ')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/<pid>/stat). */
function cpuTicks(h: HubProcess): number {
  const stat = readFileSync(`/proc/${h.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

function echoAgent(hubUrl: string, key: string): Promise<ChildProcess> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', resolve(ROOT, 'test/bench/ws-echo-agent.ts'), hubUrl, key],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] }
  );
  return new Promise((res, rej) => {
    createInterface({ input: proc.stdout }).on('line', (line) => {
      if (line === 'ready') res(proc);
    });
    proc.once('exit', (code) => rej(new Error(`echo agent exited with ${code}`)));
  });
}
