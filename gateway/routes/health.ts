// GET /health (interface spec, Monitoring): 200 {"status":"ok",…} when every dependency answers,
// 503 {"status":"degraded",…} when NATS or PostgreSQL is down (decisions.md §6: 503 = a dependency
// is down), 200 {"status":"degraded",…} when only an optional part is (the SMTP listener).
import type { HealthReport } from '../deps.js';
import type { Logger } from '../../runtime/log/index.js';
import { jsonReply } from '../http/reply.js';
import type { RouteSpec } from '../http/route-table.js';
import { builtInDocs } from './route-docs.js';

const NO_STORE = { 'cache-control': 'no-store' } as const;

export function healthRoute(health: () => Promise<HealthReport>, log: Logger): RouteSpec {
  return {
    method: 'GET',
    pattern: '/health',
    doc: builtInDocs.health,
    handler: async () => {
      let checks: HealthReport;
      try {
        checks = await health();
      } catch (err) {
        // A health function that throws is itself a degraded dependency, not a 500.
        log.warn({ err }, 'health check failed');
        return jsonReply(503, { status: 'degraded', timestamp: Date.now(), checks: {} }, NO_STORE);
      }
      const { optional, ...required } = checks;
      const requiredDown = Object.values(required).some((s) => s === 'down');
      const optionalDown = Object.values(optional ?? {}).some((s) => s === 'down');
      const body = { status: 'ok', timestamp: Date.now(), checks: { ...required, ...optional } };
      if (requiredDown) return jsonReply(503, { ...body, status: 'degraded' }, NO_STORE);
      if (optionalDown) return jsonReply(200, { ...body, status: 'degraded' }, NO_STORE);
      return jsonReply(200, body, NO_STORE);
    },
  };
}
