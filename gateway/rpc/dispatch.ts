// One JSON-RPC call from body bytes to a Reply: content type, envelope, method lookup, handler,
// error mapping and the rpc metrics. No uWS here, so it can be tested and reused by any route; a
// handler's StreamingResult becomes a Reply that streams (SSE) instead of a JSON body.
import { InvalidRequestError, MethodNotFoundError } from '../../runtime/errors/index.js';
import type { Logger } from '../../runtime/log/index.js';
import type { HubMetrics } from '../../runtime/metrics/index.js';
import type { RpcContext, RpcHandler } from '../deps.js';
import { NO_CONTENT, jsonReply, type Reply } from '../http/reply.js';
import { isJsonContentType } from './content-type.js';
import { parseEnvelope, type RpcId } from './envelope.js';
import { rpcHttpStatus, toRpcError } from './rpc-error.js';
import { StreamingResult } from './streaming.js';

export interface RpcDispatchEnv {
  /** Method name → handler; other names answer -32601. */
  readonly handlers: ReadonlyMap<string, RpcHandler>;
  readonly log: Logger;
  readonly metrics: HubMetrics;
}

/** Metric `method` labels for calls that never reached a handler (keeps label values bounded). */
export const RPC_METHOD_INVALID = 'invalid';
export const RPC_METHOD_UNKNOWN = 'unknown';

/**
 * Answers one JSON-RPC call. Never rejects: every failure is a JSON-RPC error reply. A notification
 * (no `id`) is run all the same, then answered 204 No Content without a body; only refusals that
 * travel with their own HTTP status (401, 413, 429: the call was not run) are still written.
 */
export async function dispatchRpc(
  body: Uint8Array,
  contentType: string | undefined,
  ctx: RpcContext,
  env: RpcDispatchEnv
): Promise<Reply> {
  const started = performance.now();
  const parsed = parseEnvelope(body);
  if (!isJsonContentType(contentType)) {
    const id = parsed.ok ? parsed.request.id : parsed.id;
    const err = new InvalidRequestError(
      `Invalid Request: Content-Type must be application/json, got ${contentType ? `"${contentType}"` : 'none'}`
    );
    return rpcErrorReply(err, id, RPC_METHOD_INVALID, ctx.requestId, env, started);
  }
  if (!parsed.ok) {
    return rpcErrorReply(parsed.error, parsed.id, RPC_METHOD_INVALID, ctx.requestId, env, started);
  }
  const { method, params, id, notification } = parsed.request;
  const handler = env.handlers.get(method);
  if (handler === undefined) {
    const err = new MethodNotFoundError(method);
    const reply = rpcErrorReply(err, id, RPC_METHOD_UNKNOWN, ctx.requestId, env, started);
    return notification ? NO_CONTENT : reply;
  }
  try {
    const result = await handler(params, ctx);
    if (notification) {
      // Nobody reads the result, so a stream is never started.
      observe(env.metrics, method, '0', started);
      return NO_CONTENT;
    }
    if (result instanceof StreamingResult) {
      observe(env.metrics, method, '0', started);
      return result.reply(id);
    }
    // Serialized inside the try: a result JSON cannot hold (BigInt, a cycle) is an internal error.
    const reply = jsonReply(200, { jsonrpc: '2.0', result: result ?? null, id });
    observe(env.metrics, method, '0', started);
    return reply;
  } catch (err) {
    const reply = rpcErrorReply(err, id, method, ctx.requestId, env, started);
    return notification && reply.status === 200 ? NO_CONTENT : reply;
  }
}

/**
 * A JSON-RPC error response for `err`, with the HTTP status decisions.md §6 gives it, recorded in
 * the rpc metrics under `method`. Also for failures before dispatch (e.g. a body over the limit).
 */
export function rpcErrorReply(
  err: unknown,
  id: RpcId,
  method: string,
  requestId: string,
  env: Pick<RpcDispatchEnv, 'log' | 'metrics'>,
  started: number = performance.now()
): Reply {
  const error = toRpcError(err, requestId, env.log);
  const { status, headers } = rpcHttpStatus(error);
  observe(env.metrics, method, String(error.code), started);
  return jsonReply(status, { jsonrpc: '2.0', error, id }, headers);
}

function observe(metrics: HubMetrics, method: string, code: string, started: number): void {
  metrics.rpcRequests.inc({ method, code });
  metrics.rpcDuration.observe({ method }, (performance.now() - started) / 1000);
}
