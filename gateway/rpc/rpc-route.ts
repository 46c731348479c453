// A POST route that speaks JSON-RPC over a handler map: POST /a2a now, and later the per-agent
// endpoint with its own map. The body is read under the gateway's limit; 413 is a JSON-RPC error.
import type { RpcContext, RpcHandler } from '../deps.js';
import type { Logger } from '../../runtime/log/index.js';
import type { HubMetrics } from '../../runtime/metrics/index.js';
import type { RouteSpec } from '../http/route-table.js';
import { dispatchRpc, rpcErrorReply, RPC_METHOD_INVALID } from './dispatch.js';

export interface RpcRouteOptions {
  /** uWS pattern, e.g. '/a2a' or '/agents/:agentId/a2a'. */
  readonly pattern: string;
  readonly handlers: ReadonlyMap<string, RpcHandler>;
  readonly log: Logger;
  readonly metrics: HubMetrics;
  /** Overrides the gateway's bodyLimitBytes for this route. */
  readonly bodyLimitBytes?: number;
}

export function rpcRoute(opts: RpcRouteOptions): RouteSpec {
  const env = { handlers: opts.handlers, log: opts.log, metrics: opts.metrics };
  return {
    method: 'POST',
    pattern: opts.pattern,
    body: opts.bodyLimitBytes === undefined ? true : { limitBytes: opts.bodyLimitBytes },
    handler: async (req) => {
      let body: Buffer;
      try {
        body = await req.body;
      } catch (err) {
        // No body, so no id to echo: JSON-RPC 2.0 §5 says null.
        return rpcErrorReply(err, null, RPC_METHOD_INVALID, req.requestId, env);
      }
      const ctx: RpcContext = { requestId: req.requestId, headers: req.headers, path: req.path };
      return dispatchRpc(body, req.headers['content-type'], ctx, env);
    },
  };
}
