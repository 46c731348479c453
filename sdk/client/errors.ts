// What the hub can refuse, as typed errors (decisions.md §6): one class per code, built alike from
// a JSON-RPC error ({code, message, data}) and from a REST error body ({error:{code, message,
// details}}). The numbers are copied from the hub's catalog; the SDK never imports the hub.

/** Every code the hub sends: JSON-RPC number and the HTTP status it usually travels with. */
export const HubErrorCodes = {
  PARSE_ERROR: { rpc: -32700, http: 400 },
  INVALID_REQUEST: { rpc: -32600, http: 400 },
  METHOD_NOT_FOUND: { rpc: -32601, http: 404 },
  INVALID_PARAMS: { rpc: -32602, http: 400 },
  INTERNAL: { rpc: -32603, http: 500 },
  TASK_NOT_FOUND: { rpc: -32001, http: 404 },
  TASK_NOT_CANCELABLE: { rpc: -32002, http: 409 },
  PUSH_NOTIFICATION_NOT_SUPPORTED: { rpc: -32003, http: 400 },
  UNSUPPORTED_OPERATION: { rpc: -32004, http: 400 },
  CONTENT_TYPE_NOT_SUPPORTED: { rpc: -32005, http: 415 },
  INVALID_AGENT_RESPONSE: { rpc: -32006, http: 502 },
  EXTENDED_AGENT_CARD_NOT_CONFIGURED: { rpc: -32007, http: 404 },
  EXTENSION_SUPPORT_REQUIRED: { rpc: -32008, http: 400 },
  VERSION_NOT_SUPPORTED: { rpc: -32009, http: 400 },
  UNAUTHENTICATED: { rpc: -32010, http: 401 },
  RECIPIENT_OFFLINE: { rpc: -32011, http: 409 },
  QUEUE_FULL: { rpc: -32012, http: 429 },
  SENDER_THROTTLED: { rpc: -32013, http: 429 },
  TENANT_QUEUE_FULL: { rpc: -32014, http: 429 },
  FORBIDDEN: { rpc: -32015, http: 403 },
  AGENT_NOT_FOUND: { rpc: -32016, http: 404 },
  RATE_LIMITED: { rpc: -32017, http: 429 },
  PAYLOAD_TOO_LARGE: { rpc: -32018, http: 413 },
  INSUFFICIENT_CREDITS: { rpc: -32019, http: 402 },
  // REST-only (their JSON-RPC numbers are shared with the entries above, which win on decoding).
  NOT_FOUND: { rpc: -32001, http: 404 },
  CONFLICT: { rpc: -32600, http: 409 },
  UNPROCESSABLE: { rpc: -32602, http: 422 },
  UNAVAILABLE: { rpc: -32603, http: 503 },
  // Client-side: the hub could not be reached, or answered something that is not the protocol.
  CONNECTION_FAILED: { rpc: undefined, http: undefined },
  BAD_RESPONSE: { rpc: undefined, http: undefined },
} as const satisfies Record<string, { rpc: number | undefined; http: number | undefined }>;

export type HubErrorCode = keyof typeof HubErrorCodes;

export interface HubErrorInit {
  rpcCode?: number | undefined;
  httpStatus?: number | undefined;
  data?: unknown;
  retryAfterMs?: number | undefined;
  cause?: unknown;
}

/** Any refusal by the hub (or failure to reach it). `code` is the hub's UPPER_SNAKE name. */
export class HubError extends Error {
  readonly code: string;
  /** The JSON-RPC error code, when the error came as (or maps to) one. */
  readonly rpcCode: number | undefined;
  /** The HTTP status of the response that carried the error (JSON-RPC errors mostly travel with 200). */
  readonly httpStatus: number | undefined;
  /** JSON-RPC `error.data` or REST `error.details`: often names the bad field or the limit. */
  readonly data: unknown;
  /** From `Retry-After` (or `data.retryAfter`): how long the hub asked the caller to wait. */
  readonly retryAfterMs: number | undefined;

  constructor(code: string, message: string, init: HubErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = code;
    this.rpcCode = init.rpcCode ?? knownRpc(code);
    this.httpStatus = init.httpStatus;
    this.data = init.data;
    this.retryAfterMs = init.retryAfterMs;
  }
}

function knownRpc(code: string): number | undefined {
  return Object.hasOwn(HubErrorCodes, code) ? HubErrorCodes[code as HubErrorCode].rpc : undefined;
}

export class ParseError extends HubError {}
export class InvalidRequestError extends HubError {}
export class MethodNotFoundError extends HubError {}
export class InvalidParamsError extends HubError {}
export class InternalError extends HubError {}
export class TaskNotFoundError extends HubError {}
export class TaskNotCancelableError extends HubError {}
export class PushNotificationNotSupportedError extends HubError {}
export class UnsupportedOperationError extends HubError {}
export class ContentTypeNotSupportedError extends HubError {}
export class InvalidAgentResponseError extends HubError {}
export class ExtendedAgentCardNotConfiguredError extends HubError {}
export class ExtensionSupportRequiredError extends HubError {}
export class VersionNotSupportedError extends HubError {}
export class UnauthenticatedError extends HubError {}
export class RecipientOfflineError extends HubError {}
export class QueueFullError extends HubError {}
export class SenderThrottledError extends HubError {}
export class TenantQueueFullError extends HubError {}
export class ForbiddenError extends HubError {}
export class AgentNotFoundError extends HubError {}
export class RateLimitedError extends HubError {}
export class PayloadTooLargeError extends HubError {}
export class InsufficientCreditsError extends HubError {}
export class NotFoundError extends HubError {}
export class ConflictError extends HubError {}
export class UnprocessableError extends HubError {}
export class UnavailableError extends HubError {}
/** fetch itself failed (DNS, refused, reset, aborted mid-body): the hub never answered. */
export class HubConnectionError extends HubError {}
/** The hub answered, but not in the protocol (not JSON, no result and no error, …). */
export class BadResponseError extends HubError {}

