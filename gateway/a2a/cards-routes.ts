// Agent cards the hub serves per agent (decisions.md §1 "Agent cards"): agent-card.json (A2A v1.0,
// or v0.3 for callers without A2A-Version) and agent.json (the registered card), by canonical id or
// alias, cacheable (ETag, 304), and private agents only to keys of their own tenant (else 404).
import { HubError } from '../../runtime/errors/index.js';
import type { CardSigner } from '../../runtime/envelope/index.js';
import {
  AgentCardInput,
  defaultCard,
  cardV03,
  cardV1,
  etagOf,
  negotiateVersion,
  hasExtendedCard,
  registeredCard,
  type CardScope,
  type CardTarget,
  type StandardDialect,
} from '../../runtime/protocol/index.js';
import { OFFICIAL_TENANT, type AgentRecord, type Principal } from '../../infra/db/index.js';
import type { Authenticator } from '../auth/index.js';
import { decodeParam, type Reply, type RouteHandler, type RouteRequest } from '../http/index.js';
import { isVisibleTo, type AgentDirectory } from '../../actors/index.js';
import { a2aDocs } from './route-docs.js';
import type { RouteRegistrar } from '../routes/index.js';

export interface CardRoutesDeps {
  readonly directory: Pick<AgentDirectory, 'resolve'>;
  readonly auth: Authenticator;
  readonly cards: CardRenderer;
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
  return (table) => {
    const handler =
      (fixed?: Shape): RouteHandler =>
      async (req) => {
        const principal = await caller(d.auth, req);
        const agent = await visibleAgent(d, decodeParam(req.params.agentId ?? ''), principal);
        const shape = fixed ?? negotiatedShape(req.headers['a2a-version']);
        const { body, etag } = await d.cards.render(agent, shape, 'public');
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
      doc: a2aDocs.card,
      handler: handler(),
    });
    table.add({
      method: 'GET',
      pattern: '/agents/:agentId/.well-known/agent.json',
      doc: a2aDocs.cardRegistered,
      handler: handler('registered'),
    });
  };
}

/** No header: anonymous. A header with a bad key is a 401, like everywhere else. */
async function caller(auth: Authenticator, req: RouteRequest): Promise<Principal | null> {
  const header = req.headers.authorization;
  return header === undefined || header === '' ? null : auth.authenticate(header, req.scope);
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

/**
 * Renders (and keeps) the cards the hub serves: by agent, shape and scope, valid while the agent
 * record is unchanged, so a card GET costs a directory look-up (itself cached) and no JSON or
 * signing work. Official agents' cards, and those whose registered card asks (`hubSigned`), are
 * signed with the hub's key.
 */
export class CardRenderer {
  private readonly cache = new Map<string, Rendered & { card: unknown }>();

  constructor(
    private readonly publicUrl: string,
    private readonly signer: CardSigner | undefined
  ) {}

  async render(agent: AgentRecord, shape: Shape, scope: CardScope): Promise<Rendered> {
    return this.renderCard(agent, shape, scope);
  }

  /**
   * GetExtendedAgentCard on /agents/:id/a2a (the caller may message the agent: the endpoint
   * checked): the card with every skill, or -32007 when the agent has none beyond the public ones.
   */
  async extendedCard(agent: AgentRecord, dialect: StandardDialect): Promise<unknown> {
    if (!hasExtendedCard(cardInput(agent))) {
      throw new HubError('EXTENDED_AGENT_CARD_NOT_CONFIGURED');
    }
    return (await this.renderCard(agent, dialect, 'extended')).card;
  }

  private async renderCard(
    agent: AgentRecord,
    shape: Shape,
    scope: CardScope
  ): Promise<Rendered & { card: unknown }> {
    const key = `${agent.id}|${shape}|${scope}`;
    const updatedAt = agent.updatedAt.getTime();
    const hit = this.cache.get(key);
    if (hit !== undefined && hit.updatedAt === updatedAt) return hit;
    const input = cardInput(agent);
    let card = cardOf(input, shape, { publicUrl: this.publicUrl, agentId: agent.id }, scope);
    if (this.signer && (agent.tenantId === OFFICIAL_TENANT.id || input.hubSigned === true)) {
      card = await this.signer.sign(card);
    }
    const rendered = { updatedAt, body: JSON.stringify(card), etag: etagOf(card), card };
    this.cache.delete(key);
    if (this.cache.size >= MAX_CACHED) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
    this.cache.set(key, rendered);
    return rendered;
  }
}

function cardOf(input: AgentCardInput, shape: Shape, target: CardTarget, scope: CardScope): object {
  switch (shape) {
    case 'v1':
      return cardV1(input, target, scope);
    case 'v0.3':
      return cardV03(input, target, scope);
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
