// A POST route that speaks JSON-RPC over a handler map: POST /a2a now, and later the per-agent
// endpoint with its own map. The body is read under the gateway's limit; 413 is a JSON-RPC error.
import type { RpcContext, RpcHandler } from '../deps.js';
import type { Logger } from '../../runtime/log/index.js';
import type { HubMetrics } from '../../runtime/metrics/index.js';
import type { RouteSpec } from '../http/route-table.js';
import type { RouteDoc } from '../http/route-doc.js';
import { HubError } from '../../runtime/errors/index.js';
import { dispatchRpc, rpcErrorReply, RPC_METHOD_INVALID } from './dispatch.js';

export interface RpcRouteOptions {
  /** uWS pattern, e.g. '/a2a' or '/agents/:agentId/a2a'. */
  readonly pattern: string;
  readonly doc: RouteDoc;
  readonly handlers: ReadonlyMap<string, RpcHandler>;
  readonly log: Logger;
  readonly metrics: HubMetrics;
  /** Overrides the gateway's bodyLimitBytes for this route. */
  readonly bodyLimitBytes?: number;
  /** Bodies between bodyLimitBytes and this larger limit, for the requests `admit` accepts. */
  readonly large?: { limitBytes: number; admit(body: Buffer): string | undefined };
}

export function rpcRoute(opts: RpcRouteOptions, defaultLimitBytes?: number): RouteSpec {
  const env = { handlers: opts.handlers, log: opts.log, metrics: opts.metrics };
  const limit = opts.bodyLimitBytes ?? defaultLimitBytes;
  const large =
    opts.large && limit !== undefined && opts.large.limitBytes > limit ? opts.large : undefined;
  return {
    method: 'POST',
    pattern: opts.pattern,
    doc: opts.doc,
    body: large
      ? { limitBytes: large.limitBytes }
      : limit === undefined
        ? true
        : { limitBytes: limit },
    refuse: (err, requestId) => rpcErrorReply(err, null, RPC_METHOD_INVALID, requestId, env),
    handler: async (req) => {
      let body: Buffer;
      try {
        body = await req.body;
      } catch (err) {
        // No body, so no id to echo: JSON-RPC 2.0 §5 says null.
        return rpcErrorReply(err, null, RPC_METHOD_INVALID, req.requestId, env);
      }
      if (large && body.length > limit!) {
        const refusal = large.admit(body);
        if (refusal !== undefined) {
          const err = new HubError('PAYLOAD_TOO_LARGE', refusal, { data: { limit } });
          return rpcErrorReply(err, null, RPC_METHOD_INVALID, req.requestId, env);
        }
      }
      const ctx: RpcContext = {
        requestId: req.requestId,
        headers: req.headers,
        path: req.path,
        scope: req.scope,
      };
      return dispatchRpc(body, req.headers['content-type'], ctx, env);
    },
  };
}
