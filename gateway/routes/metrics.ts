// GET /metrics: the Prometheus text exposition of this process's registry, behind a bearer token
// (METRICS_TOKEN, else ADMIN_TOKEN): the hub binds 0.0.0.0 by default, and its metrics describe
// its traffic. Without a token configured every scrape is refused, so nothing is open by accident.
import { UnauthenticatedError } from '../../runtime/errors/index.js';
import type { Logger } from '../../runtime/log/index.js';
import type { HubMetrics } from '../../runtime/metrics/index.js';
import { restErrorReply, textReply } from '../http/reply.js';
import type { RouteSpec } from '../http/route-table.js';
import { bearerTokenCheck } from './admin-auth.js';
import { builtInDocs } from './route-docs.js';

const CHALLENGE = { 'www-authenticate': 'Bearer realm="burrow-metrics"' };

export function metricsRoute(
  metrics: HubMetrics,
  token: string | undefined,
  log: Logger
): RouteSpec {
  const { registry } = metrics;
  const authorized = token === undefined || token === '' ? () => false : bearerTokenCheck(token);
  const refusal =
    token === undefined || token === ''
      ? 'Metrics are off: set METRICS_TOKEN (or ADMIN_TOKEN) and send it as a bearer token'
      : 'Metrics token required: Authorization: Bearer <METRICS_TOKEN> (ADMIN_TOKEN when it is unset)';
  return {
    method: 'GET',
    pattern: '/metrics',
    doc: builtInDocs.metrics,
    handler: async (req) =>
      authorized(req.headers.authorization)
        ? textReply(200, await registry.metrics(), registry.contentType, {
            'cache-control': 'no-store',
          })
        : restErrorReply(new UnauthenticatedError(refusal), req.requestId, log, CHALLENGE),
  };
}
