// The system under fault: a 3-node NATS cluster (R3 streams), hub nodes as child processes (so they
// can be killed with SIGKILL), and a database on the shared test server or on a private PostgreSQL
// instance. Timings are the production defaults (HEARTBEAT_MS 2000, NODE_TTL_MS and
// LOCK_INACTIVE_MS 10000), so the failover times measured here are the ones operators get.
import { startNatsCluster, type NatsClusterHandle } from '../../support/nats-cluster.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { startHubProcess, type HubProcess } from '../../support/hub-process.js';
import { QUEUE_ADMIN_TOKEN, keepHubLogs, waitOwnership } from '../../support/queue-helpers.js';
import { createDb, ensureDatabase, type Db } from '../../../infra/db/index.js';

/** Fewer partitions than the default 32: each is an R3 stream plus an R3 lock, slow to create here. */
export const FAULT_PARTITIONS = 8;

export interface FaultCluster {
  readonly nats: NatsClusterHandle;
  readonly databaseUrl: string;
  readonly sql: Db;
  /** Every hub started, in order (killed ones included). */
  readonly hubs: HubProcess[];
  /** Hubs not killed or stopped by the test. */
  live(): HubProcess[];
  startHub(nodeId: string, env?: Record<string, string>): Promise<HubProcess>;
  /** SIGKILL (or SIGTERM) a hub and wait for its exit. */
  stopHub(hub: HubProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<number | null>;
  waitOwnership(opts?: { eachOwnsOne?: boolean; ms?: number }): Promise<number[][]>;
  close(): Promise<void>;
}

export async function startFaultCluster(
  name: string,
  opts: { hubs: number; databaseUrl?: string; env?: Record<string, string> }
): Promise<FaultCluster> {
  const nats = await startNatsCluster();
  let db: TestDatabase | undefined;
  let databaseUrl = opts.databaseUrl;
  if (databaseUrl) await ensureDatabase(databaseUrl);
  else {
    db = await createTestDatabase(`burrow_fault`);
    databaseUrl = db.url;
  }
  const hubs: HubProcess[] = [];
  const gone = new Set<HubProcess>();
  const live = () => hubs.filter((h) => !gone.has(h));
  const startHub = async (nodeId: string, env: Record<string, string> = {}) => {
    const i = hubs.length;
    // Each node lists the NATS servers in a different order, so they start on different servers.
    const urls = [...nats.urls.slice(i % 3), ...nats.urls.slice(0, i % 3)];
    const hub = await startHubProcess({
      env: {
        NATS_URL: urls.join(','),
        DATABASE_URL: databaseUrl,
        ADMIN_TOKEN: QUEUE_ADMIN_TOKEN,
        NODE_ID: nodeId,
        NATS_REPLICAS: '3',
        PARTITIONS: String(FAULT_PARTITIONS),
        // The default 1200/min per key is for people; a test agent sends far less, but the
        // senders' retries during a failover must not meet the limiter.
        RATE_LIMIT_PER_MINUTE: '100000',
        LOG_LEVEL: process.env.BURROW_TEST_HUB_LOG_LEVEL ?? 'info',
        ...opts.env,
        ...env,
      },
      readyTimeoutMs: 120_000,
    });
    hubs.push(hub);
    return hub;
  };
  // The first node provisions the streams and locks alone (several at once time out on 2 cores).
  for (let i = 0; i < opts.hubs; i++) await startHub(`${name}-${String.fromCharCode(97 + i)}`);
  const sql = createDb(databaseUrl, { max: 4 });
  const cluster: FaultCluster = {
    nats,
    databaseUrl,
    sql,
    hubs,
    live,
    startHub,
    async stopHub(hub, signal) {
      gone.add(hub);
      hub.kill(signal);
      return (await hub.exited).code;
    },
    waitOwnership: (o = {}) =>
      waitOwnership(
        live().map((h) => h.url),
        FAULT_PARTITIONS,
        { eachOwnsOne: o.eachOwnsOne ?? true, ms: o.ms ?? 90_000 }
      ),
    async close() {
      keepHubLogs(name, hubs);
      await Promise.all(hubs.map((h) => h.close()));
      await sql.end({ timeout: 5 });
      await nats.close();
      await db?.drop();
    },
  };
  return cluster;
}
