// A 3-node nats-server cluster with clustered JetStream for failover tests (nats-2.9.md §5), on
// loopback ports chosen at run time. Ready once every node's /jsz names a meta leader.
import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeDir, trackDir } from './cleanup.js';
import { NatsProcess, freePorts, getJson } from './nats-process.js';

export interface NatsClusterNode {
  /** nats://127.0.0.1:<port>; unchanged by restart(). */
  readonly url: string;
  /** The server name (-n), as JetStream reports it for leaders and peers. */
  readonly name: string;
  readonly monitorUrl: string;
  /** The current process id; changes on restart(), -1 while down. */
  readonly pid: number;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** SIGKILL and wait for the exit: a crash. */
  kill(): Promise<void>;
  /** Start again (stopping first if running) with the same ports and store; waits until this
   *  node sees a meta leader again. */
  restart(): Promise<void>;
}

export interface NatsClusterHandle {
  /** Client URLs of all three nodes, for `connect({ servers: urls })`. */
  readonly urls: string[];
  readonly nodes: NatsClusterNode[];
  /** The JetStream meta leader's server name as node `i` sees it (undefined if none). */
  metaLeader(i?: number): Promise<string | undefined>;
  /** Stop every node and remove the temp dir. */
  close(): Promise<void>;
}

interface Jsz {
  meta_cluster?: { leader?: string };
}

const SIZE = 3;

export async function startNatsCluster(
  opts: { readyTimeoutMs?: number } = {}
): Promise<NatsClusterHandle> {
  const timeoutMs = opts.readyTimeoutMs ?? 30_000;
  const dir = mkdtempSync(join(tmpdir(), 'burrow-nats-cluster-'));
  trackDir(dir);
  // Route ports must be known before any node starts, so all ports are picked up front.
  const ports = await freePorts(SIZE * 3);
  const port = (i: number, kind: 0 | 1 | 2): number => ports[i * 3 + kind] ?? 0;
  const routes = Array.from({ length: SIZE }, (_, i) => `nats://127.0.0.1:${port(i, 2)}`).join(',');
  // A unique cluster name keeps two test runs on one machine from ever merging.
  const clusterName = `burrow-test-${randomBytes(4).toString('hex')}`;

  const members = Array.from({ length: SIZE }, (_, i) => {
    const n = `n${i + 1}`;
    const name = `hub-${n}`;
    const monitorUrl = `http://127.0.0.1:${port(i, 1)}`;
    const proc = new NatsProcess(join(dir, `${n}.log`));
    // Listing a node's own route among the routes is fine; it logs a harmless duplicate route.
    const args = [
      ...['-a', '127.0.0.1', '-p', String(port(i, 0)), '-m', String(port(i, 1))],
      ...['-n', name, '--cluster_name', clusterName],
      ...['--cluster', `nats://127.0.0.1:${port(i, 2)}`, '--routes', routes],
      ...['-js', '-sd', join(dir, n), '-l', join(dir, `${n}.log`), '-P', join(dir, `${n}.pid`)],
    ];
    return { name, monitorUrl, url: `nats://127.0.0.1:${port(i, 0)}`, proc, args };
  });

  const leaderSeenBy = async (i: number): Promise<string | undefined> => {
    const m = members[i];
    if (!m) throw new RangeError(`no node ${i}`);
    const jsz = (await getJson(`${m.monitorUrl}/jsz`)) as Jsz;
    return jsz.meta_cluster?.leader || undefined;
  };
  const waitLeader = (i: number): Promise<string> => {
    const m = members[i];
    if (!m) throw new RangeError(`no node ${i}`);
    return m.proc.waitFor('seeing a JetStream meta leader', () => leaderSeenBy(i), timeoutMs);
  };
  const stopAll = (): Promise<unknown> => Promise.all(members.map((m) => m.proc.stop()));

  try {
    for (const m of members) m.proc.spawn(m.args);
    await Promise.all(members.map((_, i) => waitLeader(i)));
  } catch (err) {
    await Promise.all(members.map((m) => m.proc.kill()));
    removeDir(dir);
    throw err;
  }

  return {
    urls: members.map((m) => m.url),
    nodes: members.map((m, i): NatsClusterNode => ({
      url: m.url,
      name: m.name,
      monitorUrl: m.monitorUrl,
      get pid() {
        return m.proc.pid;
      },
      stop: () => m.proc.stop(),
      kill: () => m.proc.kill(),
      async restart() {
        await m.proc.stop();
        m.proc.spawn(m.args);
        await waitLeader(i);
      },
    })),
    metaLeader: (i = 0) => leaderSeenBy(i),
    async close() {
      await stopAll();
      removeDir(dir);
    },
  };
}
