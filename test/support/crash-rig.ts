// What an e2e test of kill -9 of a hub process sets up: a NATS server and a migrated database of
// its own, an HTTP A2A agent on loopback whose requests the test answers (or holds open), and hub
// processes started as cluster nodes with short heartbeats, each waited on until it owns every
// partition (the node before it was killed). close() keeps the hubs' logs and removes the rest.
import type { ServerResponse } from 'node:http';
import { startNatsServer, type NatsServerHandle } from './nats-server.js';
import { createTestDatabase, type TestDatabase } from './postgres.js';
import { startHubProcess, type HubProcess } from './hub-process.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';
import { QUEUE_ADMIN_TOKEN, keepHubLogs, waitOwnership } from './queue-helpers.js';
import { createDb, migrate, type Db } from '../../infra/db/index.js';

export interface CrashRigOptions {
  /** Names the database (burrow_<name>, dashes as underscores) and the kept hub logs. */
  readonly name: string;
  readonly partitions: number;
  /** More hub environment (PUBLIC_URL, …). */
  readonly env?: Record<string, string>;
  /** Each JSON-RPC request the agent receives, parsed; the handler answers `res`, or holds it. */
  agent(rpc: unknown, res: ServerResponse): void;
}

export interface CrashRig {
  readonly sql: Db;
  /** The agent's A2A URL (…/a2a), to register it as an HTTP agent. */
  readonly agentUrl: string;
  /**
   * Starts a hub process and waits until it owns every partition, or, joining the live nodes
   * `alongside`, until they and it own them all between them, each at least one.
   */
  startNode(nodeId: string, alongside?: readonly HubProcess[]): Promise<HubProcess>;
  close(): Promise<void>;
}

export async function startCrashRig(o: CrashRigOptions): Promise<CrashRig> {
  const started: HubProcess[] = [];
  const nats: NatsServerHandle = await startNatsServer();
  // A setup that fails half-way leaves nothing behind either.
  const db: TestDatabase = await createTestDatabase(`burrow_${o.name.replaceAll('-', '_')}`).catch(
    async (err: unknown) => {
      await nats.close();
      throw err;
    }
  );
  const sql = createDb(db.url, { max: 2 });
  let agent: FixtureServer;
  try {
    await migrate(sql);
    agent = await startFixtureServer((req, res) => o.agent(JSON.parse(req.body) as unknown, res));
  } catch (err) {
    await sql.end({ timeout: 5 });
    await nats.close();
    await db.drop();
    throw err;
  }
  return {
    sql,
    agentUrl: `${agent.origin}/a2a`,
    async startNode(nodeId, alongside = []) {
      const p = await startHubProcess({
        env: {
          NATS_URL: nats.url,
          DATABASE_URL: db.url,
          ADMIN_TOKEN: QUEUE_ADMIN_TOKEN,
          NODE_ID: nodeId,
          ...o.env,
          PARTITIONS: String(o.partitions),
          HEARTBEAT_MS: '300',
          NODE_TTL_MS: '2000',
          LOCK_INACTIVE_MS: '2000',
          LOG_LEVEL: process.env.BURROW_TEST_HUB_LOG_LEVEL ?? 'info',
        },
        readyTimeoutMs: 60_000,
      });
      started.push(p);
      await waitOwnership([...alongside.map((h) => h.url), p.url], o.partitions, {
        ms: 45_000,
        eachOwnsOne: alongside.length > 0,
      });
      return p;
    },
    async close() {
      keepHubLogs(o.name, started);
      await Promise.all(started.map((p) => p.close()));
      // Requests the agent still holds open are cut.
      await agent.close();
      await sql.end({ timeout: 5 });
      await nats.close();
      await db.drop();
    },
  };
}
