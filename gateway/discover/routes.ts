// The discovery endpoints (interface-spec "Discovery (REST)"): search, categories, featured (issue
// 20), nearby, detail, locations and rating. A key is optional on reads (it adds the caller's tenant's private agents)
// and required for scope=tenant and rating; private agents of other tenants are a 404 everywhere.
// Search and nearby are answered from the node's in-memory directory when one is given
// (model/live-directory.ts), else with SQL. Search, nearby and categories answers are kept per
// node (answer-cache.ts); a request with `Cache-Control: no-cache` (or no-store) is always
// computed afresh.
import {
  directoryGeneration,
  getAgentDetail,
  listAgentLocations,
  listCategoriesAt,
  listFeaturedAt,
  nearbyAgentsAt,
  QueryExpansions,
  rateAgent,
  searchAgentsAt,
  type AtGeneration,
  type Principal,
  type Queryable,
  type Viewer,
} from '../../infra/db/index.js';
import { HubError, UnauthenticatedError } from '../../runtime/errors/index.js';
import type { Authenticator } from '../auth/index.js';
import { decodeParam, jsonReply, type Reply, type RouteRequest } from '../http/index.js';
import type { RouteRegistrar } from '../routes/index.js';
import { AnswerCache, GenerationReader, type AnswerCacheOptions } from './answer-cache.js';
import { DiscoverLimits, noParams, parseNearby, parseRate, parseSearch } from './params.js';
import type { LiveDirectory } from './model/index.js';
import type { UsageCounts } from './usage.js';

export interface DiscoverRoutesDeps {
  readonly sql: Queryable;
  readonly auth: Pick<Authenticator, 'authenticate'>;
  readonly usage: Pick<UsageCounts, 'ensureFresh'>;
  /** Kept answers; false reads every answer afresh. Default: DiscoverLimits.answerCacheChars. */
  readonly cache?: AnswerCacheOptions | false;
  /** The directory in this node's memory; searches and nearby use SQL without it. */
  readonly live?: LiveDirectory;
}

const BASE = '/api/discover';

/** Tells the caller (and the benchmark) whether an answer was kept or read afresh. */
const CACHE_HEADER = 'x-cache';

function freshRequired(req: RouteRequest): boolean {
  const control = req.headers['cache-control'];
  return control !== undefined && /\bno-(cache|store)\b/i.test(control);
}