type ErrorClass = new (code: string, message: string, init?: HubErrorInit) => HubError;

const CLASSES: Record<HubErrorCode, ErrorClass> = {
  PARSE_ERROR: ParseError,
  INVALID_REQUEST: InvalidRequestError,
  METHOD_NOT_FOUND: MethodNotFoundError,
  INVALID_PARAMS: InvalidParamsError,
  INTERNAL: InternalError,
  TASK_NOT_FOUND: TaskNotFoundError,
  TASK_NOT_CANCELABLE: TaskNotCancelableError,
  PUSH_NOTIFICATION_NOT_SUPPORTED: PushNotificationNotSupportedError,
  UNSUPPORTED_OPERATION: UnsupportedOperationError,
  CONTENT_TYPE_NOT_SUPPORTED: ContentTypeNotSupportedError,
  INVALID_AGENT_RESPONSE: InvalidAgentResponseError,
  EXTENDED_AGENT_CARD_NOT_CONFIGURED: ExtendedAgentCardNotConfiguredError,
  EXTENSION_SUPPORT_REQUIRED: ExtensionSupportRequiredError,
  VERSION_NOT_SUPPORTED: VersionNotSupportedError,
  UNAUTHENTICATED: UnauthenticatedError,
  RECIPIENT_OFFLINE: RecipientOfflineError,
  QUEUE_FULL: QueueFullError,
  SENDER_THROTTLED: SenderThrottledError,
  TENANT_QUEUE_FULL: TenantQueueFullError,
  FORBIDDEN: ForbiddenError,
  AGENT_NOT_FOUND: AgentNotFoundError,
  RATE_LIMITED: RateLimitedError,
  PAYLOAD_TOO_LARGE: PayloadTooLargeError,
  INSUFFICIENT_CREDITS: InsufficientCreditsError,
  NOT_FOUND: NotFoundError,
  CONFLICT: ConflictError,
  UNPROCESSABLE: UnprocessableError,
  UNAVAILABLE: UnavailableError,
  CONNECTION_FAILED: HubConnectionError,
  BAD_RESPONSE: BadResponseError,
};

/** JSON-RPC number → name. The first catalog entry wins where the REST-only ones share a number. */
const BY_RPC = new Map<number, HubErrorCode>();
for (const [name, entry] of Object.entries(HubErrorCodes) as Array<
  [HubErrorCode, { rpc: number | undefined }]
>) {
  if (entry.rpc !== undefined && !BY_RPC.has(entry.rpc)) BY_RPC.set(entry.rpc, name);
}

/** HTTP status → name, for a response with no readable error body. */
const BY_STATUS: Record<number, HubErrorCode> = {
  400: 'INVALID_REQUEST',
  401: 'UNAUTHENTICATED',
  402: 'INSUFFICIENT_CREDITS',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'CONTENT_TYPE_NOT_SUPPORTED',
  422: 'UNPROCESSABLE',
  429: 'RATE_LIMITED',
  503: 'UNAVAILABLE',
};

/** Build the typed error for a code name; an unknown name gives a plain HubError carrying it. */
export function hubError(code: string, message: string, init: HubErrorInit = {}): HubError {
  const Class = Object.hasOwn(CLASSES, code) ? CLASSES[code as HubErrorCode] : HubError;
  return new Class(code, message, init);
}

/** A JSON-RPC `error` member as a typed error. */
export function errorFromRpc(
  error: { code: number; message?: string; data?: unknown },
  httpStatus: number | undefined,
  retryAfterMs?: number
): HubError {
  // -32603 is both "Internal error" and "A dependency is unavailable"; only the status tells them apart.
  const name = httpStatus === 503 ? 'UNAVAILABLE' : (BY_RPC.get(error.code) ?? `RPC_${error.code}`);
  return hubError(name, error.message ?? name, {
    rpcCode: error.code,
    httpStatus,
    data: error.data,
    retryAfterMs: retryAfterMs ?? retryAfterFromData(error.data),
  });
}

/** A REST error (`{error:{code, message, details}}`, or any body at all) as a typed error. */
export function errorFromRest(body: unknown, httpStatus: number, retryAfterMs?: number): HubError {
  const e = (body as { error?: unknown } | null)?.error;
  if (typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string') {
    const { code, message, details } = e as { code: string; message?: unknown; details?: unknown };
    return hubError(code, typeof message === 'string' ? message : code, {
      httpStatus,
      data: details,
      retryAfterMs: retryAfterMs ?? retryAfterFromData(details),
    });
  }
  const name = BY_STATUS[httpStatus] ?? (httpStatus >= 500 ? 'INTERNAL' : 'BAD_RESPONSE');
  return hubError(name, `HTTP ${httpStatus} without a hub error body`, {
    httpStatus,
    data: body,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}

/** The rate limiter also puts `retryAfter` (seconds) in the error data. */
function retryAfterFromData(data: unknown): number | undefined {
  const raw = (data as { retryAfter?: unknown } | null | undefined)?.retryAfter;
  return typeof raw === 'number' && Number.isFinite(raw) && raw >= 0 ? raw * 1000 : undefined;
}
