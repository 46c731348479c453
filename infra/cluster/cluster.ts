// `npm run cluster -- start --nodes N | add | status | stop`: a local Burrow cluster on loopback,
// a 3-node NATS cluster with JetStream (streams replicated 3 times) and N hub nodes sharing one
// PostgreSQL database. Every process id, port and log goes to the state dir (default .cluster/),
// and stop/status act only on the pids recorded there. docs/OPERATIONS.md describes it.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { operatorEnv } from './environment.js';
import { HUB_MARKER, hubHealth, startHub, waitHubsHealthy } from './hubs.js';
import {
  NATS_NODES,
  fixedPorts,
  freePorts,
  portFree,
  readState,
  removeState,
  writeState,
  type ClusterState,
  type HubEntry,
} from './layout.js';
import {
  NATS_MARKER,
  metaLeader,
  startNats,
  supportsSyncAlways,
  waitNatsReady,
  type NatsPlan,
} from './nats.js';
import { isOurs, stopProcesses } from './processes.js';

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/burrow_cluster';
const DEFAULT_BASE_PORT = 14200;

const out = (line: string) => process.stdout.write(`${line}\n`);

/** The repository root: the nearest folder up from here with Burrow's package.json. */
function projectRoot(): string {
  let dir = import.meta.dirname;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (
      existsSync(pkg) &&
      (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'burrow'
    ) {
      return dir;
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the Burrow project root');
    dir = up;
  }
}

const int = (what: string, min: number) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min)
    throw new InvalidArgumentError(`${what} must be an integer ≥ ${min}`);
  return n;
};
const basePort = (v: string): number | 'auto' => {
  if (v === 'auto') return 'auto';
  const n = int('--base-port', 1024)(v);
  if (n + 200 > 65535) throw new InvalidArgumentError('--base-port leaves no room for the layout');
  return n;
};

interface CommonOpts {
  dir: string;
}
interface StartOpts extends CommonOpts {
  nodes: number;
  basePort: number | 'auto';
  databaseUrl?: string;
  natsBin: string;
  source: boolean;
  timeout: number;
}

function liveProcs(state: ClusterState) {
  return [
    ...state.hubs.map((h) => ({ pid: h.pid, marker: HUB_MARKER, name: h.nodeId })),
    ...state.nats.map((n) => ({ pid: n.pid, marker: NATS_MARKER, name: n.name })),
  ].filter((p) => isOurs(p.pid, p.marker));
}

/** Ports for hub indices [from, from + n): from the fixed layout, or picked free. */
async function hubPorts(state: ClusterState, from: number, n: number): Promise<number[]> {
  const base = state.basePort;
  const ports =
    base === null
      ? await freePorts(n)
      : Array.from({ length: n }, (_, i) => fixedPorts.hub(base, from + i));
  await assertFree(ports);
  return ports;
}

async function assertFree(ports: readonly number[]): Promise<void> {
  const busy: number[] = [];
  for (const p of ports) if (!(await portFree(p))) busy.push(p);
  if (busy.length) {
    throw new Error(
      `port(s) ${busy.join(', ')} already in use on 127.0.0.1; pick another --base-port`
    );
  }
}

async function startHubs(
  state: ClusterState,
  n: number,
  opts: { source: boolean; timeout: number }
) {
  const root = projectRoot();
  const from = state.hubs.length;
  const ports = await hubPorts(state, from, n);
  const env = operatorEnv();
  const started: HubEntry[] = [];
  for (let k = 0; k < n; k++) {
    const index = from + k;
    const hub = startHub(root, {
      nodeId: `hub-${index + 1}`,
      port: ports[k]!,
      index,
      nats: state.nats,
      databaseUrl: state.databaseUrl,
      dir: state.dir,
      fromSource: opts.source,
      env,
    });
    started.push(hub);
    state.hubs.push(hub);
    // Recorded before waiting, so a failed start can still be stopped by pid.
    writeState(state);
    out(`hub ${hub.nodeId}: pid ${hub.pid}, http://127.0.0.1:${hub.port} (${hub.command})`);
  }
  await waitHubsHealthy(started, opts.timeout);
}

