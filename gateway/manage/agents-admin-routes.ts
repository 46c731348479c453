// The tenant admin's agent management API (decisions.md §5): create, list and delete the tenant's
// agents (their keys: keys-routes.ts). GET and PATCH of one agent live in gateway/api/agents-routes.ts.
// Only a tenant admin key may call these; an agent key is 403, another tenant's agent is 404.
import type { z } from 'zod';
import { verifyRegisteredCard } from '../a2a/card-signatures.js';
import {
  agentRatings,
  createAgent,
  listAgents,
  softDeleteAgent,
  getAgent,
  type AgentRecord,
  type CreateAgentInput,
  type Principal,
  type Queryable,
} from '../../infra/db/index.js';
import { HubError, InvalidParamsError } from '../../runtime/errors/index.js';
import type { OutboundGuard } from '../../runtime/net/index.js';
import type { Authenticator } from '../auth/index.js';
import {
  checkBody,
  decodeParam,
  jsonObjectBody,
  jsonReply,
  type RouteRequest,
} from '../http/index.js';
import type { AgentDirectory } from '../../actors/index.js';
import type { RouteRegistrar } from '../routes/index.js';
import { assertCallableUrl } from './callable-url.js';
import { manageDocs as docs } from './route-docs.js';

export interface AgentsAdminRoutesDeps {
  readonly sql: Queryable;
  readonly auth: Pick<Authenticator, 'authenticate'>;
  /** announce() tells every node to drop cached copies and cached keys of the agent. */
  readonly directory: Pick<AgentDirectory, 'announce'>;
  /** Refuses an agent URL naming a loopback/private address (OUTBOUND_ALLOW_PRIVATE). */
  readonly guard: OutboundGuard;
  /**
   * What the list adds to each agent for the dashboard: whether a WebSocket agent is connected to
   * any node, and how many messages wait in its queue (null when the queue's owner is away).
   */
  readonly live?: {
    isOnline(agentId: string): boolean;
    queueDepth(tenantId: string, agentId: string): Promise<number>;
  };
}

/** online: a WebSocket agent connected to some node; http: reached at its URL; offline. */
export type AgentStatus = 'online' | 'http' | 'offline';

/** An admin principal, or FORBIDDEN (an agent key cannot manage its tenant). */
export async function requireAdmin(
  auth: Pick<Authenticator, 'authenticate'>,
  req: RouteRequest
): Promise<Extract<Principal, { kind: 'admin' }>> {
  const p = await auth.authenticate(req.headers.authorization, req.scope);
  if (p.kind !== 'admin') {
    throw new HubError('FORBIDDEN', 'This needs a tenant admin key (burrow keys create-admin)');
  }
  return p;
}

/** An agent as the management API shows it (never its key; the webhook secret only at create). */
export function agentView(a: AgentRecord) {
  return {
    agentId: a.id,
    name: a.name,
    description: a.description,
    alias: a.alias,
    transport: a.transport,
    url: a.url,
    visibility: a.visibility,
    category: a.category,
    tags: a.tags,
    queue_max_pending: a.queueMaxPending,
    queue_ttl_seconds: a.queueTtlSeconds,
    createdAt: a.createdAt.toISOString(),
  };
}

export function agentsAdminRoutes(d: AgentsAdminRoutesDeps): RouteRegistrar {
  /** The tenant's live agent, or the 404 an unknown agent gets. */
  const ownAgent = async (tenantId: string, req: RouteRequest): Promise<AgentRecord> => {
    const agentId = decodeParam(req.params.agentId ?? '');
    const agent = await getAgent(d.sql, agentId);
    if (agent === null || agent.tenantId !== tenantId) {
      throw new HubError('NOT_FOUND', `No agent ${agentId}`);
    }
    return agent;
  };

  return (table) => {
    table.add({
      method: 'POST',
      pattern: '/api/agents',
      doc: docs.createAgent,
      body: true,
      handler: async (req) => {
        const admin = await requireAdmin(d.auth, req);
        const raw = jsonObjectBody(await req.body);
        const input = createInput(admin.tenantId, checkBody(docs.createAgent.body, raw));
        // Signatures cover the card as it was sent, before the schema fills in defaults.
        if (raw.card !== undefined) input.card = raw.card;
        assertCallableUrl(d.guard, input.url);
        // A card that carries signatures is stored only once they verify (issue 27).
        if (input.card !== undefined) input.card = await verifyRegisteredCard(input.card, d.guard);
        const created = await createAgent(d.sql, input);
        return jsonReply(201, {
          agent: agentView(created.agent),
          apiKey: created.apiKey,
          ...(created.webhookSecret !== undefined ? { webhookSecret: created.webhookSecret } : {}),
        });
      },
    });
    table.add({
      method: 'GET',
      pattern: '/api/agents',
      doc: docs.listAgents,
      handler: async (req) => {
        const admin = await requireAdmin(d.auth, req);
        const agents = await listAgents(d.sql, admin.tenantId);
        const ratings = await agentRatings(d.sql, admin.tenantId);
        const live = d.live;
        const views = await Promise.all(
          agents.map(async (a) => {
            const status: AgentStatus =
              a.transport === 'http'
                ? 'http'
                : a.transport === 'official' || live?.isOnline(a.id)
                  ? 'online'
                  : 'offline';
            const queueDepth = live
              ? await live.queueDepth(a.tenantId, a.id).catch(() => null)
              : null;
            return {
              ...agentView(a),
              status,
              queueDepth,
              rating: ratings.get(a.id) ?? { average: null, count: 0 },
            };
          })
        );
        return jsonReply(200, { agents: views, count: agents.length });
      },
    });
    table.add({
      method: 'DELETE',
      pattern: '/api/agents/:agentId',
      doc: docs.deleteAgent,
      handler: async (req) => {
        const admin = await requireAdmin(d.auth, req);
        const agent = await ownAgent(admin.tenantId, req);
        const result = await softDeleteAgent(d.sql, agent.id);
        if (result === null) throw new HubError('NOT_FOUND', `No agent ${agent.id}`);
        // Every node drops the agent and its cached keys (directory.onChanged → auth).
        d.directory.announce(agent.id);
        return jsonReply(200, { agentId: agent.id, deleted: true });
      },
    });
  };
}

type CreateBody = z.output<typeof docs.createAgent.body>;

/** The checked body as the repo's input; null stands for absent. */
function createInput(tenantId: string, body: CreateBody): CreateAgentInput {
  const input: CreateAgentInput = { tenantId, name: body.name };
  if (body.description != null) input.description = body.description;
  if (body.url != null) input.url = body.url;
  if (body.category != null) input.category = body.category;
  if (body.alias != null) input.alias = body.alias;
  if (body.visibility != null) input.visibility = body.visibility;
  if (body.tags !== undefined) input.tags = tagList(body.tags);
  return input;
}

/** `tags` as an array, or as a string holding a JSON array (the spec's PATCH form). */
function tagList(raw: unknown): string[] {
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch {
      throw new InvalidParamsError('tags', 'must be an array or a string holding a JSON array');
    }
  }
  if (!Array.isArray(raw) || !raw.every((t) => typeof t === 'string')) {
    throw new InvalidParamsError('tags', 'must be an array of strings');
  }
  if (raw.some((t) => t.toLowerCase().startsWith('location:'))) {
    // Geocoding happens on PATCH (gateway/discover); creating with one would skip it.
    throw new InvalidParamsError('tags', 'set location: tags with PATCH /api/agents/:agentId');
  }
  return raw;
}
