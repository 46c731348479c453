// Issue 19's round-trip benchmark: blocking SendMessage calls from autocannon (50 connections,
// each body with its own messageId) through the hub to a WebSocket echo agent in another process,
// every accepted task durable in JetStream; then the same load against @a2a-js/sdk's in-memory
// express echo server, the reference. Hub and reference alternate (BENCH_ROUNDS of each) so both
// see the same machine. For every measured window, the CPU each process used (hub, nats-server,
// PostgreSQL, echo agent, load generator, reference) is divided by the successful requests.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { startNatsServer } from '../support/nats-server.js';
import { createTestDatabase } from '../support/postgres.js';
import { startHubProcess } from '../support/hub-process.js';
import { benchHubOptions } from './built-hub.js';
import { freePorts } from '../support/nats-process.js';
import { createAgent, createDb, createTenant } from '../../infra/db/index.js';
import { sendMessageBody } from './load.js';
import { cannon, quantile, type CannonResult } from './cannon.js';
import { cpuWindow, type CpuWindow } from './proc-cpu.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CONNECTIONS = Number(process.env.BENCH_CONCURRENCY ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/** Also measure the minimal prototype of the same durable work (prototype-hub.ts); on by default. */
const PROTOTYPE = process.env.BENCH_PROTOTYPE !== '0';

export function child(
  script: string,
  args: string[],
  ready: RegExp,
  nodeArgs: readonly string[] = []
): Promise<{ proc: ChildProcess; line: string }> {
  const argv = [...nodeArgs, '--import', 'tsx', resolve(ROOT, script), ...args];
  const proc = spawn(process.execPath, argv, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((res, rej) => {
    const rl = createInterface({ input: proc.stdout });
    rl.on('line', (line) => {
      if (ready.test(line)) res({ proc, line });
    });
    proc.once('exit', (code) => rej(new Error(`${script} exited with ${code}`)));
  });
}

export interface SideRun {
  load: Omit<CannonResult, 'latencies'>;
  cpu: CpuWindow;
  /** CPU µs per successful request, per process (postgres: backends + server). */
  micros: Record<string, number>;
}

export interface SideSummary {
  requests: number;
  seconds: number;
  throughput: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  failures: number;
  /** CPU µs per successful request over all rounds, per process. */
  micros: Record<string, number>;
  /** Machine cores busy during the windows, and how many of them were the processes above. */
  machineCores: number;
  ourCores: number;
}

export interface RoundTripReport {
  connections: number;
  rounds: Array<{ hub: SideRun; reference: SideRun; prototype?: SideRun }>;
  hub: SideSummary;
  reference: SideSummary;
  /** The minimal prototype of the same durable work, in the same rounds (BENCH_PROTOTYPE=0: none). */
  prototype?: SideSummary;
  /** Hub CPU per round trip ÷ reference CPU per request (target ≤ 0.6). */
  cpuRatio: number;
  /** Hub throughput ÷ reference throughput (target ≥ 2). */
  throughputRatio: number;
  /** Tasks in the hub's index afterwards, and successes (warm-ups included) they must cover. */
  durableTasks: number;
  acceptedTasks: number;
}

function micros(cpu: CpuWindow, n: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(cpu.processes)) out[k] = (v * 1e6) / Math.max(1, n);
  out['postgres'] = ((cpu.postgresBackends + cpu.postgresServer) * 1e6) / Math.max(1, n);
  out['postgresBackends'] = (cpu.postgresBackends * 1e6) / Math.max(1, n);
  return out;
}

function summarize(runs: SideRun[], latencies: number[][]): SideSummary {
  const all = latencies.flat().sort((a, b) => a - b);
  const requests = runs.reduce((a, r) => a + r.load.successes, 0);
  const seconds = runs.reduce((a, r) => a + r.load.seconds, 0);
  const cpuSeconds = runs.reduce((a, r) => a + r.cpu.seconds, 0);
  const sum: Record<string, number> = {};
  for (const r of runs)
    for (const [k, v] of Object.entries(r.micros))
      sum[k] = (sum[k] ?? 0) + v * Math.max(1, r.load.successes);
  for (const k of Object.keys(sum)) sum[k] = sum[k]! / Math.max(1, requests);
  return {
    requests,
    seconds,
    throughput: requests / seconds,
    p50: quantile(all, 0.5),
    p90: quantile(all, 0.9),
    p99: quantile(all, 0.99),
    max: all.at(-1) ?? 0,
    failures: runs.reduce((a, r) => a + r.load.failures, 0),
    micros: sum,
    machineCores: runs.reduce((a, r) => a + r.cpu.machineBusy, 0) / cpuSeconds,
    ourCores: runs.reduce((a, r) => a + r.cpu.ourCores * r.cpu.seconds, 0) / cpuSeconds,
  };
}

