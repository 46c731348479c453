// Which routes a hub node mounts, and what each is given: the gateway's route wiring, apart from
// the composition root (start-hub.ts) that builds the parts. The built-in routes (health, metrics,
// /a2a, debug) come from the gateway itself; these are added after them, in this order.
import type postgres from 'postgres';
import type { Config } from '../../runtime/config/index.js';
import type { Logger } from '../../runtime/log/index.js';
import type { Bus } from '../../runtime/bus/index.js';
import type { Jwks } from '../../runtime/envelope/index.js';
import type { OutboundGuard } from '../../runtime/net/index.js';
import { jsonReply, type RouteRegistrar } from '../../gateway/index.js';
import { scopedAuthenticator, type Authenticator } from '../../gateway/auth/index.js';
import type { HubMethod } from '../../gateway/a2a/index.js';
import type {
  AgentDirectory,
  ConnectionRegistry,
  Presence,
  QueueService,
  SpendingGate,
  TaskLister,
  TaskService,
} from '../../actors/index.js';
import { wsRoutes, type SocketRevoker } from '../../gateway/ws/index.js';
import { standardRoutes } from '../../gateway/a2a/standard-endpoint.js';
import { cardRoutes, type CardRenderer } from '../../gateway/a2a/cards-routes.js';
import { a2aDocs } from '../../gateway/a2a/route-docs.js';
import { verifyRegisteredCard } from '../../gateway/a2a/card-signatures.js';
import type { PushConfigs } from '../../gateway/push/index.js';
import { agentSettingsRoutes, queueSettingsFields } from '../../gateway/api/agents-routes.js';
import {
  agentsAdminRoutes,
  alertsRoutes,
  creditsRoutes,
  tasksRoutes,
  budgetsRoutes,
  keysRoutes,
  tenantsRoutes,
  usageRoutes,
  whoamiRoute,
  webhooksRoutes,
  type OutboxRelay,
} from '../../gateway/manage/index.js';
import { dashboardRoutes } from '../../gateway/dashboard/index.js';
import type { WebhookInterest } from '../../gateway/webhooks/index.js';
import {
  directorySettingsFields,
  discoverRoutes,
  type DiscoverQueries,
} from '../../gateway/discover/index.js';
import { createGeocoder } from '../geo/index.js';
import type { McpHttpSessions } from '../mcp/index.js';
import { mcpRoutes } from '../../gateway/mcp/index.js';
import { workspaceRoutes, type WorkspaceDeps } from '../../gateway/workspaces/index.js';
import { accessGranted, accessRoutes } from '../../gateway/access/index.js';

/** The parts of a hub node its routes use (start-hub.ts builds them). */
export interface HubRouteDeps {
  config: Config;
  log: Logger;
  sql: postgres.Sql;
  bus: Bus;
  /** Any key; the routes that demand a scope take messagesAuth or manageAuth (issue 28). */
  auth: Authenticator;
  messagesAuth: Authenticator;
  manageAuth: Authenticator;
  tasks: TaskService;
  lister: TaskLister;
  methods: Map<string, HubMethod>;
  conns: ConnectionRegistry;
  presence: Presence;
  directory: AgentDirectory;
  queues: QueueService;
  revoker: SocketRevoker;
  outbound: OutboundGuard;
  pushConfigs: PushConfigs;
  cards: CardRenderer;
  discovery: DiscoverQueries;
  outboxRelay: OutboxRelay;
  spending: SpendingGate;
  webhookInterest: WebhookInterest;
  workspaces: WorkspaceDeps;
  mcpSessions: McpHttpSessions;
  jwks: Jwks;
}

export function hubRoutes(d: HubRouteDeps): RouteRegistrar[] {
  const { config, log, sql, bus, auth, messagesAuth, manageAuth, tasks, lister, methods } = d;
  const { conns, presence, directory, queues, revoker, outbound, pushConfigs, cards } = d;
  const { discovery, outboxRelay, spending, webhookInterest, workspaces, mcpSessions, jwks } = d;
  return [
    wsRoutes({
      auth: messagesAuth,
      tasks,
      methods,
      conns,
      presence,
      directory,
      sql,
      log: log.child({ component: 'ws' }),
      limits: { highWaterBytes: config.wsHighWaterBytes, outboxFrames: config.wsOutboxFrames },
      // Queues owned here wake at once; other owners learn it from the presence bucket.
      onOnline: (agentId) => queues.presenceChanged(agentId, true),
      revoker,
      verifyCard: (card) => verifyRegisteredCard(card, outbound),
    }),
    standardRoutes({
      tasks,
      lister,
      directory,
      auth: messagesAuth,
      push: pushConfigs,
      extendedCard: (agent, dialect) => cards.extendedCard(agent, dialect),
      accessGranted: accessGranted(sql),
    }),
    cardRoutes({ directory, auth, cards }),
    agentSettingsRoutes({
      sql,
      auth: manageAuth,
      directory,
      fields: {
        ...queueSettingsFields,
        ...directorySettingsFields(createGeocoder(config.geocoder)),
      },
    }),
    discoverRoutes({ sql, auth: scopedAuthenticator(auth, 'discovery'), queries: discovery }),
    keysRoutes({ sql, auth: manageAuth, directory, bus }),
    whoamiRoute({ sql, auth }),
    tenantsRoutes({ sql, adminToken: config.adminToken }),
    agentsAdminRoutes({
      sql,
      auth,
      directory,
      guard: outbound,
      live: {
        isOnline: (agentId) => presence.isOnline(agentId),
        queueDepth: async (tenantId, agentId) => (await queues.inspect(tenantId, agentId)).pending,
      },
    }),
    tasksRoutes({ sql, auth, tasks }),
    dashboardRoutes(),
    creditsRoutes({ sql, auth, relay: outboxRelay }),
    budgetsRoutes({ sql, auth, announce: (t) => spending.announce(t) }),
    webhooksRoutes({
      sql,
      auth,
      guard: outbound,
      changed: (tenantId) => webhookInterest.announce(tenantId),
    }),
    usageRoutes({ sql, auth }),
    workspaceRoutes({ ...workspaces, auth }),
    accessRoutes({ sql, auth }),
    mcpRoutes({ auth: messagesAuth, endpoint: mcpSessions }),
    alertsRoutes({
      sql,
      auth,
      isOnline: (agentId) => presence.isOnline(agentId),
      defaultRateLimit: config.rateLimitPerMinute,
    }),
    (table) => {
      const body = JSON.stringify(jwks);
      table.add({
        method: 'GET',
        pattern: '/.well-known/hub-keys.json',
        doc: a2aDocs.hubKeys,
        handler: () =>
          jsonReply(200, JSON.parse(body) as unknown, {
            'cache-control': 'public, max-age=300',
          }),
      });
    },
  ];
}
