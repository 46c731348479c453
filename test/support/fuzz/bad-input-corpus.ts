// The bad-input corpus (issue 18, item 9): malformed HTTP requests, JSON-RPC bodies and WebSocket
// frames, each with the exact answer the hub owes it. Unlike the random fuzz run (cases.ts), every
// entry here names its expected status, JSON-RPC code and the field at fault, so a regression in
// any one refusal shows by name. Add an entry for every bad input found in the wild.
import {
  DEEP,
  DEEP_OBJECT,
  INVALID_PARAMS,
  INVALID_REQUEST,
  JSON_CT,
  a2a,
  a2aHttp10,
  call,
  httpRequest,
  msg,
  nestedValue,
  rpcRefusal,
  send,
  type CorpusEntry,
} from './corpus-kit.js';
import { MESSAGE_ENTRIES } from './bad-input-messages.js';

export {
  httpRequest,
  type CorpusContext,
  type CorpusEntry,
  type HttpEntry,
  type HttpExpectation,
  type WsEntry,
  type WsExpectation,
} from './corpus-kit.js';

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
  ...MESSAGE_ENTRIES,
];
