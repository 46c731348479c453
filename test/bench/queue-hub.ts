// What the queue benchmarks share: a hub process on its own nats-server and database, with the
// per-sender and per-tenant queue limits and the rate limit lifted (the benchmarks measure the
// queues' speed, not their limits), one sender and any number of offline WebSocket recipients;
// and the hub's own view of its queues through /debug (the admin token is the benchmark's).
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { startHubProcess, type HubProcess } from '../support/hub-process.js';
import { benchHubOptions } from './built-hub.js';
import { until } from '../support/test-hub.js';
import { createAgent, createDb, createTenant, type Db } from '../../infra/db/index.js';

export const ADMIN_TOKEN = 'bench-admin-token-0123456789';

export type BenchAgent = Awaited<ReturnType<typeof createAgent>>;

export interface QueueHub {
  nats: NatsServerHandle;
  db: TestDatabase;
  hub: HubProcess;
  sql: Db;
  sender: BenchAgent;
  /** Start a new hub process on the same NATS and database (the old one must be gone). */
  restartHub(): Promise<HubProcess>;
  /** `n` more WebSocket agents (never connected, so offline) in the sender's tenant. */
  recipients(n: number): Promise<BenchAgent[]>;
  close(): Promise<void>;
}

const hubEnv = (nats: NatsServerHandle, db: TestDatabase) => ({
  NATS_URL: nats.url,
  DATABASE_URL: db.url,
  LOG_LEVEL: 'warn',
  QUEUE_TENANT_MAX_PENDING: '100000000',
  QUEUE_SENDER_MAX_PENDING: '100000000',
  RATE_LIMIT_PER_MINUTE: '1000000',
  ADMIN_TOKEN,
});

/** `nodeArgs`: flags for the hub's node (HUB_NODE_ARGS adds more, e.g. for a --cpu-prof). */
export async function startQueueHub(
  dbPrefix: string,
  nodeArgs: readonly string[] = []
): Promise<QueueHub> {
  const nats = await startNatsServer();
  const db = await createTestDatabase(dbPrefix);
  const start = async () => {
    const hub = await startHubProcess({
      ...benchHubOptions(),
      env: hubEnv(nats, db),
      // e.g. HUB_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the hub under load.
      nodeArgs: [...nodeArgs, ...(process.env.HUB_NODE_ARGS?.split(' ') ?? [])],
    });
    // Messages sent before the hub owns its partitions would wait for them: start once it does.
    await until(async () => (await clusterView(hub.url)).queues.length > 0, 60_000);
    return hub;
  };
  // The hub migrates the database as it starts.
  const first = await start();
  const sql = createDb(db.url, { max: 8 });
  const tenant = await createTenant(sql, { name: 'QBench' });
  const sender = await createAgent(sql, { tenantId: tenant.id, name: 'sender' });
  let made = 0;
  const q: QueueHub = {
    nats,
    db,
    hub: first,
    sql,
    sender,
    async restartHub() {
      q.hub = await start();
      return q.hub;
    },
    async recipients(n) {
      const out: BenchAgent[] = new Array<BenchAgent>(n);
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let i = next++; i < n; i = next++) {
            out[i] = await createAgent(sql, { tenantId: tenant.id, name: `r${made + i}` });
          }
        })
      );
      made += n;
      return out;
    },
    async close() {
      await sql.end({ timeout: 2 });
      q.hub.kill('SIGTERM');
      await q.hub.exited;
      await nats.close();
      await db.drop();
    },
  };
  return q;
}

export interface ClusterView {
  queues: Array<{ queued: number }>;
  connections?: number;
}

export async function clusterView(url: string): Promise<ClusterView> {
  const r = await fetch(`${url}/debug/cluster`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  if (!r.ok) throw new Error(`/debug/cluster answered ${r.status}`);
  return (await r.json()) as ClusterView;
}

/** How many messages the hub's queues hold, all partitions it owns. */
export async function queuedOn(url: string): Promise<number> {
  return (await clusterView(url)).queues.reduce((a, q) => a + q.queued, 0);
}
