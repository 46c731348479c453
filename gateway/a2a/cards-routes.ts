// Agent cards the hub serves per agent (decisions.md §1 "Agent cards"): agent-card.json (A2A v1.0,
// or v0.3 for callers without A2A-Version) and agent.json (the registered card), by canonical id or
// alias, cacheable (ETag, 304), and private agents only to keys of their own tenant (else 404).
import { HubError } from '../../runtime/errors/index.js';
import {
  AgentCardInput,
  defaultCard,
  cardV03,
  cardV1,
  etagOf,
  negotiateVersion,
  registeredCard,
  type CardTarget,
} from '../../runtime/protocol/index.js';
import type { AgentRecord, Principal } from '../../infra/db/index.js';
import type { Authenticator } from '../auth/index.js';
import { decodeParam, type Reply, type RouteHandler } from '../http/index.js';
import { isVisibleTo, type AgentDirectory } from '../messaging/directory.js';
import type { RouteRegistrar } from '../routes/index.js';

export interface CardRoutesDeps {
  readonly directory: Pick<AgentDirectory, 'resolve'>;
  readonly auth: Authenticator;
}

type Shape = 'v1' | 'v0.3' | 'registered';

interface Rendered {
  readonly updatedAt: number;
  readonly body: string;
  readonly etag: string;
}

const MAX_CACHED = 2_000;
const MAX_AGE = 'max-age=300';
/** Resolving an alias without a key: only the hub's official aliases match. */
const NO_TENANT = '';

export function cardRoutes(d: CardRoutesDeps): RouteRegistrar {
  return (table, gw) => {
    // Rendered cards by agent and shape, valid while the agent record is unchanged: a card GET
    // then costs a directory look-up (itself cached) and no JSON work.
    const cache = new Map<string, Rendered>();
    const target = (agentId: string): CardTarget => ({ publicUrl: gw.config.publicUrl, agentId });
    const render = (agent: AgentRecord, shape: Shape): Rendered => {
      const key = `${agent.id}|${shape}`;
      const updatedAt = agent.updatedAt.getTime();
      const hit = cache.get(key);
      if (hit !== undefined && hit.updatedAt === updatedAt) return hit;
      const card = cardOf(agent, shape, target(agent.id));
      const rendered = { updatedAt, body: JSON.stringify(card), etag: etagOf(card) };
      cache.delete(key);
      if (cache.size >= MAX_CACHED) {
        const oldest = cache.keys().next();
        if (!oldest.done) cache.delete(oldest.value);
      }
      cache.set(key, rendered);
      return rendered;
    };

    const handler =
      (fixed?: Shape): RouteHandler =>
      async (req) => {
        const principal = await caller(d.auth, req.headers.authorization);
        const agent = await visibleAgent(d, decodeParam(req.params.agentId ?? ''), principal);
        const shape = fixed ?? negotiatedShape(req.headers['a2a-version']);
        const { body, etag } = render(agent, shape);
        const headers: Record<string, string> = {
          etag,
          // A private agent's card must not sit in shared caches.
          'cache-control': agent.visibility === 'private' ? `private, ${MAX_AGE}` : MAX_AGE,
        };
        if (fixed === undefined) headers.vary = 'A2A-Version';
        if (matches(req.headers['if-none-match'], etag)) {
          return { status: 304, headers, body: '' } satisfies Reply;
        }
        return { status: 200, headers: { 'content-type': 'application/json', ...headers }, body };
      };

    table.add({
      method: 'GET',
      pattern: '/agents/:agentId/.well-known/agent-card.json',
      handler: handler(),
    });
    table.add({
      method: 'GET',
      pattern: '/agents/:agentId/.well-known/agent.json',
      handler: handler('registered'),
    });
  };
}

/** No header: anonymous. A header with a bad key is a 401, like everywhere else. */
async function caller(auth: Authenticator, header: string | undefined): Promise<Principal | null> {
  return header === undefined || header === '' ? null : auth.authenticate(header);
}

async function visibleAgent(
  d: CardRoutesDeps,
  idOrAlias: string,
  principal: Principal | null
): Promise<AgentRecord> {
  const tenantId = principal?.tenantId ?? NO_TENANT;
  const agent = await d.directory.resolve(idOrAlias, tenantId);
  // A private agent is invisible to other tenants: the same 404 as an unknown one.
  if (!agent || !isVisibleTo(agent, tenantId)) {
    throw new HubError('NOT_FOUND', `No agent ${idOrAlias}`);
  }
  return agent;
}

/**
 * The v0.3 card without the header (or with 0.3), v1.0 with 1.0; also v1.0 for a version the hub
 * does not speak, since that card lists the versions the endpoint does (supportedInterfaces).
 */
function negotiatedShape(header: string | undefined): Shape {
  try {
    return negotiateVersion(header);
  } catch {
    return 'v1';
  }
}

function cardOf(agent: AgentRecord, shape: Shape, target: CardTarget): unknown {
  const input = cardInput(agent);
  switch (shape) {
    case 'v1':
      return cardV1(input, target);
    case 'v0.3':
      return cardV03(input, target);
    case 'registered':
      return registeredCard(input, target);
    default: {
      const never: never = shape;
      return never;
    }
  }
}

/**
 * The registered card, with the directory's name and description: those are what the hub lists
 * and what an owner edits, so every card the hub serves agrees with discovery. An agent without a
 * (valid) card still gets one built from its record.
 */
function cardInput(agent: AgentRecord): AgentCardInput {
  const parsed = AgentCardInput.safeParse(agent.card);
  const base: AgentCardInput = parsed.success
    ? parsed.data
    : defaultCard(agent.name, agent.description);
  return {
    ...base,
    name: agent.name || base.name,
    description: agent.description || base.description,
  };
}

/** If-None-Match (RFC 9110 §13.1.2): weak comparison, a list, or `*`. */
function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  for (const raw of header.split(',')) {
    const tag = raw.trim();
    if (tag === '*' || (tag.startsWith('W/') ? tag.slice(2) : tag) === etag) return true;
  }
  return false;
}