export async function roundTrip(): Promise<RoundTripReport> {
  const nats = await startNatsServer();
  const db = await createTestDatabase('burrow_bench');
  const hub = await startHubProcess({
    ...benchHubOptions(),
    env: {
      NATS_URL: nats.url,
      DATABASE_URL: db.url,
      LOG_LEVEL: 'warn',
      // The benchmark measures the hub, not the per-key rate limit.
      RATE_LIMIT_PER_MINUTE: '1000000',
    },
    ...(process.env.HUB_NODE_ARGS ? { nodeArgs: process.env.HUB_NODE_ARGS.split(' ') } : {}),
  });
  const sql = createDb(db.url, { max: 2 });
  let agentProc: ChildProcess | undefined;
  let refProc: ChildProcess | undefined;
  let protoProc: ChildProcess | undefined;
  let protoAgentProc: ChildProcess | undefined;
  try {
    const tenant = await createTenant(sql, { name: 'Bench' });
    const sender = await createAgent(sql, { tenantId: tenant.id, name: 'sender' });
    const echo = await createAgent(sql, { tenantId: tenant.id, name: 'ws-echo' });
    agentProc = (await child('test/bench/ws-echo-agent.ts', [hub.url, echo.apiKey], /^ready$/))
      .proc;
    const [port] = await freePorts(1);
    refProc = (await child('test/bench/reference-server.ts', [String(port)], /^listening/)).proc;
    const pids: Record<string, number> = {
      hub: hub.pid,
      nats: nats.pid,
      echoAgent: agentProc.pid!,
      reference: refProc.pid!,
    };
    const [protoPort] = await freePorts(1);
    if (PROTOTYPE) {
      protoProc = (
        await child(
          'test/bench/prototype-hub.ts',
          [String(protoPort), nats.url, db.url, sender.apiKey, echo.apiKey],
          /^listening/,
          // e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof": the prototype's own profile.
          process.env.PROTO_NODE_ARGS?.split(' ') ?? []
        )
      ).proc;
      protoAgentProc = (
        await child(
          'test/bench/ws-echo-agent.ts',
          [`http://127.0.0.1:${protoPort}`, echo.apiKey],
          /^ready$/
        )
      ).proc;
      pids['prototype'] = protoProc.pid!;
      // The prototype's agent is counted as the echo agent while the prototype is measured.
      pids['protoAgent'] = protoAgentProc.pid!;
    }
    const pg = { sql, database: db.name };

    const measure = async (
      target: 'hub' | 'reference' | 'prototype'
    ): Promise<{ run: SideRun; latencies: number[] }> => {
      const url = {
        hub: `${hub.url}/a2a`,
        reference: `http://127.0.0.1:${port}/`,
        prototype: `http://127.0.0.1:${protoPort}/`,
      }[target];
      let close: (() => Promise<CpuWindow>) | undefined;
      let cpu: CpuWindow | undefined;
      const load = await cannon({
        url,
        connections: CONNECTIONS,
        warmupSeconds: WARMUP,
        seconds: SECONDS,
        headers:
          target === 'reference'
            ? { 'a2a-version': '1.0' }
            : { authorization: `Bearer ${sender.apiKey}`, 'a2a-version': '1.0' },
        body: target === 'reference' ? referenceBody : hubBody(echo.agent.id),
        ok:
          target !== 'reference'
            ? (status, body) => status === 200 && body.includes('"state":"completed"')
            : (status, body) => status === 200 && body.includes('TASK_STATE_COMPLETED'),
        onMeasureStart: async () => {
          close = await cpuWindow(pids, pg);
        },
        onMeasureEnd: async () => {
          cpu = await close!();
        },
      });
      const { latencies, ...rest } = load;
      const m = micros(cpu!, load.successes);
      if (target === 'prototype') m['echoAgent'] = m['protoAgent'] ?? 0;
      return { run: { load: rest, cpu: cpu!, micros: m }, latencies };
    };

    const rounds: RoundTripReport['rounds'] = [];
    const lat = { hub: [] as number[][], reference: [] as number[][], prototype: [] as number[][] };
    let accepted = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const h = await measure('hub');
      accepted += h.run.load.successes + h.run.load.warmupSuccesses;
      const r = await measure('reference');
      const p = PROTOTYPE ? await measure('prototype') : undefined;
      rounds.push({ hub: h.run, reference: r.run, ...(p ? { prototype: p.run } : {}) });
      lat.hub.push(h.latencies);
      lat.reference.push(r.latencies);
      if (p) lat.prototype.push(p.latencies);
    }
    // Every accepted task is in the durable log; the index in PostgreSQL trails it briefly.
    await new Promise((r) => setTimeout(r, 2000));
    const rows = await sql<
      Array<{ n: string }>
    >`select count(*) as n from tasks where sender_id = ${sender.agent.id}`;
    const hubSummary = summarize(
      rounds.map((r) => r.hub),
      lat.hub
    );
    const refSummary = summarize(
      rounds.map((r) => r.reference),
      lat.reference
    );
    const protoRuns = rounds.flatMap((r) => (r.prototype ? [r.prototype] : []));
    return {
      connections: CONNECTIONS,
      rounds,
      hub: hubSummary,
      reference: refSummary,
      ...(protoRuns.length > 0 ? { prototype: summarize(protoRuns, lat.prototype) } : {}),
      cpuRatio: (hubSummary.micros['hub'] ?? 0) / (refSummary.micros['reference'] ?? 1),
      throughputRatio: hubSummary.throughput / refSummary.throughput,
      durableTasks: Number(rows[0]?.n ?? 0),
      acceptedTasks: accepted,
    };
  } finally {
    agentProc?.kill('SIGTERM');
    refProc?.kill('SIGTERM');
    protoAgentProc?.kill('SIGTERM');
    protoProc?.kill('SIGTERM');
    await sql.end({ timeout: 2 });
    hub.kill('SIGTERM');
    await hub.exited;
    await nats.close();
    await db.drop();
  }
}

const hubBody = (agentId: string) => (i: number) =>
  sendMessageBody(i, agentId, `hello ${i}`, { blocking: true });

const referenceBody = (i: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: i,
    method: 'SendMessage',
    params: {
      message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: `hello ${i}` }] },
      configuration: { returnImmediately: false },
    },
  });
