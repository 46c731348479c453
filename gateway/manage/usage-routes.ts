// GET /api/usage and GET /api/messages/stats/summary (interface-spec "Monitoring"; decisions.md
// §7: `days` default 7, at most 366). Any key: an agent key sees its agent, an admin key its tenant.
import {
  messageStats,
  usageByDay,
  type Principal,
  type Queryable,
  type UsageScope,
} from '../../infra/db/index.js';
import { z } from 'zod';
import { InvalidParamsError } from '../../runtime/errors/index.js';
import type { Authenticator } from '../auth/index.js';
import { jsonReply, type RouteDoc, type RouteRequest } from '../http/index.js';
import type { RouteRegistrar } from '../routes/index.js';

export const DAYS = { default: 7, max: 366 } as const;

const DaysQuery = z.strictObject({
  days: z
    .string()
    .regex(/^\d{1,4}$/)
    .optional()
    .describe(`1 to ${DAYS.max}, default ${DAYS.default}`),
});

const docs = {
  usage: {
    tags: ['Monitoring'],
    auth: 'key',
    summary: 'Messages and bytes per day (an agent key: its agent; an admin key: its tenant)',
    query: DaysQuery,
    responses: {
      200: z.object({
        usage: z.array(
          z.object({
            date: z.string(),
            messages_sent: z.number().int(),
            messages_received: z.number().int(),
            bytes_transferred: z.number().int(),
          })
        ),
      }),
    },
  },
  stats: {
    tags: ['Monitoring'],
    auth: 'key',
    summary: 'Message totals, per day, and the busiest agents',
    query: DaysQuery,
    responses: {
      200: z.object({
        summary: z.object({
          total: z.number().int(),
          sent: z.number().int(),
          received: z.number().int(),
          delivered: z.number().int(),
          failed: z.number().int(),
        }),
        daily: z.array(
          z.object({
            date: z.string(),
            sent: z.number().int(),
            received: z.number().int(),
            delivered: z.number().int(),
            failed: z.number().int(),
          })
        ),
        topAgents: z.array(
          z.object({ agentId: z.string(), name: z.string().nullable(), messages: z.number().int() })
        ),
      }),
    },
  },
} satisfies Record<string, RouteDoc>;

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
    const p = await d.auth.authenticate(req.headers.authorization, req.scope);
    return { scope: scopeOf(p), days: parseDays(req.query) };
  };
  return (table) => {
    table.add({
      method: 'GET',
      pattern: '/api/usage',
      doc: docs.usage,
      handler: async (req) => {
        const { scope, days } = await caller(req);
        return jsonReply(200, { usage: await usageByDay(d.sql, scope, days) });
      },
    });
    table.add({
      method: 'GET',
      pattern: '/api/messages/stats/summary',
      doc: docs.stats,
      handler: async (req) => {
        const { scope, days } = await caller(req);
        return jsonReply(200, await messageStats(d.sql, scope, days));
      },
    });
  };
}
