// The one mapping from a thrown value to a JSON-RPC error object (style B5, decisions.md §6):
// HubErrors go out as they are, ZodErrors become -32602 naming the field, anything else is
// -32603 "Internal error" carrying only the request id; the details go to the log.
import { ErrorCatalog } from '../../runtime/errors/index.js';
import type { Logger } from '../../runtime/log/index.js';
import { normalizeError } from '../http/normalize-error.js';

export interface RpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * Maps any thrown value to the `error` member of a JSON-RPC response. When `log` is given, an
 * internal error is logged there in full (`{err, requestId}`), since the caller never sees it.
 */
export function toRpcError(err: unknown, requestId: string, log?: Logger): RpcErrorObject {
  const hub = normalizeError(err);
  if (hub.code === 'INTERNAL') {
    log?.error({ err, requestId }, 'internal error in JSON-RPC call');
    return { code: ErrorCatalog.INTERNAL.rpc, message: 'Internal error', data: { requestId } };
  }
  return hub.data === undefined
    ? { code: hub.rpcCode, message: hub.message }
    : { code: hub.rpcCode, message: hub.message, data: hub.data };
}

export interface RpcHttpStatus {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
}

const OK_200: RpcHttpStatus = { status: 200 };

/**
 * The HTTP status a JSON-RPC error travels with: 200, except unauthenticated (401), payload too
 * large (413) and rate limited (429, with Retry-After from `data.retryAfter` in seconds).
 */
export function rpcHttpStatus(error: RpcErrorObject): RpcHttpStatus {
  switch (error.code) {
    case ErrorCatalog.UNAUTHENTICATED.rpc:
      return { status: 401, headers: { 'www-authenticate': 'Bearer' } };
    case ErrorCatalog.PAYLOAD_TOO_LARGE.rpc:
      return { status: 413 };
    case ErrorCatalog.RATE_LIMITED.rpc: {
      const retryAfter = retryAfterSeconds(error.data);
      return retryAfter === undefined
        ? { status: 429 }
        : { status: 429, headers: { 'retry-after': String(retryAfter) } };
    }
    default:
      return OK_200;
  }
}

function retryAfterSeconds(data: unknown): number | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const raw = (data as { retryAfter?: unknown }).retryAfter;
  const seconds = typeof raw === 'string' ? Number(raw) : raw;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0
    ? Math.ceil(seconds)
    : undefined;
}
