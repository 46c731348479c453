// What the bad-input corpus is made of (bad-input-corpus.ts): the entry and expectation types,
// raw HTTP requests, JSON-RPC calls and messages built from the runner's context, and the
// refusal codes the entries expect.

/** What the corpus runner fills in: the sender's key and the agents it addresses. */
export interface CorpusContext {
  readonly key: string;
  /** The sender's agent id (its own settings are PATCHable with its key). */
  readonly senderId: string;
  /** An agent of the sender's tenant that is offline (a send to it would be queued). */
  readonly offlineAgentId: string;
}

export interface HttpExpectation {
  readonly status: number;
  /** JSON-RPC error code, for JSON-RPC routes; absent for 204 and REST answers. */
  readonly rpcCode?: number;
  /** REST error code, for /api routes. */
  readonly restCode?: string;
  /** The id the error echoes (JSON-RPC), when not null. */
  readonly id?: string | number;
  /** `error.data.field` (JSON-RPC) or `error.details.field` (REST): the field at fault. */
  readonly field?: string;
  /** Matched against the error message. */
  readonly message?: RegExp;
  /** The hub closes the connection right after answering (the client may still be sending). */
  readonly closes?: boolean;
  /**
   * The hub answers before reading what the client is still sending and closes: the kernel then
   * resets the connection, and a reset that reaches the client before it read the answer discards
   * the answer (TCP, RFC 1122 4.2.2.13). A connection closed with no answer at all is accepted;
   * any answer that does arrive must still be exactly the expected one.
   */
  readonly resetMayHideAnswer?: boolean;
}

export interface HttpEntry {
  readonly kind: 'http';
  readonly name: string;
  /** The exact bytes sent on a fresh TCP connection. */
  readonly request: (c: CorpusContext) => Buffer;
  /**
   * 'dropped': uWS closes the connection unanswered before the hub sees a request (malformed
   * framing). undefined: the hub cannot answer it (see `why`); only no crash and nothing stored
   * count.
   */
  readonly expect: HttpExpectation | 'dropped' | undefined;
  readonly why?: string;
}

export interface WsExpectation {
  /** A `{"type":"error"}` frame with this `error` code. */
  readonly error?: string;
  /** A JSON-RPC error frame with this code (and `field` in its data). */
  readonly rpcCode?: number;
  readonly field?: string;
  /** The id the JSON-RPC error echoes. */
  readonly id?: string | number | null;
  /** No frame at all (a notification); checked by a ping that must be answered first. */
  readonly silent?: boolean;
}

export interface WsEntry {
  readonly kind: 'ws';
  readonly name: string;
  readonly frame: (c: CorpusContext) => string | Buffer;
  readonly binary?: boolean;
  readonly expect: WsExpectation;
}

export type CorpusEntry = HttpEntry | WsEntry;

/** A whole HTTP/1.1 request with `Connection: close`, Content-Length set from the body. */
export function httpRequest(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string | Buffer,
  version = 'HTTP/1.1'
): Buffer {
  const bytes = body === undefined ? undefined : Buffer.from(body);
  const lines = [`${method} ${path} ${version}`, 'Host: burrow.test', 'Connection: close'];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  if (bytes !== undefined) lines.push(`Content-Length: ${bytes.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return bytes === undefined ? head : Buffer.concat([head, bytes]);
}

export const JSON_CT = { 'Content-Type': 'application/json' };

/** A POST /a2a with the sender's key and this body (text sent as is). */
export function a2a(body: string | Buffer, headers: Record<string, string> = JSON_CT) {
  return (c: CorpusContext) =>
    httpRequest('POST', '/a2a', { ...headers, Authorization: `Bearer ${c.key}` }, body);
}

/** A JSON-RPC call whose params are built from the context (JSON.stringify'd). */
export function call(method: string, params: (c: CorpusContext) => unknown, id: unknown = 1) {
  return (c: CorpusContext) =>
    a2a(JSON.stringify({ jsonrpc: '2.0', id, method, params: params(c) }))(c);
}

/** SendMessage to the offline agent with this message (so a wrongly accepted one is stored). */
export const send = (message: (c: CorpusContext) => unknown) =>
  call('SendMessage', (c) => ({
    message: message(c),
    configuration: { agentId: c.offlineAgentId },
  }));

export const textPart = (text: string) => ({ kind: 'text', text });
export const msg = (parts: unknown, extra: Record<string, unknown> = {}) => ({
  role: 'user',
  messageId: 'corpus-m',
  parts,
  ...extra,
});

export const INVALID_REQUEST = -32600;
export const AGENT_NOT_FOUND = -32016;
/** No such agent: what passes validation ends in -32016 before anything is stored. */
export const NOBODY = 'agent-nobody-000000';
/** SendMessage to no agent: for content the hub accepts (stored as sent), so nothing is stored. */
export const sendNowhere = (message: unknown) =>
  call('SendMessage', () => ({ message, configuration: { agentId: NOBODY } }));
export const INVALID_PARAMS = -32602;
export const rpcRefusal = (rpcCode: number, field?: string, message?: RegExp): HttpExpectation => ({
  status: 200,
  rpcCode,
  id: 1,
  ...(field === undefined ? {} : { field }),
  ...(message === undefined ? {} : { message }),
});

/** 100,000 nested arrays: JSON.parse copes, a recursive walk over the value would not. */
export const DEEP = '['.repeat(100_000) + ']'.repeat(100_000);
export const DEEP_OBJECT = '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000);
/** `{"a":{"a":…1}}`, `depth` objects deep, as a value. */
export function nestedValue(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

export function a2aHttp10(c: CorpusContext): Buffer {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} });
  return httpRequest(
    'POST',
    '/a2a',
    { ...JSON_CT, Authorization: `Bearer ${c.key}` },
    body,
    'HTTP/1.0'
  );
}
