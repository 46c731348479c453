// The three-node NATS cluster of a local Burrow cluster (nats-2.9.md §5): plain nats-server
// processes on loopback with JetStream, each with its own store, routes to all three, and a pid
// file. Ready once every node's /jsz names a JetStream meta leader. Where the server supports it
// (2.10 and later) each node also gets `sync_interval: always` from a config file: JetStream then
// flushes to disk before it acknowledges, so an acknowledged write survives power loss
// (docs/OPERATIONS.md "Power loss").
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NATS_NODES, type NatsEntry } from './layout.js';
import { logTail, sleep, spawnDetached } from './processes.js';

export const NATS_MARKER = 'nats-server';

export interface NatsPlan {
  name: string;
  port: number;
  monitorPort: number;
  routePort: number;
}

/** The config file of a node when the server supports it: the options with no command-line flag. */
export const SYNC_ALWAYS_CONFIG = 'jetstream {\n  sync_interval: always\n}\n';

/** Does `bin` accept this configuration (`nats-server -c file -t`, which only checks it)? */
export function serverAccepts(bin: string, config: string): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'burrow-nats-probe-'));
  try {
    const file = join(dir, 'probe.conf');
    writeFileSync(file, config);
    const r = spawnSync(bin, ['-c', file, '-t'], { encoding: 'utf8', timeout: 10_000 });
    return r.status === 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** 2.10 and later know `sync_interval`; 2.9 refuses the config ("unknown field"). */
export const supportsSyncAlways = (bin: string) => serverAccepts(bin, SYNC_ALWAYS_CONFIG);

export function natsArgs(
  plan: NatsPlan,
  all: readonly NatsPlan[],
  clusterName: string,
  dir: string,
  configFile?: string
) {
  const routes = all.map((n) => `nats://127.0.0.1:${n.routePort}`).join(',');
  // Listing a node's own route among the routes is fine: it logs a harmless duplicate route.
  // The flags override the config file, which holds only what has no flag.
  return [
    ...(configFile ? ['-c', configFile] : []),
    ...['-a', '127.0.0.1', '-p', String(plan.port), '-m', String(plan.monitorPort)],
    ...['-n', plan.name, '--cluster_name', clusterName],
    ...['--cluster', `nats://127.0.0.1:${plan.routePort}`, '--routes', routes],
    ...['-js', '-sd', join(dir, plan.name), '-P', join(dir, `${plan.name}.pid`)],
  ];
}

export function startNats(
  plans: readonly NatsPlan[],
  opts: { bin: string; clusterName: string; dir: string; cwd: string; syncAlways: boolean }
): NatsEntry[] {
  if (plans.length !== NATS_NODES) throw new Error(`a NATS cluster here has ${NATS_NODES} nodes`);
  const natsDir = join(opts.dir, 'nats');
  mkdirSync(natsDir, { recursive: true });
  let configFile: string | undefined;
  if (opts.syncAlways) {
    configFile = join(opts.dir, 'nats.conf');
    writeFileSync(configFile, SYNC_ALWAYS_CONFIG);
  }
  return plans.map((p) => {
    const logFile = join(opts.dir, `${p.name}.log`);
    const args = natsArgs(p, plans, opts.clusterName, natsDir, configFile);
    const pid = spawnDetached(opts.bin, args, {
      cwd: opts.cwd,
      env: { PATH: '/usr/sbin:/usr/bin:/bin' },
      logFile,
    });
    return { ...p, pid, storeDir: join(natsDir, p.name), logFile };
  });
}

/** The JetStream meta leader node `monitorPort` sees, or undefined. */
export async function metaLeader(monitorPort: number): Promise<string | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${monitorPort}/jsz`, {
      signal: AbortSignal.timeout(1000),
    });
    if (!res.ok) return undefined;
    const jsz = (await res.json()) as { meta_cluster?: { leader?: string } };
    return jsz.meta_cluster?.leader || undefined;
  } catch {
    return undefined;
  }
}

export async function waitNatsReady(nodes: readonly NatsEntry[], ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const leaders = await Promise.all(nodes.map((n) => metaLeader(n.monitorPort)));
    if (leaders.every((l) => l !== undefined)) return;
    if (Date.now() > deadline) {
      const waiting = nodes.filter((_, i) => leaders[i] === undefined);
      throw new Error(
        `NATS not ready after ${ms} ms (no meta leader seen by ${waiting.map((n) => n.name).join(', ')})\n` +
          waiting.map((n) => `--- ${n.logFile}\n${logTail(n.logFile)}`).join('\n')
      );
    }
    await sleep(250);
  }
}
