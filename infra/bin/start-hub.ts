// Composition root: builds one hub node from a Config (NATS, PostgreSQL, cluster membership,
// partition ownership, the actor host, the gateway) and returns a handle that stops it cleanly.
// infra/bin/hub.ts runs it as a process; tests start several in one process.
import type postgres from 'postgres';
import type { Config } from '../../runtime/config/index.js';
import type { Logger } from '../../runtime/log/index.js';
import { createMetrics, type HubMetrics } from '../../runtime/metrics/index.js';
import { connectBus, provision, type Bus } from '../../runtime/bus/index.js';
import { Membership, PartitionManager } from '../../runtime/cluster/index.js';
import { ActorHost } from '../../runtime/host/index.js';
import { MachineRegistry } from '../../runtime/inspect/index.js';
import { allMachines } from '../../actors/index.js';
import {
  createGateway,
  type Gateway,
  type HealthReport,
  type RpcHandler,
} from '../../gateway/index.js';
import { createDb, ensureDatabase, migrate } from '../db/index.js';

export interface Hub {
  readonly config: Config;
  readonly port: number;
  readonly url: string;
  readonly bus: Bus;
  readonly sql: postgres.Sql;
  readonly host: ActorHost;
  readonly partitions: PartitionManager;
  readonly metrics: HubMetrics;
  readonly registry: MachineRegistry;
  /** Graceful stop: stop accepting, finish in-flight work, hand partitions over, close connections. */
  stop(): Promise<void>;
}

export async function startHub(config: Config, log: Logger): Promise<Hub> {
  const metrics = createMetrics({ nodeId: config.nodeId });
  const registry = new MachineRegistry();

  await ensureDatabase(config.databaseUrl);
  const sql = createDb(config.databaseUrl, { log });
  const { applied } = await migrate(sql, { log });
  if (applied.length) log.info({ applied }, 'migrations applied');

  const bus = await connectBus({
    servers: config.natsServers,
    name: `burrow-${config.nodeId}`,
    replicas: config.natsReplicas,
    log,
  });
  const topology = {
    partitions: config.partitions,
    replicas: config.natsReplicas,
    nodeTtlMs: config.nodeTtlMs,
  };
  await provision(bus, topology);
  // A NATS server that comes back empty (no persistent store) needs its streams again.
  bus.onReconnect(() => {
    provision(bus, topology).catch((err: unknown) => log.warn({ err }, 're-provision failed'));
  });

  const host = new ActorHost({
    bus,
    nodeId: config.nodeId,
    partitions: config.partitions,
    log: log.child({ component: 'host' }),
    metrics,
    registry,
  });
  for (const m of allMachines) host.define(m.id, m);
  host.start();

  const membership = new Membership({
    bus,
    self: { nodeId: config.nodeId, publicUrl: config.publicUrl, startedAt: Date.now() },
    heartbeatMs: config.heartbeatMs,
    nodeTtlMs: config.nodeTtlMs,
    log: log.child({ component: 'membership' }),
  });
  await membership.start();
  const partitions = new PartitionManager({
    bus,
    membership,
    nodeId: config.nodeId,
    partitions: config.partitions,
    lockInactiveMs: config.lockInactiveMs,
    tickMs: config.heartbeatMs,
    handler: host,
    log: log.child({ component: 'partitions' }),
    metrics,
  });
  partitions.start();

  const health = async (): Promise<HealthReport> => {
    const [nats, pg] = await Promise.all([
      bus.ping(config.healthCheckTimeoutMs),
      pingPostgres(sql, config.healthCheckTimeoutMs),
    ]);
    return { nats: nats ? 'ok' : 'down', postgres: pg ? 'ok' : 'down' };
  };

  const rpc = new Map<string, RpcHandler>();
  const gateway: Gateway = createGateway({
    config,
    log: log.child({ component: 'gateway' }),
    metrics,
    health,
    rpc,
    debug: {
      machineIds: () => registry.ids(),
      machineDefinition: (id) => registry.definition(id),
      actorSnapshot: (systemId) => host.lookup(systemId),
      cluster: () => Promise.resolve({ ...partitions.view(), actors: host.localSummary() }),
    },
  });
  const port = await gateway.listen();
  log.info({ port, nodeId: config.nodeId, publicUrl: config.publicUrl }, 'hub listening');

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      gateway.stopAccepting();
      await gateway.drain(Math.floor(config.shutdownTimeoutMs / 2));
      await membership.drain();
      await partitions.stop();
      host.stop();
      await membership.stop();
      gateway.close();
      await bus.close();
      await sql.end({ timeout: 2 });
      log.info('hub stopped');
    })());

  return {
    config,
    port,
    url: `http://127.0.0.1:${port}`,
    bus,
    sql,
    host,
    partitions,
    metrics,
    registry,
    stop,
  };
}

async function pingPostgres(sql: postgres.Sql, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      sql`select 1`.then(() => true),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), timeoutMs))),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
