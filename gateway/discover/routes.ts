// The discovery endpoints (interface-spec "Discovery (REST)"): search, categories, featured (issue
// 20), nearby, detail, locations and rating. A key is optional on reads (it adds the caller's tenant's private agents)
// and required for scope=tenant and rating; private agents of other tenants are a 404 everywhere.
// Search and nearby are answered from the node's in-memory directory when one is given
// (model/live-directory.ts), else with SQL. Search, nearby and categories answers are kept per
// node (answer-cache.ts); a request with `Cache-Control: no-cache` (or no-store) is always
// computed afresh.
import {
  getAgentDetail,
  listAgentLocations,
  rateAgent,
  type Principal,
  type Queryable,
  type Viewer,
} from '../../infra/db/index.js';
import { HubError } from '../../runtime/errors/index.js';
import type { Authenticator } from '../auth/index.js';
import { decodeParam, jsonReply, type Reply, type RouteRequest } from '../http/index.js';
import type { RouteRegistrar } from '../routes/index.js';
import { noParams, parseNearby, parseRate, parseSearch } from './params.js';
import { discoverDocs as docs } from './route-docs.js';
import {
  discoverQueries,
  type DiscoverAnswer,
  type DiscoverQueries,
  type DiscoverQueriesDeps,
} from './queries.js';

/** The queries to answer with (shared with the vendor methods), or what to build them from. */
export type DiscoverRoutesDeps = {
  readonly sql: Queryable;
  readonly auth: Pick<Authenticator, 'authenticate'>;
} & ({ readonly queries: DiscoverQueries } | DiscoverQueriesDeps);

const BASE = '/api/discover';

/** Tells the caller (and the benchmark) whether an answer was kept or read afresh. */
const CACHE_HEADER = 'x-cache';

function freshRequired(req: RouteRequest): boolean {
  const control = req.headers['cache-control'];
  return control !== undefined && /\bno-(cache|store)\b/i.test(control);
}

export function discoverRoutes(d: DiscoverRoutesDeps): RouteRegistrar {
  const queries = 'queries' in d ? d.queries : discoverQueries(d);

  /** Anonymous without a key; a key that is present must be valid (401), never ignored. */
  const viewer = async (req: RouteRequest): Promise<Viewer> => {
    const header = req.headers.authorization;
    if (header === undefined || header === '') return {};
    return { tenantId: (await d.auth.authenticate(header, req.scope)).tenantId };
  };
  const notFound = (agentId: string) => new HubError('NOT_FOUND', `No agent ${agentId}`);

  return (table) => {
    table.add({
      method: 'GET',
      pattern: `${BASE}/agents`,
      doc: docs.search,
      handler: async (req) => {
        const search = parseSearch(req.query);
        return jsonBody(await queries.search(await viewer(req), search, freshRequired(req)));
      },
    });

    table.add({
      method: 'GET',
      pattern: `${BASE}/categories`,
      doc: docs.categories,
      handler: async (req) => {
        noParams(req.query);
        return jsonBody(await queries.categories(await viewer(req), freshRequired(req)));
      },
    });

    table.add({
      method: 'GET',
      pattern: `${BASE}/featured`,
      doc: docs.featured,
      handler: async (req) => {
        noParams(req.query);
        return jsonBody(await queries.featured(await viewer(req), freshRequired(req)));
      },
    });

    // Mounted before /agents/:agentId; uWS also prefers a static segment to a parameter.
    table.add({
      method: 'GET',
      pattern: `${BASE}/agents/nearby`,
      doc: docs.nearby,
      handler: async (req) => {
        const s = parseNearby(req.query);
        return jsonBody(await queries.nearby(await viewer(req), s, freshRequired(req)));
      },
    });

    table.add({
      method: 'GET',
      pattern: `${BASE}/agents/:agentId`,
      doc: docs.detail,
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
      doc: docs.locations,
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
      doc: docs.rate,
      body: true,
      handler: async (req) => {
        noParams(req.query);
        const principal = await d.auth.authenticate(req.headers.authorization, req.scope);
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

function jsonBody({ body, cache }: DiscoverAnswer): Reply {
  return {
    status: 200,
    headers: { 'content-type': 'application/json', [CACHE_HEADER]: cache },
    body,
  };
}
