// Where a local cluster lives: the ports of its three NATS servers and N hub nodes, and the state
// file (`<dir>/state.json`) that records every process id, so `stop` and `status` act on exactly
// the processes `start` created and never on anything found by name.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';

export const NATS_NODES = 3;

export interface NatsEntry {
  /** Server name (-n), as JetStream reports leaders and peers. */
  name: string;
  pid: number;
  port: number;
  monitorPort: number;
  routePort: number;
  storeDir: string;
  logFile: string;
}

export interface HubEntry {
  nodeId: string;
  pid: number;
  port: number;
  logFile: string;
  /** How it was started (for status and the docs): `node dist/…` or `node --import tsx …`. */
  command: string;
}

export interface ClusterState {
  dir: string;
  clusterName: string;
  databaseUrl: string;
  /** The first port of the fixed layout, or null when every port was picked free at start. */
  basePort: number | null;
  nats: NatsEntry[];
  hubs: HubEntry[];
}

/**
 * The fixed port layout from a base port B: NATS clients B..B+2, routes B+10..B+12, monitoring
 * B+20..B+22, hub i (0-based) at B+100+i. One block of 100+N ports, easy to open in a firewall.
 */
export const fixedPorts = {
  natsClient: (base: number, i: number) => base + i,
  natsRoute: (base: number, i: number) => base + 10 + i,
  natsMonitor: (base: number, i: number) => base + 20 + i,
  hub: (base: number, i: number) => base + 100 + i,
};

/** True if nothing listens on 127.0.0.1:port and we may bind it. */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** `n` distinct ports free right now (held open together so they differ, then released). */
export async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const s = createServer();
          s.once('error', reject);
          s.listen(0, '127.0.0.1', () => resolve(s));
        })
    )
  );
  const ports = servers.map((s) => (s.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

const stateFile = (dir: string) => join(dir, 'state.json');

export function readState(dir: string): ClusterState | undefined {
  try {
    return JSON.parse(readFileSync(stateFile(dir), 'utf8')) as ClusterState;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Write through a temp file and rename, so a crash mid-write never leaves half a state file. */
export function writeState(state: ClusterState): void {
  mkdirSync(state.dir, { recursive: true });
  const tmp = `${stateFile(state.dir)}.tmp`;
  writeFileSync(tmp, JSON.stringify(state, null, 2) + '\n');
  renameSync(tmp, stateFile(state.dir));
}

export function removeState(dir: string): void {
  try {
    renameSync(stateFile(dir), join(dir, 'state.stopped.json'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
