// Every error the hub can return, by name: JSON-RPC code, HTTP status, and whether a retry can help.
// Ranges: JSON-RPC 2.0 standard codes; A2A 1.0 -32001..-32009; the hub's block -32010..-32019
// (decisions.md §6) and its continuation from -32020 (issue 28 and later). README.md beside this
// file documents each entry; a unit test keeps them in step.
export const ErrorCatalog = {
  PARSE_ERROR: { rpc: -32700, http: 400, retryable: false, message: 'Parse error' },
  INVALID_REQUEST: { rpc: -32600, http: 400, retryable: false, message: 'Invalid Request' },
  METHOD_NOT_FOUND: { rpc: -32601, http: 404, retryable: false, message: 'Method not found' },
  INVALID_PARAMS: { rpc: -32602, http: 400, retryable: false, message: 'Invalid params' },
  INTERNAL: { rpc: -32603, http: 500, retryable: true, message: 'Internal error' },

  TASK_NOT_FOUND: { rpc: -32001, http: 404, retryable: false, message: 'Task not found' },
  TASK_NOT_CANCELABLE: {
    rpc: -32002,
    http: 409,
    retryable: false,
    message: 'Task cannot be canceled',
  },
  PUSH_NOTIFICATION_NOT_SUPPORTED: {
    rpc: -32003,
    http: 400,
    retryable: false,
    message: 'Push notifications are not supported',
  },
  UNSUPPORTED_OPERATION: {
    rpc: -32004,
    http: 400,
    retryable: false,
    message: 'This operation is not supported',
  },
  CONTENT_TYPE_NOT_SUPPORTED: {
    rpc: -32005,
    http: 415,
    retryable: false,
    message: 'None of the accepted output modes can be produced',
  },
  INVALID_AGENT_RESPONSE: {
    rpc: -32006,
    http: 502,
    retryable: false,
    message: 'Invalid agent response',
  },
  EXTENDED_AGENT_CARD_NOT_CONFIGURED: {
    rpc: -32007,
    http: 404,
    retryable: false,
    message: 'Extended agent card is not configured',
  },
  EXTENSION_SUPPORT_REQUIRED: {
    rpc: -32008,
    http: 400,
    retryable: false,
    message: 'Extension support required',
  },
  VERSION_NOT_SUPPORTED: {
    rpc: -32009,
    http: 400,
    retryable: false,
    message: 'A2A version not supported',
  },

  UNAUTHENTICATED: {
    rpc: -32010,
    http: 401,
    retryable: false,
    message: 'Missing or invalid API key',
  },
  RECIPIENT_OFFLINE: {
    rpc: -32011,
    http: 409,
    retryable: true,
    message: 'Recipient is offline and x-ttl is 0',
  },
  QUEUE_FULL: { rpc: -32012, http: 429, retryable: true, message: 'Recipient queue is full' },
  SENDER_THROTTLED: {
    rpc: -32013,
    http: 429,
    retryable: true,
    message: 'Too many pending messages from this sender to this recipient',
  },
  TENANT_QUEUE_FULL: {
    rpc: -32014,
    http: 429,
    retryable: true,
    message: 'Recipient tenant queue is full',
  },
  FORBIDDEN: {
    rpc: -32015,
    http: 403,
    retryable: false,
    message: 'Not allowed to message this agent',
  },
  AGENT_NOT_FOUND: { rpc: -32016, http: 404, retryable: false, message: 'Agent not found' },
  RATE_LIMITED: { rpc: -32017, http: 429, retryable: true, message: 'Rate limit exceeded' },
  PAYLOAD_TOO_LARGE: { rpc: -32018, http: 413, retryable: false, message: 'Payload too large' },
  INSUFFICIENT_CREDITS: {
    rpc: -32019,
    http: 402,
    retryable: false,
    message: 'Insufficient credits',
  },
  WORKSPACE_NOT_FOUND: {
    rpc: -32023,
    http: 404,
    retryable: false,
    message: 'Workspace not found',
  },

  // Issue 28: a send or spend that a spending budget (tenant or agent, daily or monthly) refuses;
  // `data.budget` names it. Retrying helps only after `data.budget.resetsAt` or a raised limit.
  SPENDING_LIMIT_EXCEEDED: {
    rpc: -32025,
    http: 402,
    retryable: false,
    message: 'Spending limit exceeded',
  },

  // REST-only conditions (decisions.md §6); JSON-RPC callers see them as -32603 or a mapped code.
  NOT_FOUND: { rpc: -32001, http: 404, retryable: false, message: 'Not found' },
  CONFLICT: { rpc: -32600, http: 409, retryable: false, message: 'Conflict' },
  UNPROCESSABLE: { rpc: -32602, http: 422, retryable: false, message: 'Cannot be applied' },
  UNAVAILABLE: { rpc: -32603, http: 503, retryable: true, message: 'A dependency is unavailable' },
} as const satisfies Record<
  string,
  { rpc: number; http: number; retryable: boolean; message: string }
>;

export type ErrorCode = keyof typeof ErrorCatalog;

/** JSON-RPC codes that A2A 1.0 names, with the `reason` used in its ErrorInfo detail. */
export const A2A_REASONS: Partial<Record<ErrorCode, string>> = {
  TASK_NOT_FOUND: 'TASK_NOT_FOUND',
  TASK_NOT_CANCELABLE: 'TASK_NOT_CANCELABLE',
  PUSH_NOTIFICATION_NOT_SUPPORTED: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
  UNSUPPORTED_OPERATION: 'UNSUPPORTED_OPERATION',
  CONTENT_TYPE_NOT_SUPPORTED: 'CONTENT_TYPE_NOT_SUPPORTED',
  INVALID_AGENT_RESPONSE: 'INVALID_AGENT_RESPONSE',
  EXTENDED_AGENT_CARD_NOT_CONFIGURED: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
  EXTENSION_SUPPORT_REQUIRED: 'EXTENSION_SUPPORT_REQUIRED',
  VERSION_NOT_SUPPORTED: 'VERSION_NOT_SUPPORTED',
};
