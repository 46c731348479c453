// A HubError as the `error` member of a JSON-RPC response, per dialect (decisions.md §1, §6): A2A
// v1.0 carries its -32001..-32009 errors' detail as a google.rpc.ErrorInfo array; the hub dialect
// and v0.3 keep `data` as it is.
import { A2A_REASONS, ErrorCatalog, type HubError } from '../errors/index.js';
import type { Dialect } from './dialect.js';

export const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
export const A2A_ERROR_DOMAIN = 'a2a-protocol.org';

export interface ErrorInfo {
  '@type': typeof ERROR_INFO_TYPE;
  reason: string;
  domain: typeof A2A_ERROR_DOMAIN;
  /** google.rpc.ErrorInfo metadata is a string map. */
  metadata?: Record<string, string>;
}

export interface DialectRpcError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * The JSON-RPC error object for `err` in `dialect`. An internal error never shows its details:
 * only "Internal error" and, when given, the request id to quote in a support request.
 */
export function encodeRpcError(
  err: HubError,
  dialect: Dialect,
  requestId?: string
): DialectRpcError {
  if (err.code === 'INTERNAL') {
    return requestId === undefined
      ? { code: ErrorCatalog.INTERNAL.rpc, message: 'Internal error' }
      : { code: ErrorCatalog.INTERNAL.rpc, message: 'Internal error', data: { requestId } };
  }
  const reason = A2A_REASONS[err.code];
  if (dialect === 'v1' && reason !== undefined) {
    const metadata = stringMap(err.data);
    const info: ErrorInfo = {
      '@type': ERROR_INFO_TYPE,
      reason,
      domain: A2A_ERROR_DOMAIN,
      ...(metadata ? { metadata } : {}),
    };
    return { code: err.rpcCode, message: err.message, data: [info] };
  }
  return err.data === undefined
    ? { code: err.rpcCode, message: err.message }
    : { code: err.rpcCode, message: err.message, data: err.data };
}

/** An error's object `data` as ErrorInfo metadata (values as strings), so no detail is lost. */
function stringMap(data: unknown): Record<string, string> | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const entries = Object.entries(data as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as const);
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}