async function start(opts: StartOpts): Promise<void> {
  const dir = resolve(opts.dir);
  const previous = readState(dir);
  if (previous && liveProcs(previous).length > 0) {
    throw new Error(`a cluster is already running from ${dir}; run stop first`);
  }
  mkdirSync(dir, { recursive: true });
  const databaseUrl = opts.databaseUrl ?? operatorEnv().DATABASE_URL ?? DEFAULT_DATABASE_URL;

  let plans: NatsPlan[];
  if (opts.basePort === 'auto') {
    const ports = await freePorts(NATS_NODES * 3);
    plans = Array.from({ length: NATS_NODES }, (_, i) => ({
      name: `nats-${i + 1}`,
      port: ports[i * 3]!,
      monitorPort: ports[i * 3 + 1]!,
      routePort: ports[i * 3 + 2]!,
    }));
  } else {
    const base = opts.basePort;
    plans = Array.from({ length: NATS_NODES }, (_, i) => ({
      name: `nats-${i + 1}`,
      port: fixedPorts.natsClient(base, i),
      monitorPort: fixedPorts.natsMonitor(base, i),
      routePort: fixedPorts.natsRoute(base, i),
    }));
  }
  await assertFree(plans.flatMap((p) => [p.port, p.monitorPort, p.routePort]));

  const state: ClusterState = {
    dir,
    // Fixed per state dir, so a restart finds its JetStream store; unique enough that two
    // clusters on one machine never merge (they also use different route ports).
    clusterName: `burrow-${opts.basePort === 'auto' ? plans[0]!.routePort : opts.basePort}`,
    databaseUrl,
    basePort: opts.basePort === 'auto' ? null : opts.basePort,
    nats: [],
    hubs: [],
  };
  const syncAlways = supportsSyncAlways(opts.natsBin);
  out(
    syncAlways
      ? 'nats: sync_interval always (JetStream flushes to disk before each acknowledgement)'
      : 'nats: this nats-server does not support sync_interval (2.10+); JetStream flushes to disk ' +
          'every 2 minutes, so power loss can lose acknowledged writes (docs/OPERATIONS.md "Power loss")'
  );
  try {
    state.nats = startNats(plans, {
      bin: opts.natsBin,
      clusterName: state.clusterName,
      dir,
      cwd: dir,
      syncAlways,
    });
    writeState(state);
    for (const n of state.nats) {
      out(
        `nats ${n.name}: pid ${n.pid}, nats://127.0.0.1:${n.port} (monitor :${n.monitorPort}, routes :${n.routePort})`
      );
    }
    await waitNatsReady(state.nats, 30_000);
    out(`nats: JetStream meta leader ${await metaLeader(state.nats[0]!.monitorPort)}`);
    // The first node provisions every stream and lock (R3 Raft groups) alone; the others then
    // start together and find them in place. Several first starts at once time out on 2 cores.
    await startHubs(state, 1, opts);
    if (opts.nodes > 1) await startHubs(state, opts.nodes - 1, opts);
  } catch (err) {
    out(`start failed; stopping what was started`);
    await stopState(state, 10_000);
    throw err;
  }
  out(`cluster up: ${state.hubs.length} hub node(s), state in ${join(dir, 'state.json')}`);
}

async function add(opts: CommonOpts & { count: number; source: boolean; timeout: number }) {
  const state = mustState(opts.dir);
  await startHubs(state, opts.count, opts);
  out(`cluster has ${state.hubs.length} hub node(s)`);
}

function mustState(dirOpt: string): ClusterState {
  const dir = resolve(dirOpt);
  const state = readState(dir);
  if (!state) throw new Error(`no cluster state in ${dir} (start one first)`);
  return state;
}

/** Hubs first (SIGTERM: they hand their partitions over), then NATS; SIGKILL after the grace. */
async function stopState(state: ClusterState, graceMs: number): Promise<void> {
  const hubs = state.hubs.map((h) => ({ ...h, marker: HUB_MARKER }));
  const r1 = await stopProcesses(hubs, graceMs);
  for (const h of r1.terminated) out(`hub ${h.nodeId} (pid ${h.pid}) stopped`);
  for (const h of r1.killed) out(`hub ${h.nodeId} (pid ${h.pid}) killed after ${graceMs} ms`);
  const nats = state.nats.map((n) => ({ ...n, marker: NATS_MARKER }));
  const r2 = await stopProcesses(nats, Math.min(graceMs, 10_000));
  for (const n of r2.terminated) out(`nats ${n.name} (pid ${n.pid}) stopped`);
  for (const n of r2.killed) out(`nats ${n.name} (pid ${n.pid}) killed`);
}

async function stop(opts: CommonOpts & { timeout: number; clean: boolean }) {
  const dir = resolve(opts.dir);
  const state = readState(dir);
  if (!state) {
    out(`no cluster state in ${dir}; nothing to stop`);
  } else {
    await stopState(state, opts.timeout);
    removeState(dir);
  }
  if (opts.clean) {
    rmSync(dir, { recursive: true, force: true });
    out(`removed ${dir}`);
  }
}

interface StatusRow {
  role: 'nats' | 'hub';
  name: string;
  pid: number;
  port: number;
  alive: boolean;
  health: string;
}

