// The bad-input corpus's SendMessage params and agent WebSocket frames (bad-input-corpus.ts holds
// the transport, envelope and notification entries, and the whole CORPUS in order).
import {
  AGENT_NOT_FOUND,
  DEEP_OBJECT,
  INVALID_PARAMS,
  INVALID_REQUEST,
  NOBODY,
  call,
  msg,
  rpcRefusal,
  send,
  sendNowhere,
  textPart,
  type CorpusEntry,
} from './corpus-kit.js';

export const MESSAGE_ENTRIES: readonly CorpusEntry[] = [
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
