// The discovery endpoints (interface-spec "Discovery (REST)"): search, categories, nearby, detail,
// locations and rating. A key is optional on reads (it adds the caller's tenant's private agents)
// and required for scope=tenant and rating; private agents of other tenants are a 404 everywhere.
import {
  getAgentDetail,
  listAgentLocations,
  listCategories,
  nearbyAgents,
  rateAgent,
  searchAgents,
  type Principal,
  type Queryable,
  type Viewer,
} from '../../infra/db/index.js';
import { HubError, UnauthenticatedError } from '../../runtime/errors/index.js';
import type { Authenticator } from '../auth/index.js';
import { decodeParam, jsonReply, type RouteRequest } from '../http/index.js';
import type { RouteRegistrar } from '../routes/index.js';
import { noParams, parseNearby, parseRate, parseSearch } from './params.js';
import type { UsageCounts } from './usage.js';

export interface DiscoverRoutesDeps {
  readonly sql: Queryable;
  readonly auth: Pick<Authenticator, 'authenticate'>;
  readonly usage: Pick<UsageCounts, 'ensureFresh'>;
}

const BASE = '/api/discover';

export function discoverRoutes(d: DiscoverRoutesDeps): RouteRegistrar {
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
        const page = await searchAgents(d.sql, who, search);
        return jsonReply(200, { agents: page.agents, count: page.count, offset: search.offset });
      },
    });

    table.add({
      method: 'GET',
      pattern: `${BASE}/categories`,
      handler: async (req) => {
        noParams(req.query);
        return jsonReply(200, { categories: await listCategories(d.sql, await viewer(req)) });
      },
    });

    // Mounted before /agents/:agentId; uWS also prefers a static segment to a parameter.
    table.add({
      method: 'GET',
      pattern: `${BASE}/agents/nearby`,
      handler: async (req) => {
        const s = parseNearby(req.query);
        const found = await nearbyAgents(d.sql, await viewer(req), s);
        return jsonReply(200, {
          agents: found.agents,
          center: { lat: s.lat, lng: s.lng },
          radius: s.radiusKm,
          count: found.count,
          offset: s.offset,
        });
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
