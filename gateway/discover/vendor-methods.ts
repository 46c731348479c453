// The vendor JSON-RPC methods existing hub clients discover agents with (decisions.md §11), served
// on POST /a2a and over the agent WebSocket: the REST discovery queries (queries.ts) with the REST
// query parameters as params, answering the REST bodies. JSON numbers and booleans are read as
// their text in a query string, so `{"limit": 5, "verified": true}` means `?limit=5&verified=true`.
import type { Principal, Viewer } from '../../infra/db/index.js';
import { InvalidParamsError } from '../../runtime/errors/index.js';
import { parseNearby, parseSearch } from './params.js';
import type { DiscoverAnswer, DiscoverQueries } from './queries.js';

export const VendorMethod = {
  /** GET /api/discover/agents. */
  Discover: 'x-gopherhole/agents.discover',
  /** GET /api/discover/agents/nearby. */
  DiscoverNearby: 'x-gopherhole/agents.discover.nearby',
  /**
   * The agents the caller can always reach, its own tenant's: GET /api/discover/agents?scope=tenant,
   * followed by the agents of other tenants it holds an access grant with (issue 28), each marked
   * `access: "granted"`. With a text query (`q`/`query`) or `public: true` (what clients send to
   * include public agents), the plain search instead.
   */
  Available: 'x-gopherhole/agents.available',
} as const;

export type VendorMethodHandler = (
  params: unknown,
  caller: { readonly principal: Principal }
) => Promise<unknown>;

/** The agents a caller's agent holds access grants with, as directory records (gateway/access). */
export type GrantedAgents = (agentId: string) => Promise<ReadonlyArray<{ id: string }>>;

export function vendorMethods(
  queries: DiscoverQueries,
  granted?: GrantedAgents
): Map<string, VendorMethodHandler> {
  const viewer = (p: Principal): Viewer => ({ tenantId: p.tenantId });
  return new Map<string, VendorMethodHandler>([
    [
      VendorMethod.Discover,
      async (params, c) =>
        result(await queries.search(viewer(c.principal), parseSearch(queryOf(params)), false)),
    ],
    [
      VendorMethod.DiscoverNearby,
      async (params, c) =>
        result(await queries.nearby(viewer(c.principal), parseNearby(queryOf(params)), false)),
    ],
    [
      VendorMethod.Available,
      async (params, c) => {
        const { public: everyone, ...rest } = paramsObject(params);
        if (everyone !== undefined && everyone !== null && typeof everyone !== 'boolean') {
          throw new InvalidParamsError('public', 'must be true or false');
        }
        const searching = [rest.q, rest.query].some((v) => typeof v === 'string' && v.trim());
        const scoped =
          everyone === true || searching || rest.scope !== undefined
            ? rest
            : { ...rest, scope: 'tenant' };
        const answer = result(
          await queries.search(viewer(c.principal), parseSearch(queryOf(scoped)), false)
        );
        if (scoped === rest || granted === undefined || c.principal.kind !== 'agent') return answer;
        return withGranted(answer, await granted(c.principal.agentId));
      },
    ],
  ]);
}

function result(answer: DiscoverAnswer): unknown {
  return JSON.parse(answer.body) as unknown;
}

/** The tenant's agents, then the granted ones not among them; the count follows. */
function withGranted(answer: unknown, extra: ReadonlyArray<{ id: string }>): unknown {
  if (extra.length === 0) return answer;
  const body = answer as { agents: Array<{ id: string }>; count: number };
  const seen = new Set(body.agents.map((a) => a.id));
  const added = extra.filter((a) => !seen.has(a.id)).map((a) => ({ ...a, access: 'granted' }));
  return { ...body, agents: [...body.agents, ...added], count: body.count + added.length };
}

function paramsObject(params: unknown): Record<string, unknown> {
  if (params === undefined || params === null) return {};
  if (typeof params !== 'object' || Array.isArray(params)) {
    throw new InvalidParamsError('params', 'must be an object of the REST query parameters');
  }
  return params as Record<string, unknown>;
}

/** The params as the REST query string, so the REST parser checks them (names, types, ranges). */
function queryOf(params: unknown): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(paramsObject(params))) {
    if (value === undefined || value === null) continue;
    if (
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value))
    ) {
      query.append(name, String(value));
    } else {
      throw new InvalidParamsError(name, 'must be a string, a number or a boolean');
    }
  }
  return query.toString();
}
