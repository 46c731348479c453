// The bad-input corpus (issue 18, item 9): malformed HTTP requests, JSON-RPC bodies and WebSocket
// frames, each with the exact answer the hub owes it. Unlike the random fuzz run (cases.ts), every
// entry here names its expected status, JSON-RPC code and the field at fault, so a regression in
// any one refusal shows by name. Add an entry for every bad input found in the wild.

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

const JSON_CT = { 'Content-Type': 'application/json' };

/** A POST /a2a with the sender's key and this body (text sent as is). */
function a2a(body: string | Buffer, headers: Record<string, string> = JSON_CT) {
  return (c: CorpusContext) =>
    httpRequest('POST', '/a2a', { ...headers, Authorization: `Bearer ${c.key}` }, body);
}

/** A JSON-RPC call whose params are built from the context (JSON.stringify'd). */
function call(method: string, params: (c: CorpusContext) => unknown, id: unknown = 1) {
  return (c: CorpusContext) =>
    a2a(JSON.stringify({ jsonrpc: '2.0', id, method, params: params(c) }))(c);
}

/** SendMessage to the offline agent with this message (so a wrongly accepted one is stored). */
const send = (message: (c: CorpusContext) => unknown) =>
  call('SendMessage', (c) => ({
    message: message(c),
    configuration: { agentId: c.offlineAgentId },
  }));

const textPart = (text: string) => ({ kind: 'text', text });
const msg = (parts: unknown, extra: Record<string, unknown> = {}) => ({
  role: 'user',
  messageId: 'corpus-m',
  parts,
  ...extra,
});

const INVALID_REQUEST = -32600;
const AGENT_NOT_FOUND = -32016;
/** No such agent: what passes validation ends in -32016 before anything is stored. */
const NOBODY = 'agent-nobody-000000';
/** SendMessage to no agent: for content the hub accepts (stored as sent), so nothing is stored. */
const sendNowhere = (message: unknown) =>
  call('SendMessage', () => ({ message, configuration: { agentId: NOBODY } }));
const INVALID_PARAMS = -32602;
const rpcRefusal = (rpcCode: number, field?: string, message?: RegExp): HttpExpectation => ({
  status: 200,
  rpcCode,
  id: 1,
  ...(field === undefined ? {} : { field }),
  ...(message === undefined ? {} : { message }),
});

