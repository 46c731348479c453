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
import type { Authenticator } from '../auth/index.js';
import {
  jsonReply,
  parseQuery,
  queryInteger,
  type RouteDoc,
  type RouteRequest,
} from '../http/index.js';
import type { RouteRegistrar } from '../routes/index.js';

export const DAYS = { default: 7, max: 366 } as const;

const DaysQuery = z.strictObject({
  days: queryInteger(1, DAYS.max)
    .default(DAYS.default)
    .describe(`How many days back, today included (default ${DAYS.default})`),
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

function scopeOf(p: Principal): UsageScope {
  return p.kind === 'agent'
    ? { kind: 'agent', agentId: p.agentId }
    : { kind: 'tenant', tenantId: p.tenantId };
}

export function usageRoutes(d: UsageRoutesDeps): RouteRegistrar {
  const caller = async (req: RouteRequest) => {
    const p = await d.auth.authenticate(req.headers.authorization, req.scope);
    return { scope: scopeOf(p), days: parseQuery(DaysQuery, req.query).days };
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
