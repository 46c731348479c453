// Composition root: builds one hub node from a Config (NATS, PostgreSQL, cluster membership,
// partition ownership, the actor host, the gateway) and returns a handle that stops it cleanly.
// infra/bin/hub.ts runs it as a process; tests start several in one process.
import type postgres from 'postgres';
import { ConfigError, type Config } from '../../runtime/config/index.js';
import { redactedUrl, unreachable } from './startup-errors.js';
import type { Logger } from '../../runtime/log/index.js';
import { createMetrics, type HubMetrics } from '../../runtime/metrics/index.js';
import {
  connectBus,
  decodeJson,
  provision,
  subjects,
  syncAlwaysSupported,
  type Bus,
} from '../../runtime/bus/index.js';
import { Membership, PartitionManager, composeHandlers } from '../../runtime/cluster/index.js';
import type { Task } from '../../runtime/protocol/index.js';
import { CardSigner, EnvelopeSigner, jwksOf } from '../../runtime/envelope/index.js';
import { ActorHost } from '../../runtime/host/index.js';
import { ActorInspection, MachineRegistry } from '../../runtime/inspect/index.js';
import { createOutboundGuard } from '../../runtime/net/index.js';
import { createActor, fromPromise } from 'xstate';
import { cleanupMachine, msUntilNextRun, queueMachine, taskMachine } from '../../actors/index.js';
import { createGateway, type Gateway } from '../../gateway/index.js';
import { createAuthenticator, scopedAuthenticator } from '../../gateway/auth/index.js';
import {
  hubMethods,
  httpHandlers,
  meMethod,
  largeAgentRequests,
  type HubMethod,
} from '../../gateway/a2a/index.js';
import {
  AgentDirectory,
  SpendingGate,
  ConnectionRegistry,
  FrameRouter,
  Presence,
  QueueService,
  TaskIndexWriter,
  TASK_INDEX_LAG_MS,
  TaskService,
  createTaskLister,
  createOfficialHub,
} from '../../actors/index.js';
import { SocketRevoker } from '../../gateway/ws/index.js';
import { hubStreamHandlers } from '../../gateway/sse/index.js';
import { CardRenderer } from '../../gateway/a2a/cards-routes.js';
import { PushConfigs, PushSigner, createPusher } from '../../gateway/push/index.js';
import { createOutboxRelay } from '../../gateway/manage/index.js';
import { WebhookInterest, createWebhookDispatcher } from '../../gateway/webhooks/index.js';
import {
  createFailedAuthLimiter,
  createRateLimiter,
  rateLimitedAuthenticator,
} from '../../gateway/ratelimit/index.js';
import {
  discoverQueries,
  vendorMethods,
  LiveDirectory,
  UsageCounts,
} from '../../gateway/discover/index.js';
import { McpHttpSessions } from '../mcp/index.js';
import { SecretBox, workspaceMethods } from '../../gateway/workspaces/index.js';
import { accessGranted, grantedAgents } from '../../gateway/access/index.js';
import { hubRoutes } from './hub-routes.js';
import { hubDebug, hubHealth } from './hub-debug.js';
import { createEmbedder } from '../embed/index.js';
import { officialAgents, runAgentPool, agentWorkerMachine } from '../../agents/index.js';
import { startInboundMail } from '../../agents/postie/inbound.js';
import {
  contextPeer,
  createDb,
  ensureDatabase,
  loadSigningKeys,
  migrate,
  upsertOfficialAgents,
} from '../db/index.js';

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
  readonly tasks: TaskService;
  readonly presence: Presence;
  readonly queues: QueueService;
  /** The port postie's inbound SMTP listener is bound to (SMTP_LISTEN_PORT, or the one picked for 0). */
  readonly smtpPort: number | undefined;
  /** "METHOD pattern" of every route the gateway mounts. */
  routes(): string[];
  /** Graceful stop: stop accepting, finish in-flight work, hand partitions over, close connections. */
  stop(): Promise<void>;
}

