// GET /metrics: the Prometheus text exposition of this process's registry.
import type { HubMetrics } from '../../runtime/metrics/index.js';
import { textReply } from '../http/reply.js';
import type { RouteSpec } from '../http/route-table.js';

export function metricsRoute(metrics: HubMetrics): RouteSpec {
  const { registry } = metrics;
  return {
    method: 'GET',
    pattern: '/metrics',
    handler: async () =>
      textReply(200, await registry.metrics(), registry.contentType, {
        'cache-control': 'no-store',
      }),
  };
}
