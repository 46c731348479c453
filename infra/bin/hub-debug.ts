// What the gateway's built-in /health and /debug routes read of this node: the dependency checks,
// and the machines, actors, queues and cluster view behind /debug.
import type postgres from 'postgres';
import type { Config } from '../../runtime/config/index.js';
import type { Bus } from '../../runtime/bus/index.js';
import type { PartitionManager } from '../../runtime/cluster/index.js';
import type { ActorHost } from '../../runtime/host/index.js';
import type { ActorInspection, MachineRegistry } from '../../runtime/inspect/index.js';
import type { DebugSource, HealthReport } from '../../gateway/index.js';
import type { LiveDirectory } from '../../gateway/discover/index.js';
import type {
  AgentDirectory,
  CleanupContext,
  ConnectionRegistry,
  QueueService,
} from '../../actors/index.js';
import type { AgentPool } from '../../agents/index.js';

export interface HubDebugDeps {
  registry: MachineRegistry;
  host: ActorHost;
  inspection: ActorInspection;
  directory: AgentDirectory;
  queues: QueueService;
  partitions: PartitionManager;
  cleanup: { getSnapshot(): { context: CleanupContext } };
  conns: ConnectionRegistry;
  liveDirectory: LiveDirectory | undefined;
  pools: AgentPool[];
}

export function hubDebug(d: HubDebugDeps): DebugSource {
  const { registry, host, inspection, directory, queues, partitions, cleanup, conns } = d;
  return {
    machineIds: () => registry.ids(),
    machineDefinition: (id) => registry.definition(id),
    machineGraph: (id, format) => registry.graph(id, format),
    actorSnapshot: (systemId) => host.lookup(systemId),
    queue: async (agentId) => {
      const agent = await directory.get(agentId);
      return agent ? queues.inspect(agent.tenantId, agent.id) : undefined;
    },
    inspect: {
      kinds: () => host.kindNames(),
      watch: (filter, send) => {
        // Registered first, so nothing between the announcement and the watch is missed.
        const stop = inspection.watch(filter, send);
        host.announceLive(filter, send);
        return stop;
      },
    },
    cluster: () =>
      Promise.resolve({
        ...partitions.view(),
        actors: host.localSummary(),
        queues: queues.localSummary(),
        cleanup: cleanup.getSnapshot().context,
        connections: conns.size,
        directory: d.liveDirectory?.stats() ?? null,
        pools: d.pools.map((p) => ({ agentId: p.agentId, ...p.stats() })),
      }),
  };
}

/** /health: NATS and PostgreSQL answer within the timeout; postie's SMTP listener is optional. */
export function hubHealth(
  config: Config,
  bus: Bus,
  sql: postgres.Sql,
  inboundMail: { readonly port: number | undefined }
): () => Promise<HealthReport> {
  return async () => {
    const [nats, pg] = await Promise.all([
      bus.ping(config.healthCheckTimeoutMs),
      pingPostgres(sql, config.healthCheckTimeoutMs),
    ]);
    return {
      nats: nats ? 'ok' : 'down',
      postgres: pg ? 'ok' : 'down',
      optional: { smtpInbound: inboundMail.port === undefined ? 'down' : 'ok' },
    };
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