export async function startHub(config: Config, log: Logger): Promise<Hub> {
  const metrics = createMetrics({ nodeId: config.nodeId, perAgent: config.metricsPerAgent });
  const registry = new MachineRegistry();
  const inspection = new ActorInspection();

  // Both dependencies are reached before anything is changed in either: a hub that cannot reach
  // NATS does not first create a database and migrate it.
  const bus = await connectBus({
    servers: config.natsServers,
    name: `burrow-${config.nodeId}`,
    replicas: config.natsReplicas,
    log,
  }).catch((err: unknown) => {
    throw unreachable('NATS', config.natsServers.join(', '), 'NATS_URL', err);
  });
  if (!syncAlwaysSupported(bus.serverVersion)) {
    log.warn(
      { natsVersion: bus.serverVersion },
      'nats-server before 2.10 flushes JetStream to disk only every 2 minutes (no sync_interval: always): ' +
        'a power loss of most NATS servers can lose acknowledged messages (docs/OPERATIONS.md "Power loss")'
    );
  }
  await ensureDatabase(config.databaseUrl).catch(async (err: unknown) => {
    await bus.close();
    throw unreachable('PostgreSQL', redactedUrl(config.databaseUrl), 'DATABASE_URL', err);
  });
  const sql = createDb(config.databaseUrl, { log, max: config.databasePoolSize });
  const { applied } = await migrate(sql, { log });
  if (applied.length) log.debug({ applied }, 'migrations applied');
  log.info(
    applied.length
      ? `database: ${applied.length} migrations applied`
      : 'database: schema up to date'
  );
  const liveDirectory = config.directoryInMemory
    ? new LiveDirectory(sql, log.child({ component: 'directory' }))
    : undefined;
  liveDirectory?.start();
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

  const keys = await loadSigningKeys(sql);
  const signer = new EnvelopeSigner(keys[0]!);
  const jwks = jwksOf(keys);

  const host = new ActorHost({
    bus,
    nodeId: config.nodeId,
    partitions: config.partitions,
    log: log.child({ component: 'host' }),
    metrics,
    registry,
    inspection,
  });
  host.define('task', taskMachine);
  // Queue and cleanup actors are not hosted (their durable state is the queued messages themselves);
  // registered for /debug/machines and machines:export.
  registry.register(queueMachine);
  registry.register(cleanupMachine);
  registry.register(agentWorkerMachine);
  host.start();

  const membership = new Membership({
    bus,
    self: { nodeId: config.nodeId, publicUrl: config.publicUrl, startedAt: Date.now() },
    heartbeatMs: config.heartbeatMs,
    nodeTtlMs: config.nodeTtlMs,
    log: log.child({ component: 'membership' }),
  });
  await membership.start();

  const rateLimiter = createRateLimiter({
    sql,
    defaultLimit: config.rateLimitPerMinute,
    log: log.child({ component: 'ratelimit' }),
  });
  rateLimiter.start();
  const outboxRelay = createOutboxRelay({
    sql,
    bus,
    log: log.child({ component: 'outbox' }),
    metrics,
  });
  outboxRelay.start();
  // One guard for every call the hub makes to a registered URL (HTTP agents, webhooks).
  const outbound = createOutboundGuard({ allowPrivate: config.outboundAllowPrivate });
  const webhooks = createWebhookDispatcher({
    sql,
    log: log.child({ component: 'webhooks' }),
    guard: outbound,
    metrics,
  });
  await webhooks.start(bus);
  // A2A push notifications: configs and delivery progress in PostgreSQL, the updates themselves
  // from the tasks index; signed with the envelope key (issue 27).
  const pusher = createPusher({
    sql,
    guard: outbound,
    signer: new PushSigner(keys[0]!, config.publicUrl),
    log: log.child({ component: 'push' }),
  });
  pusher.start();
  const pushConfigs = new PushConfigs({ sql, guard: outbound, wake: () => pusher.wake() });
  const hubKeysUrl = `${config.publicUrl.replace(/\/+$/, '')}/.well-known/hub-keys.json`;
  const cards = new CardRenderer(config.publicUrl, new CardSigner(keys[0]!, hubKeysUrl));
  const webhookInterest = new WebhookInterest({
    sql,
    bus,
    log: log.child({ component: 'webhooks' }),
  });
  webhookInterest.start();
  // Every route authenticates through this one, so every authenticated request is counted.
  const auth = rateLimitedAuthenticator(
    createAuthenticator({ sql, log: log.child({ component: 'auth' }) }),
    rateLimiter,
    () => metrics.rateLimited.inc(),
    // Wrong keys from one address meet 429 after a few dozen a minute: no guessing at line rate.
    config.authFailuresPerMinute > 0
      ? createFailedAuthLimiter({ maxFailures: config.authFailuresPerMinute })
      : undefined
  );
  const directory = new AgentDirectory(sql, bus);
  directory.start();
  directory.onChanged((agentId) => auth.invalidateAgent(agentId));
  // Each route family demands its key scope (issue 28); admin keys hold every scope.
  const messagesAuth = scopedAuthenticator(auth, 'messages');
  const manageAuth = scopedAuthenticator(auth, 'manage');
  const conns = new ConnectionRegistry();
  bus.publishes.onAcked((s) => metrics.publishSeconds.observe(s));
  metrics.onCollect(() => {
    metrics.wsConnections.set(conns.size);
    let frames = 0;
    let backedUp = 0;
    for (const c of conns.all()) {
      const n = c.backlog ?? 0;
      frames += n;
      if (n > 0) backedUp++;
    }
    metrics.wsOutboxFrames.set(frames);
    metrics.wsBackedUp.set(backedUp);
    metrics.publishPendingAcks.set(bus.publishes.pendingAcks);
  });
  // Open sockets meet a revoked key too, not only new requests.
  const revoker = new SocketRevoker(conns, sql, log.child({ component: 'ws' }));
  directory.onChanged((agentId) => revoker.agentChanged(agentId));
  revoker.start(config.wsKeyRecheckMs);
  const keyRevocations = bus.nc.subscribe(subjects.keyRevoked, {
    callback: (_e, msg) => {
      try {
        const { keyHash } = decodeJson<{ keyHash: string }>(msg.data);
        auth.invalidateKeyHash(keyHash);
        revoker.keyRevoked(keyHash);
      } catch (err) {
        log.warn({ err }, 'unreadable key revocation');
      }
    },
  });
  await upsertOfficialAgents(
    sql,
    officialAgents.map((a) => ({
      id: a.id,
      alias: a.alias,
      name: a.card.name,
      description: a.card.description,
      category: a.category,
      tags: a.tags,
      card: { ...a.card, url: `${config.publicUrl}/agents/${a.id}` },
    }))
  );

  const presence = new Presence({
    bus,
    nodeId: config.nodeId,
    log: log.child({ component: 'presence' }),
    liveNodes: () => membership.liveNodeIds(),
  });
  await presence.start();
  membership.onChange(() => {
    presence.sweep().catch((err: unknown) => log.warn({ err }, 'presence sweep failed'));
  });
  // One live connection per agent, cluster-wide: when the agent connects elsewhere, the node that
  // holds the older socket closes it, so frames never go to a connection the agent abandoned.
  presence.onChange((agentId, entry) => {
    const local = conns.get(agentId);
    if (!local) return;
    if (!entry) {
      // Our agent's entry was deleted while its socket is open here (a sweep that raced its
      // reconnect): put it back, or every node would treat the agent as offline.
      presence
        .connected(agentId, local.connId)
        .catch((err: unknown) =>
          log.warn({ err, agentId }, 'presence re-register failed; retrying')
        );
      return;
    }
    // This node holds only its newest socket per agent, so an entry of its own never replaces it:
    // one naming another connId is the late echo of an earlier socket's put (a quick reconnect),
    // and obeying it closed the new socket right after `welcome` with 4409.
    if (entry.nodeId === config.nodeId) return;
    log.debug({ agentId, old: local.connId, now: entry }, 'closing a replaced agent socket');
    conns.remove(local);
    local.close(4409, 'replaced by a newer connection');
  });
  const frames = new FrameRouter(
    bus,
    config.nodeId,
    conns,
    presence,
    log.child({ component: 'frames' }),
    metrics.duplicatePushesDropped
  );
  frames.start();
  const queues = new QueueService({
    bus,
    partitions: config.partitions,
    config: config.queue,
    log: log.child({ component: 'queues' }),
    metrics,
    isOnline: (agentId) => presence.isOnline(agentId),
  });
  queues.start();
  presence.onChange((agentId, entry) => queues.presenceChanged(agentId, entry !== undefined));
  const taskIndex = new TaskIndexWriter(sql, log.child({ component: 'task-index' }), metrics);
  // Sends refused while a spending budget is used up (issue 28), from a per-node cache.
  const spending = new SpendingGate(sql, bus);
  spending.start();
  const tasks = new TaskService({
    spending,
    host,
    queues,
    httpTimeoutMs: config.httpAgentTimeoutMs,
    outbound,
    bus,
    directory,
    presence,
    frames,
    signer,
    partitions: config.partitions,
    log: log.child({ component: 'tasks' }),
    liveNodes: () => membership.liveNodeIds(),
    eventInterest: webhookInterest,
    metrics,
    // The index trails the log (an open task's row is held up to TASK_INDEX_LAG_MS): a reply by
    // contextId right after the first message would miss it, so a miss flushes this node's
    // pending rows and looks again, and once more after the lag, in case another node owns it.
    accessGranted: accessGranted(sql),
    contextPeer: async (contextId, agentId) =>
      (await contextPeer(sql, contextId, agentId)) ??
      (await taskIndex.flush().then(() => contextPeer(sql, contextId, agentId))) ??
      (await new Promise((r) => setTimeout(r, TASK_INDEX_LAG_MS)).then(() =>
        contextPeer(sql, contextId, agentId)
      )),
  });
  membership.onChange(() => {
    tasks.nodesChanged();
    queues.membershipChanged();
  });
  const inboundMail = await startInboundMail({ sql, tasks, mail: config.mail, log });
  host.onDurable('task', (_addr, view, json) => taskIndex.add(view.context as Task, json));
  host.onRestored('task', (_addr, view) => taskIndex.add(view.context as Task));

  const agentServices = {
    config,
    sql,
    embedder: createEmbedder(config.embeddings),
    hub: createOfficialHub(sql, tasks),
  };
  const pools = officialAgents.map((a) =>
    runAgentPool(a, {
      bus,
      log: log.child({ component: 'agents' }),
      jwks: () => jwks,
      services: agentServices,
      size: config.agents.poolSize,
      deadlineMs: config.agents.deadlineMs,
    })
  );

  const partitions = new PartitionManager({
    bus,
    membership,
    nodeId: config.nodeId,
    partitions: config.partitions,
    lockInactiveMs: config.lockInactiveMs,
    tickMs: config.heartbeatMs,
    compaction: config.logCompaction,
    handler: composeHandlers(host, queues),
    log: log.child({ component: 'partitions' }),
    metrics,
  });
  partitions.start();
  const cleanup = createActor(
    cleanupMachine.provide({
      actors: { runCleanup: fromPromise(() => queues.cleanup()) },
      delays: { untilNextRun: () => msUntilNextRun(Date.now(), config.queue.cleanupAtMinute) },
    }),
    { systemId: 'queueCleanup' }
  ).start();

  const health = hubHealth(config, bus, sql, inboundMail);

  const lister = createTaskLister(sql);
  // One set of directory queries (and kept answers) for the REST routes and the vendor methods.
  const discovery = discoverQueries({ sql, usage: new UsageCounts(sql), live: liveDirectory });
  const secretBox = new SecretBox(config.workspaceSecretKey);
  if (secretBox.isDevelopmentKey) {
    log.warn(
      'WORKSPACE_SECRET_KEY is not set: workspace secrets are encrypted with the development key, ' +
        'which anyone with the source can derive; set it (openssl rand -hex 32) before real use'
    );
  }
  const workspaces = {
    sql,
    directory,
    embedder: agentServices.embedder,
    box: secretBox,
    granted: accessGranted(sql),
  };
  const methods = new Map<string, HubMethod>([
    ...hubMethods(tasks, lister, pushConfigs),
    ...vendorMethods(discovery, grantedAgents(sql)),
    ...meMethod(directory),
    ...workspaceMethods(workspaces),
  ]);
  // The MCP endpoint's sessions call this node's own public API, as any client of it would.
  let selfUrl = '';
  const mcpSessions = new McpHttpSessions({
    hubUrl: () => selfUrl,
    idleMs: config.mcp.sessionIdleMs,
    maxSessions: config.mcp.maxSessions,
  });
  const rpc = new Map([
    ...httpHandlers(methods, messagesAuth),
    ...hubStreamHandlers({ tasks, auth: messagesAuth, log: log.child({ component: 'sse' }) }),
  ]);
  const gateway: Gateway = createGateway(
    {
      config,
      log: log.child({ component: 'gateway' }),
      metrics,
      health,
      rpc,
      largeRequests: largeAgentRequests({
        limitBytes: config.pixel.bodyLimitBytes,
        bodyLimitBytes: config.bodyLimitBytes,
        natsMaxPayload: () => bus.maxPayload,
        agents: new Set(['pixel', 'agent-pixel-official']),
      }),
      debug: hubDebug({
        registry,
        host,
        inspection,
        directory,
        queues,
        partitions,
        cleanup,
        conns,
        liveDirectory,
        pools,
      }),
    },
    {
      routes: hubRoutes({
        config,
        log,
        sql,
        bus,
        auth,
        messagesAuth,
        manageAuth,
        tasks,
        lister,
        methods,
        conns,
        presence,
        directory,
        queues,
        revoker,
        outbound,
        pushConfigs,
        cards,
        discovery,
        outboxRelay,
        spending,
        webhookInterest,
        workspaces,
        mcpSessions,
        jwks,
      }),
    }
  );
  const port = await gateway.listen().catch((err: unknown) => {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError(
      `cannot listen on ${config.host}:${config.port} (PORT): ${code ?? 'taken, or not ours to bind'}; ` +
        'set PORT to a free port',
      ['PORT']
    );
  });
  selfUrl = loopbackUrl(config.host, port);
  log.info(
    { port, nodeId: config.nodeId, publicUrl: config.publicUrl },
    `listening on ${config.publicUrl}: ${officialAgents.length} official agents, ` +
      `${config.partitions} partitions, node ${config.nodeId}`
  );

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      gateway.stopAccepting();
      // Agents reconnect to another node; their presence moves with them.
      conns.shuttingDown = true;
      for (const c of [...conns.all()]) {
        conns.remove(c);
        c.close(1001, 'hub node shutting down');
        await presence.disconnected(c.agentId, c.connId);
      }
      await mcpSessions.close();
      await gateway.drain(Math.floor(config.shutdownTimeoutMs / 2));
      await inboundMail.stop();
      await Promise.all(pools.map((p) => p.stop()));
      cleanup.stop();
      await membership.drain();
      await partitions.stop();
      host.stop();
      await taskIndex.flush();
      frames.stop();
      queues.stop();
      presence.stop();
      directory.stop();
      spending.stop();
      liveDirectory?.close();
      keyRevocations.unsubscribe();
      revoker.stop();
      auth.close();
      await rateLimiter.stop();
      await outboxRelay.stop();
      await webhooks.stop();
      await pusher.stop();
      webhookInterest.stop();
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
    tasks,
    presence,
    queues,
    smtpPort: inboundMail.port,
    routes: () => gateway.routes(),
    stop,
  };
}

/** This node's own address, reachable from itself whatever interface HOST binds. */
function loopbackUrl(host: string, port: number): string {
  if (host === '0.0.0.0' || host === '' || host === 'localhost') return `http://127.0.0.1:${port}`;
  if (host === '::' || host === '::1') return `http://[::1]:${port}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
