// The JSON-RPC 2.0 request envelope (JSON-RPC 2.0 §4, §5.1): parsing and validation, pure.
// Batches are refused. A request without an `id` member is a notification (§4.1): it is run but
// gets no response; `id: null` is not one (it is answered with id null).
import { InvalidRequestError, ParseError, type HubError } from '../../runtime/errors/index.js';
import { MAX_JSON_DEPTH, nestsDeeperThan, tooDeepError, tooDeepPath } from '../http/json-depth.js';

export type RpcId = string | number | null;

export interface RpcRequest {
  readonly method: string;
  /** An object or array, or undefined when the request has no params. */
  readonly params: unknown;
  readonly id: RpcId;
  /** No `id` member: the caller wants no response (JSON-RPC 2.0 §4.1). */
  readonly notification: boolean;
}

export type EnvelopeResult =
  | { readonly ok: true; readonly request: RpcRequest }
  /** `id` is the request's own id when it was a valid one, else null (JSON-RPC 2.0 §5). */
  | { readonly ok: false; readonly id: RpcId; readonly error: HubError };

export function isRpcId(value: unknown): value is RpcId {
  return (
    value === null ||
    typeof value === 'string' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/** Parses a request body (UTF-8 bytes or text) into a JSON-RPC request, or says why it is not one. */
export function parseEnvelope(body: string | Uint8Array): EnvelopeResult {
  const text =
    typeof body === 'string'
      ? body
      : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, id: null, error: new ParseError('Parse error') };
  }
  if (nestsDeeperThan(value)) return tooDeep(value);
  return validateEnvelope(value);
}

/** A request nested past MAX_JSON_DEPTH: -32602 naming the place when it is in params. */
function tooDeep(value: unknown): EnvelopeResult {
  const path = tooDeepPath(value) ?? [];
  const rawId = (value as { id?: unknown } | null)?.id;
  const id = !Array.isArray(value) && isRpcId(rawId) ? rawId : null;
  if (path[0] === 'params' && path.length > 1) {
    return { ok: false, id, error: tooDeepError(path.slice(1)) };
  }
  return invalid(id, `Invalid Request: JSON nests deeper than ${MAX_JSON_DEPTH} levels`);
}

/** Validates an already parsed JSON value as a single JSON-RPC request. */
export function validateEnvelope(value: unknown): EnvelopeResult {
  if (Array.isArray(value)) {
    return invalid(
      null,
      'Invalid Request: batch requests are not supported; send one call per request'
    );
  }
  if (typeof value !== 'object' || value === null) {
    return invalid(null, 'Invalid Request: the body must be a JSON object');
  }
  const env = value as Record<string, unknown>;
  const rawId = env['id'];
  if (rawId !== undefined && !isRpcId(rawId)) {
    return invalid(null, 'Invalid Request: id must be a string, a number or null');
  }
  const id: RpcId = rawId ?? null;
  if (env['jsonrpc'] !== '2.0') return invalid(id, 'Invalid Request: jsonrpc must be "2.0"');
  const method = env['method'];
  if (typeof method !== 'string') return invalid(id, 'Invalid Request: method must be a string');
  const params = env['params'];
  if (params !== undefined && (typeof params !== 'object' || params === null)) {
    return invalid(id, 'Invalid Request: params must be an object or an array');
  }
  return { ok: true, request: { method, params, id, notification: rawId === undefined } };
}

function invalid(id: RpcId, message: string): EnvelopeResult {
  return { ok: false, id, error: new InvalidRequestError(message) };
}
