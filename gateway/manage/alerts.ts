// A tenant's alerts (interface-spec "Dashboard alerts"), computed on request from the hub's own
// records: the task index, the rate-limit windows and WebSocket presence. Thresholds are constants
// here, documented in the README; `GET /api/alerts` (admin key) lists the active ones.
import {
  listAgents,
  listBudgets,
  rateLimitedKeys,
  tenantTraffic,
  type Queryable,
} from '../../infra/db/index.js';
import type { Authenticator } from '../auth/index.js';
import { jsonReply } from '../http/index.js';
import type { RouteRegistrar } from '../routes/index.js';
import { manageDocs as docs } from './route-docs.js';
import { requireAdmin } from './agents-admin-routes.js';

export const ALERT_RULES = {
  /** Failed (failed or rejected) over finished tasks sent in the last hour. */
  errorRate: { threshold: 0.05, minFinished: 20 },
  /** Messages sent in the last hour over the hourly average of the 7 days before. */
  unusualTraffic: { factor: 3, minMessages: 50 },
  /** Refusals by the rate limit within this many minutes. */
  rateLimitMinutes: 10,
} as const;

export interface Alert {
  type: 'error_rate' | 'agent_offline' | 'rate_limit_exceeded' | 'unusual_traffic' | 'spending';
  severity: 'warning' | 'critical';
  message: string;
  details: Record<string, unknown>;
}

export interface AlertsDeps {
  readonly sql: Queryable;
  readonly auth: Pick<Authenticator, 'authenticate'>;
  /** Whether a WebSocket agent is connected to some node (Presence.isOnline). */
  readonly isOnline: (agentId: string) => boolean;
  readonly defaultRateLimit: number;
  readonly now?: () => number;
}

export async function tenantAlerts(d: AlertsDeps, tenantId: string): Promise<Alert[]> {
  const now = d.now ?? Date.now;
  const alerts: Alert[] = [];
  const traffic = await tenantTraffic(d.sql, tenantId);
  const { errorRate, unusualTraffic } = ALERT_RULES;
  if (traffic.finishedLastHour >= errorRate.minFinished) {
    const rate = traffic.failedLastHour / traffic.finishedLastHour;
    if (rate > errorRate.threshold) {
      alerts.push({
        type: 'error_rate',
        severity: rate > 4 * errorRate.threshold ? 'critical' : 'warning',
        message: `${(rate * 100).toFixed(1)}% of messages failed in the last hour (above 5%)`,
        details: { failed: traffic.failedLastHour, finished: traffic.finishedLastHour, rate },
      });
    }
  }
  if (
    traffic.sentLastHour >= unusualTraffic.minMessages &&
    traffic.sentLastHour > unusualTraffic.factor * traffic.hourlyBaseline
  ) {
    alerts.push({
      type: 'unusual_traffic',
      severity: 'warning',
      message: `${traffic.sentLastHour} messages in the last hour, over ${unusualTraffic.factor}× the usual`,
      details: { lastHour: traffic.sentLastHour, hourlyBaseline: traffic.hourlyBaseline },
    });
  }
  for (const a of await listAgents(d.sql, tenantId)) {
    if (a.transport === 'websocket' && !d.isOnline(a.id)) {
      alerts.push({
        type: 'agent_offline',
        severity: 'warning',
        message: `agent ${a.name} (${a.id}) is not connected`,
        details: { agentId: a.id, name: a.name },
      });
    }
  }
  const since = new Date(now() - ALERT_RULES.rateLimitMinutes * 60_000);
  for (const w of await rateLimitedKeys(d.sql, tenantId, since, d.defaultRateLimit)) {
    alerts.push({
      type: 'rate_limit_exceeded',
      severity: 'warning',
      message: `key ${w.keyPrefix}… made ${w.hits} requests in a minute (limit ${w.limit})`,
      details: {
        keyPrefix: w.keyPrefix,
        windowStart: w.windowStart.toISOString(),
        hits: w.hits,
        limit: w.limit,
      },
    });
  }
  // A budget at 80% of its limit warns; a used-up one (sends refused) is critical (issue 28).
  for (const b of await listBudgets(d.sql, tenantId)) {
    if (b.spent * 100 < 80 * b.limit) continue;
    const who = b.agentId === null ? 'the tenant' : `agent ${b.agentId}`;
    alerts.push({
      type: 'spending',
      severity: b.spent >= b.limit ? 'critical' : 'warning',
      message: `${who} spent ${b.spent} of its ${b.period} budget of ${b.limit} credits`,
      details: {
        scope: b.agentId === null ? 'tenant' : 'agent',
        agentId: b.agentId,
        period: b.period,
        limit: b.limit,
        spent: b.spent,
        resetsAt: b.resetsAt.toISOString(),
      },
    });
  }
  return alerts;
}

export function alertsRoutes(d: AlertsDeps): RouteRegistrar {
  return (table) => {
    table.add({
      method: 'GET',
      pattern: '/api/alerts',
      doc: docs.alerts,
      handler: async (req) => {
        const { tenantId } = await requireAdmin(d.auth, req);
        return jsonReply(200, { alerts: await tenantAlerts(d, tenantId) });
      },
    });
  };
}
