// GET /health (interface spec, Monitoring): 200 {"status":"ok",…} when every dependency answers,
// 503 {"status":"degraded",…} when any is down (decisions.md §6: 503 = a dependency is down).
import type { HealthReport } from '../deps.js';
import type { Logger } from '../../runtime/log/index.js';
import { jsonReply } from '../http/reply.js';
import type { RouteSpec } from '../http/route-table.js';

const NO_STORE = { 'cache-control': 'no-store' } as const;

export function healthRoute(health: () => Promise<HealthReport>, log: Logger): RouteSpec {
  return {
    method: 'GET',
    pattern: '/health',
    handler: async () => {
      let checks: HealthReport;
      try {
        checks = await health();
      } catch (err) {
        // A health function that throws is itself a degraded dependency, not a 500.
        log.warn({ err }, 'health check failed');
        return jsonReply(503, { status: 'degraded', timestamp: Date.now(), checks: {} }, NO_STORE);
      }
      const down = Object.values(checks).some((s) => s === 'down');
      return down
        ? jsonReply(503, { status: 'degraded', timestamp: Date.now(), checks }, NO_STORE)
        : jsonReply(200, { status: 'ok', timestamp: Date.now(), checks }, NO_STORE);
    },
  };
}