async function statusRows(state: ClusterState): Promise<StatusRow[]> {
  const nats = await Promise.all(
    state.nats.map(async (n): Promise<StatusRow> => {
      const alive = isOurs(n.pid, NATS_MARKER);
      const leader = alive ? await metaLeader(n.monitorPort) : undefined;
      return {
        role: 'nats',
        name: n.name,
        pid: n.pid,
        port: n.port,
        alive,
        health: alive ? (leader ? `meta leader ${leader}` : 'no meta leader') : '-',
      };
    })
  );
  const hubs = await Promise.all(
    state.hubs.map(async (h): Promise<StatusRow> => {
      const alive = isOurs(h.pid, HUB_MARKER);
      const hh = alive ? await hubHealth(h.port) : {};
      const checks = hh.body?.checks ? ` ${JSON.stringify(hh.body.checks)}` : '';
      return {
        role: 'hub',
        name: h.nodeId,
        pid: h.pid,
        port: h.port,
        alive,
        health: hh.http === undefined ? '-' : `${hh.http} ${hh.body?.status ?? ''}${checks}`.trim(),
      };
    })
  );
  return [...nats, ...hubs];
}

async function status(opts: CommonOpts & { json: boolean }) {
  const state = mustState(opts.dir);
  const rows = await statusRows(state);
  if (opts.json) {
    out(JSON.stringify({ dir: state.dir, databaseUrl: state.databaseUrl, processes: rows }));
    return;
  }
  out(`cluster in ${state.dir}, database ${state.databaseUrl.replace(/\/\/[^@/]*@/, '//…@')}`);
  const table = [['ROLE', 'NAME', 'PID', 'PORT', 'ALIVE', 'HEALTH']].concat(
    rows.map((r) => [
      r.role,
      r.name,
      String(r.pid),
      String(r.port),
      r.alive ? 'yes' : 'no',
      r.health,
    ])
  );
  const widths = table[0]!.map((_, c) => Math.max(...table.map((r) => r[c]!.length)));
  for (const r of table)
    out(
      r
        .map((cell, c) => cell.padEnd(widths[c]!))
        .join('  ')
        .trimEnd()
    );
}

const program = new Command()
  .name('cluster')
  .description(
    'A local Burrow cluster: 3 NATS servers (JetStream, R3) and N hub nodes on loopback.'
  )
  .showHelpAfterError();
const dirOption = [
  '--dir <path>',
  'state dir: pids, ports, logs, NATS stores',
  '.cluster',
] as const;

program
  .command('start')
  .description('start the NATS cluster and N hub nodes')
  .option(...dirOption)
  .option('--nodes <n>', 'hub nodes', int('--nodes', 1), 2)
  .option(
    '--base-port <port|auto>',
    `first port of the layout: NATS B..B+2, routes B+10.., monitor B+20.., hubs B+100..; "auto" picks free ports`,
    basePort,
    DEFAULT_BASE_PORT
  )
  .option(
    '--database-url <url>',
    `shared database (default $DATABASE_URL or ${DEFAULT_DATABASE_URL})`
  )
  .option('--nats-bin <path>', 'nats-server binary', '/usr/sbin/nats-server')
  .option('--source', 'run the hubs from TypeScript (tsx) even when dist/ is built', false)
  .option(
    '--timeout <ms>',
    'how long the hubs may take to become healthy',
    int('--timeout', 1),
    120_000
  )
  .action((o: StartOpts) => start(o));

program
  .command('add')
  .description('add hub nodes to the running cluster (partitions move to them)')
  .option(...dirOption)
  .option('--count <n>', 'hub nodes to add', int('--count', 1), 1)
  .option('--source', 'run the hubs from TypeScript (tsx) even when dist/ is built', false)
  .option(
    '--timeout <ms>',
    'how long the hubs may take to become healthy',
    int('--timeout', 1),
    120_000
  )
  .action((o: CommonOpts & { count: number; source: boolean; timeout: number }) => add(o));

program
  .command('status')
  .description("each process: pid, port, alive, and the hubs' /health")
  .option(...dirOption)
  .option('--json', 'one JSON line instead of a table', false)
  .action((o: CommonOpts & { json: boolean }) => status(o));

program
  .command('stop')
  .description('SIGTERM the hubs, then NATS, by their recorded pids; SIGKILL after the timeout')
  .option(...dirOption)
  .option('--timeout <ms>', 'grace period before SIGKILL', int('--timeout', 1), 20_000)
  .option('--clean', 'also remove the state dir (logs and NATS stores)', false)
  .action((o: CommonOpts & { timeout: number; clean: boolean }) => stop(o));

program.parseAsync().catch((err: unknown) => {
  process.stderr.write(`cluster: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
