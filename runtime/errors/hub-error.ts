// HubError: the one error class our code throws. Foreign errors are normalized by ensureHubError.
import { ErrorCatalog, type ErrorCode } from './catalog.js';

/**
 * A refusal of the caller's input (a 4xx-class code) is an answer, not a fault: nobody reads its
 * stack, and capturing one was 8% of a rejected request's CPU (issue 19). Such errors are built
 * with no stack frames; server-side codes (5xx) keep theirs. Error.stackTraceLimit is read when
 * the Error is constructed, so it is lowered for that one synchronous call only.
 */
function withoutStackWhenClientError(http: number): number | undefined {
  if (http >= 500) return undefined;
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return limit;
}

export class HubError extends Error {
  readonly code: ErrorCode;
  readonly rpcCode: number;
  readonly httpStatus: number;
  readonly retryable: boolean;
  readonly data: unknown;

  constructor(code: ErrorCode, message?: string, opts: { data?: unknown; cause?: unknown } = {}) {
    const entry = ErrorCatalog[code];
    const limit = withoutStackWhenClientError(entry.http);
    super(message ?? entry.message, opts.cause === undefined ? undefined : { cause: opts.cause });
    if (limit !== undefined) Error.stackTraceLimit = limit;
    this.name = new.target.name;
    this.code = code;
    this.rpcCode = entry.rpc;
    this.httpStatus = entry.http;
    this.retryable = entry.retryable;
    this.data = opts.data;
  }
}

export class ParseError extends HubError {
  constructor(message?: string) {
    super('PARSE_ERROR', message);
  }
}
export class InvalidRequestError extends HubError {
  constructor(message?: string, data?: unknown) {
    super('INVALID_REQUEST', message, { data });
  }
}
export class MethodNotFoundError extends HubError {
  constructor(method: string) {
    super('METHOD_NOT_FOUND', 'Method not found', { data: { method } });
  }
}
/** Bad params: `field` names the offending field (dotted path) so the caller can fix it. */
export class InvalidParamsError extends HubError {
  constructor(field: string, message: string, data?: Record<string, unknown>) {
    super('INVALID_PARAMS', `Invalid params: ${field}: ${message}`, { data: { field, ...data } });
  }
}
export class PayloadTooLargeError extends HubError {
  constructor(limit: number) {
    super('PAYLOAD_TOO_LARGE', `Request body exceeds ${limit} bytes`, { data: { limit } });
  }
}
export class UnauthenticatedError extends HubError {
  constructor(message?: string) {
    super('UNAUTHENTICATED', message);
  }
}
export class UnavailableError extends HubError {
  constructor(message: string, cause?: unknown) {
    super('UNAVAILABLE', message, { cause });
  }
}
export class InternalError extends HubError {
  constructor(cause?: unknown) {
    super('INTERNAL', undefined, { cause });
  }
}

export function isHubError(err: unknown): err is HubError {
  return err instanceof HubError;
}

/** Any thrown value as a HubError; unknown errors become INTERNAL with the original as cause. */
export function ensureHubError(err: unknown): HubError {
  return err instanceof HubError ? err : new InternalError(err);
}
