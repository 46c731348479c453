// GET /api/usage and GET /api/messages/stats/summary (interface-spec "Monitoring"; decisions.md
// §7: `days` default 7, at most 366). Any key: an agent key sees its agent, an admin key its tenant.
import {
  messageStats,
  usageByDay,
  type Principal,
  type Queryable,
  type UsageScope,
} from '../../infra/db/index.js';
import { InvalidParamsError } from '../../runtime/errors/index.js';
import type { Authenticator } from '../auth/index.js';
import { jsonReply, type RouteRequest } from '../http/index.js';
import type { RouteRegistrar } from '../routes/index.js';

export const DAYS = { default: 7, max: 366 } as const;

export interface UsageRoutesDeps {
  readonly sql: Queryable;
  readonly auth: Pick<Authenticator, 'authenticate'>;
}

/** `days` from the query: 1..366, default 7; any other parameter is 400 naming it. */
export function parseDays(query: string): number {
  const params = new URLSearchParams(query);
  for (const key of params.keys()) {
    if (key !== 'days') throw new InvalidParamsError(key, 'unknown parameter; allowed: days');
  }
  const all = params.getAll('days');
  if (all.length === 0) return DAYS.default;
  const raw = all[0] ?? '';
  if (all.length > 1 || !/^\d{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > DAYS.max) {
    throw new InvalidParamsError('days', `must be one integer from 1 to ${DAYS.max}`, {
      min: 1,
      max: DAYS.max,
    });
  }
  return Number(raw);
}

function scopeOf(p: Principal): UsageScope {
  return p.kind === 'agent'
    ? { kind: 'agent', agentId: p.agentId }
    : { kind: 'tenant', tenantId: p.tenantId };
}

export function usageRoutes(d: UsageRoutesDeps): RouteRegistrar {
  const caller = async (req: RouteRequest) => {
    const p = await d.auth.authenticate(req.headers.authorization);
    return { scope: scopeOf(p), days: parseDays(req.query) };
  };
  return (table) => {
    table.add({
      method: 'GET',
      pattern: '/api/usage',
      handler: async (req) => {
        const { scope, days } = await caller(req);
        return jsonReply(200, { usage: await usageByDay(d.sql, scope, days) });
      },
    });
    table.add({
      method: 'GET',
      pattern: '/api/messages/stats/summary',
      handler: async (req) => {
        const { scope, days } = await caller(req);
        return jsonReply(200, await messageStats(d.sql, scope, days));
      },
    });
  };
}
