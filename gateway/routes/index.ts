// The gateway's built-in routes, and the registrar type through which more routes are added.
import type { GatewayDeps } from '../deps.js';
import type { RouteTable } from '../http/route-table.js';
import { rpcRoute } from '../rpc/rpc-route.js';
import { debugRoutes } from './debug.js';
import { registerDebugInspect } from './debug-inspect.js';
import { healthRoute } from './health.js';
import { metricsRoute } from './metrics.js';
import { documentRoutes } from '../openapi/document-routes.js';
import { builtInDocs } from './route-docs.js';

/**
 * Adds routes to the gateway. Registrars run once, in order, before the 404/405 fallbacks are
 * installed; they call `table.add(spec)`, or use `table.app` for raw uWS (WebSocket upgrades).
 */
export type RouteRegistrar = (table: RouteTable, deps: GatewayDeps) => void;

/**
 * GET /health, GET /metrics, POST /a2a, GET /openapi.json and /openrpc.json, and /debug/* when
 * enabled with an admin token.
 */
export const builtInRoutes: RouteRegistrar = (table, deps) => {
  const log = deps.log;
  table.add(healthRoute(deps.health, log));
  table.add(metricsRoute(deps.metrics, deps.config.metricsToken, log));
  table.add(
    rpcRoute(
      {
        pattern: '/a2a',
        doc: builtInDocs.a2a,
        handlers: deps.rpc,
        log,
        metrics: deps.metrics,
        ...(deps.largeRequests ? { large: deps.largeRequests } : {}),
      },
      deps.config.bodyLimitBytes
    )
  );
  for (const spec of documentRoutes(table, deps)) table.add(spec);
  const { debugEnabled, adminToken } = deps.config;
  if (debugEnabled && adminToken !== undefined && adminToken !== '') {
    for (const spec of debugRoutes({ debug: deps.debug, adminToken, log })) table.add(spec);
    const inspect = deps.debug.inspect;
    if (inspect) registerDebugInspect(table, { inspect, adminToken, log });
  }
};

export { healthRoute } from './health.js';
export { metricsRoute } from './metrics.js';
export { debugRoutes, type DebugRoutesOptions } from './debug.js';
export { registerDebugInspect, inspectFilterOf } from './debug-inspect.js';
export { bearerTokenCheck } from './admin-auth.js';
export { builtInDocs } from './route-docs.js';