export function discoverRoutes(d: DiscoverRoutesDeps): RouteRegistrar {
  const cache =
    d.cache === false
      ? undefined
      : new AnswerCache(d.cache ?? { maxChars: DiscoverLimits.answerCacheChars });
  const live = d.live;
  const generations =
    live === undefined
      ? new GenerationReader(() => directoryGeneration(d.sql))
      : { current: () => live.currentGeneration() };
  const expansions = new QueryExpansions(DiscoverLimits.keptQueryExpansions);

  /**
   * The kept answer for `key` if still current, else `read` afresh. Answers read with SQL are
   * kept; answers computed from the in-memory directory are not: computing one again costs less
   * than keeping thousands of them alive for the garbage collector (measured: the search
   * benchmark's p99 went from 18-20 ms to 11 ms without them).
   */
  const answer = async <T>(
    req: RouteRequest,
    key: string,
    read: () => Promise<AtGeneration<T> & { fromMemory?: boolean }>,
    shape: (result: T) => unknown
  ): Promise<Reply> => {
    const fresh = cache === undefined || freshRequired(req);
    if (!fresh && cache.has(key)) {
      const body = cache.get(key, await generations.current());
      if (body !== undefined) return jsonBody(body, 'hit');
    }
    const { result, generation, fromMemory } = await read();
    const body = JSON.stringify(shape(result));
    if (fromMemory !== true) cache?.set(key, BigInt(generation), body);
    return jsonBody(body, 'miss');
  };

  /** The answer from memory when the node's directory can give it, else from SQL. */
  const either = async <T>(
    memory: (() => Promise<AtGeneration<T> | undefined>) | undefined,
    sql: () => Promise<AtGeneration<T>>
  ): Promise<AtGeneration<T> & { fromMemory?: boolean }> => {
    const m = memory === undefined ? undefined : await memory();
    return m === undefined ? sql() : { ...m, fromMemory: true };
  };

  /** Anonymous without a key; a key that is present must be valid (401), never ignored. */
  const viewer = async (req: RouteRequest): Promise<Viewer> => {
    const header = req.headers.authorization;
    if (header === undefined || header === '') return {};
    return { tenantId: (await d.auth.authenticate(header)).tenantId };
  };
  const notFound = (agentId: string) => new HubError('NOT_FOUND', `No agent ${agentId}`);

  return (table) => {
    table.add({
      method: 'GET',
      pattern: `${BASE}/agents`,
      handler: async (req) => {
        const { search, tenantOnly } = parseSearch(req.query);
        const who = await viewer(req);
        if (tenantOnly && who.tenantId === undefined) {
          throw new UnauthenticatedError('scope=tenant needs an API key');
        }
        if (search.sort === 'popular') await d.usage.ensureFresh();
        return answer(
          req,
          JSON.stringify(['search', who.tenantId ?? null, search]),
          () =>
            either(live && (() => live.search(who, search)), () =>
              searchAgentsAt(d.sql, who, search, expansions)
            ),
          (page) => ({ agents: page.agents, count: page.count, offset: search.offset })
        );
      },
    });

    table.add({
      method: 'GET',
      pattern: `${BASE}/categories`,
      handler: async (req) => {
        noParams(req.query);
        const who = await viewer(req);
        return answer(
          req,
          JSON.stringify(['categories', who.tenantId ?? null]),
          () => listCategoriesAt(d.sql, who),
          (categories) => ({ categories })
        );
      },
    });

    table.add({
      method: 'GET',
      pattern: `${BASE}/featured`,
      handler: async (req) => {
        noParams(req.query);
        const who = await viewer(req);
        return answer(
          req,
          JSON.stringify(['featured', who.tenantId ?? null]),
          () => listFeaturedAt(d.sql, who),
          (agents) => ({ agents, count: agents.length })
        );
      },
    });

    // Mounted before /agents/:agentId; uWS also prefers a static segment to a parameter.
    table.add({
      method: 'GET',
      pattern: `${BASE}/agents/nearby`,
      handler: async (req) => {
        const s = parseNearby(req.query);
        const who = await viewer(req);
        return answer(
          req,
          JSON.stringify(['nearby', who.tenantId ?? null, s]),
          () => either(live && (() => live.nearby(who, s)), () => nearbyAgentsAt(d.sql, who, s)),
          (found) => ({
            agents: found.agents,
            center: { lat: s.lat, lng: s.lng },
            radius: s.radiusKm,
            count: found.count,
            offset: s.offset,
          })
        );
      },
    });

    table.add({
      method: 'GET',
      pattern: `${BASE}/agents/:agentId`,
      handler: async (req) => {
        noParams(req.query);
        const agentId = decodeParam(req.params.agentId ?? '');
        const detail = await getAgentDetail(d.sql, await viewer(req), agentId);
        if (detail === null) throw notFound(agentId);
        return jsonReply(200, detail);
      },
    });

    table.add({
      method: 'GET',
      pattern: `${BASE}/agents/:agentId/locations`,
      handler: async (req) => {
        noParams(req.query);
        const agentId = decodeParam(req.params.agentId ?? '');
        const locations = await listAgentLocations(d.sql, await viewer(req), agentId);
        if (locations === null) throw notFound(agentId);
        return jsonReply(200, { locations });
      },
    });

    table.add({
      method: 'POST',
      pattern: `${BASE}/agents/:agentId/rate`,
      body: true,
      handler: async (req) => {
        noParams(req.query);
        const principal = await d.auth.authenticate(req.headers.authorization);
        const agentId = decodeParam(req.params.agentId ?? '');
        const rater = ratingAgent(principal);
        const { rating, review } = parseRate(await req.body);
        const result = await rateAgent(d.sql, {
          agentId,
          raterAgentId: rater.agentId,
          raterTenantId: rater.tenantId,
          rating,
          review,
        });
        return jsonReply(200, { success: true, ...result });
      },
    });
  };
}

/** Ratings are one per rating agent: an agent's own key, not a tenant admin key. */
function ratingAgent(p: Principal): { agentId: string; tenantId: string } {
  if (p.kind !== 'agent') {
    throw new HubError('FORBIDDEN', "Rating needs an agent's API key, not a tenant admin key");
  }
  return p;
}

function jsonBody(body: string, cache: 'hit' | 'miss'): Reply {
  return {
    status: 200,
    headers: { 'content-type': 'application/json', [CACHE_HEADER]: cache },
    body,
  };
}