/** 100,000 nested arrays: JSON.parse copes, a recursive walk over the value would not. */
const DEEP = '['.repeat(100_000) + ']'.repeat(100_000);
const DEEP_OBJECT = '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000);
/** `{"a":{"a":…1}}`, `depth` objects deep, as a value. */
function nestedValue(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

export const CORPUS: readonly CorpusEntry[] = [
  // ── transport ────────────────────────────────────────────────────────────────────────────────
  {
    kind: 'http',
    name: 'invalid JSON',
    request: a2a('{"jsonrpc":"2.0","id":1,'),
    expect: { status: 200, rpcCode: -32700, message: /Parse error/ },
  },
  {
    kind: 'http',
    name: 'not UTF-8 JSON at all (binary bytes)',
    request: a2a(Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x80])),
    expect: { status: 200, rpcCode: -32700 },
  },
  {
    kind: 'http',
    name: 'wrong content type',
    request: a2a(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks' }), {
      'Content-Type': 'text/plain',
    }),
    expect: { status: 200, rpcCode: INVALID_REQUEST, id: 1, message: /Content-Type/ },
  },
  {
    kind: 'http',
    name: 'no content type',
    request: a2a(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks' }), {}),
    expect: { status: 200, rpcCode: INVALID_REQUEST, id: 1, message: /Content-Type/ },
  },
  {
    kind: 'http',
    name: 'charset other than UTF-8',
    request: a2a(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks' }), {
      'Content-Type': 'application/json; charset=latin1',
    }),
    expect: { status: 200, rpcCode: INVALID_REQUEST, id: 1 },
  },
  {
    kind: 'http',
    name: 'declared Content-Length of 50 MB on /a2a, nothing sent',
    request: (c) =>
      Buffer.from(
        `POST /a2a HTTP/1.1\r\nHost: burrow.test\r\nAuthorization: Bearer ${c.key}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 50000000\r\n\r\n{"jsonrpc":'
      ),
    expect: { status: 413, rpcCode: -32018, closes: true, message: /exceeds/ },
  },
  {
    kind: 'http',
    name: 'declared Content-Length of 50 MB on /agents/:id/a2a',
    request: (c) =>
      Buffer.from(
        `POST /agents/echo/a2a HTTP/1.1\r\nHost: burrow.test\r\nAuthorization: Bearer ${c.key}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 50000000\r\n\r\n'
      ),
    expect: { status: 413, rpcCode: -32018, closes: true },
  },
  {
    kind: 'http',
    name: 'declared Content-Length of 50 MB on /api, before authentication',
    request: () =>
      Buffer.from(
        'POST /api/agents HTTP/1.1\r\nHost: burrow.test\r\nContent-Type: application/json\r\n' +
          'Content-Length: 50000000\r\n\r\n{"name":'
      ),
    expect: { status: 413, restCode: 'PAYLOAD_TOO_LARGE', closes: true },
  },
  {
    kind: 'http',
    name: 'chunked body to /api without a key: refused unread, the connection closed',
    request: () =>
      Buffer.concat([
        Buffer.from(
          'POST /api/agents HTTP/1.1\r\nHost: burrow.test\r\n' +
            'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n'
        ),
        Buffer.from(`80000\r\n${'x'.repeat(0x80000)}\r\n`),
      ]),
    expect: { status: 401, restCode: 'UNAUTHENTICATED', closes: true, resetMayHideAnswer: true },
  },
  {
    kind: 'http',
    name: 'Content-Length not a number',
    request: (c) =>
      Buffer.from(
        `POST /a2a HTTP/1.1\r\nHost: burrow.test\r\nAuthorization: Bearer ${c.key}\r\n` +
          'Content-Type: application/json\r\nContent-Length: abc\r\n\r\n{}'
      ),
    expect: 'dropped',
  },
  {
    kind: 'http',
    name: 'negative Content-Length',
    request: (c) =>
      Buffer.from(
        `POST /a2a HTTP/1.1\r\nHost: burrow.test\r\nAuthorization: Bearer ${c.key}\r\n` +
          'Content-Type: application/json\r\nContent-Length: -1\r\n\r\n{}'
      ),
    expect: 'dropped',
  },
  {
    kind: 'http',
    name: 'both Transfer-Encoding and Content-Length (request smuggling)',
    request: (c) =>
      Buffer.from(
        `POST /a2a HTTP/1.1\r\nHost: burrow.test\r\nAuthorization: Bearer ${c.key}\r\n` +
          'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n' +
          '2\r\n{}\r\n0\r\n\r\n'
      ),
    expect: 'dropped',
  },
  {
    kind: 'http',
    name: 'malformed chunk size',
    request: (c) =>
      Buffer.from(
        `POST /a2a HTTP/1.1\r\nHost: burrow.test\r\nAuthorization: Bearer ${c.key}\r\n` +
          'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n'
      ),
    expect: 'dropped',
  },
  {
    kind: 'http',
    name: 'HTTP/1.0 GET /health',
    request: () => Buffer.from('GET /health HTTP/1.0\r\n\r\n'),
    expect: undefined,
    why:
      'uWebSockets.js 20.30 parses only "HTTP/1.1" request lines: an HTTP/1.0 request never ' +
      'reaches the hub, and uWS closes the connection at its idle timeout',
  },
  {
    kind: 'http',
    name: 'HTTP/1.0 POST /a2a with Content-Length',
    request: a2aHttp10,
    expect: undefined,
    why: 'as above',
  },

  // ── JSON-RPC envelope ────────────────────────────────────────────────────────────────────────
  {
    kind: 'http',
    name: 'wrong jsonrpc version',
    request: a2a(JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'ListTasks' })),
    expect: rpcRefusal(INVALID_REQUEST, undefined, /jsonrpc must be "2.0"/),
  },
  {
    kind: 'http',
    name: 'missing method',
    request: a2a(JSON.stringify({ jsonrpc: '2.0', id: 1 })),
    expect: rpcRefusal(INVALID_REQUEST, undefined, /method must be a string/),
  },
  {
    kind: 'http',
    name: 'method not a string',
    request: a2a(JSON.stringify({ jsonrpc: '2.0', id: 1, method: ['SendMessage'] })),
    expect: rpcRefusal(INVALID_REQUEST, undefined, /method must be a string/),
  },
  {
    kind: 'http',
    name: 'unknown method',
    request: a2a(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/explode' })),
    expect: rpcRefusal(-32601),
  },
  {
    kind: 'http',
    name: 'method __proto__',
    request: a2a(JSON.stringify({ jsonrpc: '2.0', id: 1, method: '__proto__' })),
    expect: rpcRefusal(-32601),
  },
  {
    kind: 'http',
    name: 'params a string',
    request: a2a(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: 'hi' })),
    expect: rpcRefusal(INVALID_REQUEST, undefined, /params must be an object/),
  },
  {
    kind: 'http',
    name: 'params an array',
    request: a2a(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: [1] })),
    expect: rpcRefusal(INVALID_PARAMS),
  },
  {
    kind: 'http',
    name: 'id an object',
    request: a2a(JSON.stringify({ jsonrpc: '2.0', id: { a: 1 }, method: 'ListTasks' })),
    expect: { status: 200, rpcCode: INVALID_REQUEST, message: /id must be/ },
  },
  {
    kind: 'http',
    name: 'id a boolean',
    request: a2a(JSON.stringify({ jsonrpc: '2.0', id: true, method: 'ListTasks' })),
    expect: { status: 200, rpcCode: INVALID_REQUEST, message: /id must be/ },
  },
  {
    kind: 'http',
    name: 'id a huge number (1e400 is Infinity)',
    request: a2a('{"jsonrpc":"2.0","id":1e400,"method":"ListTasks"}'),
    expect: { status: 200, rpcCode: INVALID_REQUEST, message: /id must be/ },
  },
  {
    kind: 'http',
    name: 'id holding NUL and a lone surrogate',
    request: call('tasks/explode', () => ({}), 'a\u0000\ud800'),
    expect: { status: 200, rpcCode: -32601, id: 'a\u0000\ud800' },
  },
  {
    kind: 'http',
    name: 'duplicate keys (the last method wins, and it is unknown)',
    request: a2a('{"jsonrpc":"2.0","id":1,"method":"ListTasks","method":"tasks/explode"}'),
    expect: rpcRefusal(-32601),
  },
  {
    kind: 'http',
    name: 'body a JSON string',
    request: a2a('"SendMessage"'),
    expect: { status: 200, rpcCode: INVALID_REQUEST },
  },
  {
    kind: 'http',
    name: 'body JSON null',
    request: a2a('null'),
    expect: { status: 200, rpcCode: INVALID_REQUEST },
  },
  {
    kind: 'http',
    name: 'empty body',
    request: a2a(''),
    expect: { status: 200, rpcCode: -32700 },
  },
  {
    kind: 'http',
    name: 'empty batch',
    request: a2a('[]'),
    expect: { status: 200, rpcCode: INVALID_REQUEST, message: /batch/ },
  },
  {
    kind: 'http',
    name: 'batch of junk',
    request: a2a('[1,"x",null,{"jsonrpc":"2.0"}]'),
    expect: { status: 200, rpcCode: INVALID_REQUEST, message: /batch/ },
  },
  {
    kind: 'http',
    name: '100,000 nested arrays',
    request: a2a(DEEP),
    expect: { status: 200, rpcCode: INVALID_REQUEST },
  },
  {
    kind: 'http',
    name: '50,000 nested objects as params',
    request: a2a(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":${DEEP_OBJECT}}`),
    expect: rpcRefusal(INVALID_PARAMS, 'a.a.a.a.a.….a.a', /nests deeper than 64 levels/),
  },
  {
    kind: 'http',
    name: 'message metadata nested 50,000 deep (was -32603)',
    request: (c) =>
      a2a(
        `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"user",` +
          `"messageId":"m","parts":[{"kind":"text","text":"x"}],"metadata":${DEEP_OBJECT}},` +
          `"configuration":{"agentId":"${c.offlineAgentId}"}}}`
      )(c),
    expect: rpcRefusal(INVALID_PARAMS, 'message.metadata.a.a.a.….a.a'),
  },
  {
    kind: 'http',
    name: 'data part nested 65 deep (was stored, and -32603 from 10,000)',
    request: send(() => msg([{ kind: 'data', data: nestedValue(65) }])),
    expect: rpcRefusal(INVALID_PARAMS, 'message.parts.0.data.a.….a.a'),
  },
  {
    kind: 'http',
    name: 'REST body nested 50,000 deep (was 500)',
    request: (c) =>
      httpRequest(
        'PATCH',
        `/api/agents/${c.senderId}`,
        { ...JSON_CT, Authorization: `Bearer ${c.key}` },
        `{"description":${DEEP_OBJECT}}`
      ),
    expect: { status: 400, restCode: 'INVALID_PARAMS', field: 'description.a.a.a.a.….a.a' },
  },

  // ── notifications: no reply, and nothing stored since these all fail ───────────────────────
  {
    kind: 'http',
    name: 'notification of an unknown method',
    request: a2a(JSON.stringify({ jsonrpc: '2.0', method: 'tasks/explode' })),
    expect: { status: 204 },
  },
  {
    kind: 'http',
    name: 'notification SendMessage without a message',
    request: (c) =>
      a2a(
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'SendMessage',
          params: { configuration: { agentId: c.offlineAgentId } },
        })
      )(c),
    expect: { status: 204 },
  },
  {
    kind: 'http',
    name: 'notification with jsonrpc 1.0 is an invalid request, answered',
    request: a2a(JSON.stringify({ jsonrpc: '1.0', method: 'ListTasks' })),
    expect: { status: 200, rpcCode: INVALID_REQUEST },
  },

  // ── SendMessage params ───────────────────────────────────────────────────────────────────────
  {
    kind: 'http',
    name: 'message missing',
    request: call('SendMessage', (c) => ({ configuration: { agentId: c.offlineAgentId } })),
    expect: rpcRefusal(INVALID_PARAMS, 'message'),
  },
  {
    kind: 'http',
    name: 'parts empty',
    request: send(() => msg([])),
    expect: rpcRefusal(INVALID_PARAMS, 'message.parts'),
  },
  {
    kind: 'http',
    name: 'parts not an array',
    request: send(() => msg({ kind: 'text', text: 'x' })),
    expect: rpcRefusal(INVALID_PARAMS, 'message.parts'),
  },
  {
    kind: 'http',
    name: 'part of unknown kind',
    request: send(() => msg([{ kind: 'hologram', text: 'x' }])),
    expect: rpcRefusal(INVALID_PARAMS, 'message.parts.0.kind'),
  },
  {
    kind: 'http',
    name: 'text part without text',
    request: send(() => msg([{ kind: 'text' }])),
    expect: rpcRefusal(INVALID_PARAMS, 'message.parts.0.text'),
  },
  {
    kind: 'http',
    name: 'bad role',
    request: send(() => ({ ...msg([textPart('x')]), role: 'root' })),
    expect: rpcRefusal(INVALID_PARAMS, 'message.role'),
  },
  {
    kind: 'http',
    name: 'messageId a number',
    request: send(() => msg([textPart('x')], { messageId: 42 })),
    expect: rpcRefusal(INVALID_PARAMS, 'message.messageId'),
  },
  {
    kind: 'http',
    name: 'agentId a number',
    request: call('SendMessage', () => ({
      message: msg([textPart('x')]),
      configuration: { agentId: 7 },
    })),
    expect: rpcRefusal(INVALID_PARAMS, 'configuration.agentId'),
  },
  // A NUL or a lone surrogate in text or metadata is accepted and kept as sent (the tasks index
  // stores U+FFFD); here it only has to pass the parser without a 5xx.
  {
    kind: 'http',
    name: 'NUL in text',
    request: sendNowhere(msg([textPart('a\u0000b')])),
    expect: rpcRefusal(AGENT_NOT_FOUND),
  },
  {
    kind: 'http',
    name: 'lone surrogates in text and metadata',
    request: sendNowhere(msg([textPart('a\ud800b\udfff')], { metadata: { '\ud800': '\udc00' } })),
    expect: rpcRefusal(AGENT_NOT_FOUND),
  },
  {
    kind: 'http',
    name: 'NUL in messageId',
    request: send(() => msg([textPart('x')], { messageId: 'm\u0000' })),
    expect: rpcRefusal(INVALID_PARAMS, 'message.messageId'),
  },
  {
    kind: 'http',
    name: 'lone surrogate in contextId',
    request: send(() => msg([textPart('x')], { contextId: '\udc00ctx' })),
    expect: rpcRefusal(INVALID_PARAMS, 'message.contextId'),
  },
  {
    kind: 'http',
    name: 'huge number in a data part is fine JSON but historyLength must be an integer',
    request: call('SendMessage', (c) => ({
      message: msg([textPart('x')]),
      configuration: { agentId: c.offlineAgentId, historyLength: 1e300 },
    })),
    expect: rpcRefusal(INVALID_PARAMS, 'configuration.historyLength'),
  },
  {
    kind: 'http',
    name: 'GetTask with a task id holding NUL',
    request: call('GetTask', () => ({ id: 'task-\u0000' })),
    expect: rpcRefusal(INVALID_PARAMS, 'id'),
  },
  {
    kind: 'http',
    name: 'GetTask with an id that is an object',
    request: call('GetTask', () => ({ id: { $gt: '' } })),
    expect: rpcRefusal(INVALID_PARAMS, 'id'),
  },

  // ── the agent WebSocket (frames under the body limit; size limits belong to gateway/ws) ──────
  {
    kind: 'ws',
    name: 'binary frame that is not JSON',
    frame: () => Buffer.from([0xde, 0xad, 0xbe, 0xef]),
    binary: true,
    expect: { error: 'PARSE_ERROR' },
  },
  {
    kind: 'ws',
    name: 'text frame that is not JSON',
    frame: () => '{"type":',
    expect: { error: 'PARSE_ERROR' },
  },
  {
    kind: 'ws',
    name: 'frame that is a JSON array',
    frame: () => '[{"type":"ping"}]',
    expect: { error: 'PARSE_ERROR' },
  },
  {
    kind: 'ws',
    name: 'frame that is a JSON number',
    frame: () => '42',
    expect: { error: 'PARSE_ERROR' },
  },
  {
    kind: 'ws',
    name: 'JSON-RPC frame with metadata nested 50,000 deep (was -32603)',
    frame: (c) =>
      `{"jsonrpc":"2.0","id":9,"method":"SendMessage","params":{"message":{"role":"user",` +
      `"messageId":"m","parts":[{"kind":"text","text":"x"}],"metadata":${DEEP_OBJECT}},` +
      `"configuration":{"agentId":"${c.offlineAgentId}"}}}`,
    expect: { error: 'INVALID_PARAMS' },
  },
  {
    kind: 'ws',
    name: 'unknown frame type',
    frame: () => '{"type":"teleport"}',
    expect: { error: 'INVALID_REQUEST' },
  },
  {
    kind: 'ws',
    name: 'task_response for an unknown task',
    frame: () =>
      JSON.stringify({
        type: 'task_response',
        taskId: 'task-00000000-0000-0000-0000-000000000000',
        status: { state: 'completed' },
      }),
    expect: { error: 'TASK_NOT_FOUND' },
  },
  {
    kind: 'ws',
    name: 'task_response without a taskId',
    frame: () => JSON.stringify({ type: 'task_response', status: { state: 'completed' } }),
    expect: { error: 'INVALID_PARAMS' },
  },
  {
    kind: 'ws',
    name: 'JSON-RPC frame with an unknown method',
    frame: () => JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tasks/explode' }),
    expect: { rpcCode: -32601, id: 5 },
  },
  {
    kind: 'ws',
    name: 'JSON-RPC frame without a method',
    frame: () => JSON.stringify({ jsonrpc: '2.0', id: 6 }),
    expect: { rpcCode: INVALID_REQUEST, id: 6 },
  },
  {
    kind: 'ws',
    name: 'JSON-RPC SendMessage with a lone surrogate in the text',
    frame: () =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'SendMessage',
        params: { message: msg([textPart('\ud800')]), configuration: { agentId: NOBODY } },
      }),
    expect: { rpcCode: AGENT_NOT_FOUND, id: 7 },
  },
  {
    kind: 'ws',
    name: 'JSON-RPC notification with an unknown method gets no frame',
    frame: () => JSON.stringify({ jsonrpc: '2.0', method: 'tasks/explode' }),
    expect: { silent: true },
  },
  {
    kind: 'ws',
    name: 'JSON-RPC SendMessage notification without a message gets no frame',
    frame: (c) =>
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'SendMessage',
        params: { configuration: { agentId: c.offlineAgentId } },
      }),
    expect: { silent: true },
  },
];

function a2aHttp10(c: CorpusContext): Buffer {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} });
  return httpRequest(
    'POST',
    '/a2a',
    { ...JSON_CT, Authorization: `Bearer ${c.key}` },
    body,
    'HTTP/1.0'
  );
}
