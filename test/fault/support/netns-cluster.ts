// The partition fault test's system: 3 NATS servers (clustered JetStream, R3) and 2 hub nodes, each
// in a network namespace of its own (netns.ts), fixed ports inside each namespace. The hubs reach
// PostgreSQL (127.0.0.1:5432, root namespace) through a forwarder on the bridge's service address;
// the test process reaches the hubs and the NATS monitoring ports from the clients' address.
import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeDir, trackDir } from '../../support/cleanup.js';
import { NatsProcess, getJson } from '../../support/nats-process.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { startHubProcess, type HubProcess } from '../../support/hub-process.js';
import { QUEUE_ADMIN_TOKEN, keepHubLogs, waitOwnership } from '../../support/queue-helpers.js';
import { createDb, type Db } from '../../../infra/db/index.js';
import { FAULT_PARTITIONS } from './fault-cluster.js';
import { createNetLab, type NetLab } from './netns.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

export const NATS_NODES = ['nats1', 'nats2', 'nats3'] as const;
export const HUB_NODES = ['hub1', 'hub2'] as const;
const CLIENT_PORT = 4222;
const MONITOR_PORT = 8222;
const ROUTE_PORT = 6222;
const HUB_PORT = 8080;

/** The port `to` listens on for connections from `from` (a hub, a NATS server, or 'clients'). */
export function portFor(from: string, to: string): number {
  if ((HUB_NODES as readonly string[]).includes(to)) return HUB_PORT;
  return (NATS_NODES as readonly string[]).includes(from) ? ROUTE_PORT : CLIENT_PORT;
}

export interface NetnsCluster {
  readonly lab: NetLab;
  readonly sql: Db;
  /** In HUB_NODES order. */
  readonly hubs: HubProcess[];
  /** The hub started in namespace `name`. */
  hub(name: string): HubProcess;
  /** The JetStream meta leader as NATS node `name` sees it (undefined: none, or unreachable). */
  metaLeader(name: string): Promise<string | undefined>;
  waitOwnership(opts?: { eachOwnsOne?: boolean; ms?: number }): Promise<number[][]>;
  close(): Promise<void>;
}

interface Jsz {
  meta_cluster?: { leader?: string };
}

/** The JetStream meta leader as NATS node `n` sees it (undefined: none); throws if unreachable. */
async function metaLeaderSeenBy(lab: NetLab, n: string): Promise<string | undefined> {
  const jsz = (await getJson(`${natsMonitorUrl(lab, n)}/jsz`)) as Jsz;
  return jsz.meta_cluster?.leader || undefined;
}

/** NATS node `n`'s monitoring endpoint, as the test process reaches it. */
export function natsMonitorUrl(lab: NetLab, n: string): string {
  return `http://${lab.node(n).addr}:${MONITOR_PORT}`;
}

/** NATS node `n`'s client URL, as the test process reaches it. */
export function natsClientUrl(lab: NetLab, n: string): string {
  return `nats://${lab.node(n).addr}:${CLIENT_PORT}`;
}

/**
 * The 3 NATS servers of NATS_NODES, clustered with JetStream (file store under `dir`), one in each
 * namespace of `lab` of that name; resolves once each sees a meta leader. Each process is put in
 * `into` as it is spawned, so the caller stops them even if the wait fails.
 */
export async function startNatsServers(
  lab: NetLab,
  dir: string,
  into: Map<string, NatsProcess>
): Promise<void> {
  const clusterName = `burrow-netns-${randomBytes(4).toString('hex')}`;
  const routes = NATS_NODES.map((n) => `nats://${lab.node(n).addr}:${ROUTE_PORT}`).join(',');
  for (const n of NATS_NODES) {
    const proc = new NatsProcess(join(dir, `${n}.log`), lab.node(n).ns);
    into.set(n, proc);
    proc.spawn([
      ...['-a', '0.0.0.0', '-p', String(CLIENT_PORT), '-m', String(MONITOR_PORT)],
      ...['-n', `hub-${n}`, '--cluster_name', clusterName],
      ...['--cluster', `nats://0.0.0.0:${ROUTE_PORT}`, '--routes', routes],
      ...['-js', '-sd', join(dir, n), '-l', join(dir, `${n}.log`), '-P', join(dir, `${n}.pid`)],
    ]);
  }
  await Promise.all(
    NATS_NODES.map((n) =>
      into.get(n)!.waitFor('seeing a JetStream meta leader', () => metaLeaderSeenBy(lab, n), 60_000)
    )
  );
}

/** `env`: more hub settings (a test's, e.g. its HTTP agents' retry interval). */
export async function startNetnsCluster(
  name: string,
  env: Record<string, string> = {}
): Promise<NetnsCluster> {
  const lab = createNetLab([...NATS_NODES, ...HUB_NODES]);
  const dir = mkdtempSync(join(tmpdir(), 'burrow-netns-'));
  trackDir(dir);
  const nats = new Map<string, NatsProcess>();
  const hubs: HubProcess[] = [];
  let db: TestDatabase | undefined;
  let proxy: TcpProxy | undefined;
  let sql: Db | undefined;
  const metaLeader = (n: string) => metaLeaderSeenBy(lab, n);

  const close = async () => {
    keepHubLogs(name, hubs);
    await Promise.all(hubs.map((h) => h.close()));
    await sql?.end({ timeout: 5 });
    await proxy?.close();
    await Promise.all([...nats.values()].map((p) => p.stop()));
    await db?.drop();
    lab.close();
    removeDir(dir);
  };

  try {
    await startNatsServers(lab, dir, nats);
    db = await createTestDatabase('burrow_fault');
    const dbUrl = new URL(db.url);
    proxy = await startTcpProxy(Number(dbUrl.port || 5432), {
      listenHost: lab.service,
      targetHost: dbUrl.hostname,
    });
    dbUrl.hostname = lab.service;
    dbUrl.port = String(proxy.port);
    sql = createDb(db.url, { max: 4 });
    const natsUrls = NATS_NODES.map((n) => natsClientUrl(lab, n));
    // One at a time: the first provisions the streams and locks alone (several at once time out).
    for (const [i, n] of HUB_NODES.entries()) {
      const node = lab.node(n);
      hubs.push(
        await startHubProcess({
          env: {
            // Each hub lists the NATS servers in a different order, so they start on different ones.
            NATS_URL: [...natsUrls.slice(i), ...natsUrls.slice(0, i)].join(','),
            DATABASE_URL: dbUrl.toString(),
            ADMIN_TOKEN: QUEUE_ADMIN_TOKEN,
            NODE_ID: `${name}-${n}`,
            NATS_REPLICAS: '3',
            PARTITIONS: String(FAULT_PARTITIONS),
            RATE_LIMIT_PER_MINUTE: '100000',
            LOG_LEVEL: process.env.BURROW_TEST_HUB_LOG_LEVEL ?? 'info',
            ...env,
          },
          netns: { name: node.ns, host: node.addr, port: HUB_PORT },
          readyTimeoutMs: 120_000,
        })
      );
    }
  } catch (err) {
    await close();
    throw err;
  }

  return {
    lab,
    sql,
    hubs,
    hub: (n) => hubs[HUB_NODES.indexOf(n as (typeof HUB_NODES)[number])]!,
    metaLeader: (n) => metaLeader(n).catch(() => undefined),
    waitOwnership: (o = {}) =>
      waitOwnership(
        hubs.map((h) => h.url),
        FAULT_PARTITIONS,
        { eachOwnsOne: o.eachOwnsOne ?? true, ms: o.ms ?? 90_000 }
      ),
    close,
  };
}
