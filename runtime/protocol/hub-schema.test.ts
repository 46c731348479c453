// Tolerant input (decisions.md §1): hub, A2A v1.0 and v0.3 part shapes normalize to the model;
// bad input fails with InvalidParamsError naming the field as a dotted path.
import { describe, expect, it } from 'vitest';
import { InvalidParamsError } from '../errors/index.js';
import {
  CancelTaskParams,
  GetTaskParams,
  ListTasksParams,
  MessageInput,
  SendMessageParams,
  TaskRespondParams,
} from './hub-schema.js';
import { parseParams } from './parse-params.js';

const PNG = 'iVBORw0KGgo=';

function part(raw: unknown) {
  return parseParams(MessageInput, { parts: [raw] }).parts[0];
}

/** The InvalidParamsError `fn` throws: its field and message. */
function rejection(fn: () => unknown): { field: unknown; message: string } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidParamsError);
    const e = err as InvalidParamsError;
    expect(e.rpcCode).toBe(-32602);
    return { field: (e.data as { field: unknown }).field, message: e.message };
  }
  throw new Error('expected InvalidParamsError');
}

function badMessage(parts: unknown) {
  return rejection(() => parseParams(SendMessageParams, { message: { role: 'user', parts } }));
}

describe('parts: hub shape', () => {
  it('reads text, file (data or uri) and data parts', () => {
    expect(part({ kind: 'text', text: 'hi' })).toEqual({ kind: 'text', text: 'hi' });
    expect(part({ kind: 'file', mimeType: 'image/png', name: 'a.png', data: PNG })).toEqual({
      kind: 'file',
      mimeType: 'image/png',
      name: 'a.png',
      data: PNG,
    });
    expect(part({ kind: 'file', mimeType: 'application/pdf', uri: 'https://x/a.pdf' })).toEqual({
      kind: 'file',
      mimeType: 'application/pdf',
      uri: 'https://x/a.pdf',
    });
    expect(part({ kind: 'data', mimeType: 'text/csv', data: 'a,b\n1,2' })).toEqual({
      kind: 'data',
      mimeType: 'text/csv',
      data: 'a,b\n1,2',
    });
  });

  it('keeps part metadata and stores URL-safe base64 as standard base64', () => {
    expect(part({ kind: 'text', text: 'x', metadata: { a: 1 } })).toEqual({
      kind: 'text',
      text: 'x',
      metadata: { a: 1 },
    });
    expect(part({ kind: 'file', mimeType: 'x/y', data: 'ab-_' })).toMatchObject({ data: 'ab+/' });
  });

  it('names the missing or wrong field', () => {
    expect(badMessage([{ kind: 'text', text: 5 }])).toEqual({
      field: 'message.parts.0.text',
      message: 'Invalid params: message.parts.0.text: must be a string, got number',
    });
    expect(badMessage([{ kind: 'text' }]).field).toBe('message.parts.0.text');
    expect(badMessage([{ kind: 'file', uri: 'https://x' }])).toEqual({
      field: 'message.parts.0.mimeType',
      message: 'Invalid params: message.parts.0.mimeType: is required',
    });
    expect(
      badMessage([
        { kind: 'text', text: 'ok' },
        { kind: 'file', mimeType: 'image/png' },
      ])
    ).toEqual({
      field: 'message.parts.1.data',
      message: 'Invalid params: message.parts.1.data: a file part needs `data` (base64) or `uri`',
    });
    expect(badMessage([{ kind: 'file', mimeType: 'image/png', data: 'not base64!' }]).field).toBe(
      'message.parts.0.data'
    );
    expect(badMessage([{ kind: 'data', data: 'a,b' }]).field).toBe('message.parts.0.mimeType');
    expect(badMessage([{ kind: 'image', text: 'x' }]).field).toBe('message.parts.0.kind');
  });

  it('rejects a part without kind or content, and empty or non-array parts', () => {
    expect(badMessage([{}])).toEqual({
      field: 'message.parts.0',
      message:
        'Invalid params: message.parts.0: a part needs `kind` or one of `text`, `raw`, `url`, `data`',
    });
    expect(badMessage(['hi']).message).toContain('must be an object');
    expect(badMessage([])).toEqual({
      field: 'message.parts',
      message: 'Invalid params: message.parts: must not be empty',
    });
    expect(badMessage('hi').message).toBe(
      'Invalid params: message.parts: must be an array, got string'
    );
    expect(badMessage(undefined).message).toBe('Invalid params: message.parts: is required');
  });
});

describe('parts: A2A v1.0 shape', () => {
  it('reads text, raw, url and data', () => {
    expect(part({ text: 'hi' })).toEqual({ kind: 'text', text: 'hi' });
    expect(part({ raw: PNG, mediaType: 'image/png', filename: 'a.png' })).toEqual({
      kind: 'file',
      mimeType: 'image/png',
      name: 'a.png',
      data: PNG,
    });
    expect(part({ url: 'https://x/a.pdf', mediaType: 'application/pdf' })).toEqual({
      kind: 'file',
      mimeType: 'application/pdf',
      uri: 'https://x/a.pdf',
    });
  });

  it('serializes any JSON data value, as application/json unless a media type says otherwise', () => {
    expect(part({ data: { a: [1, 2] } })).toEqual({
      kind: 'data',
      mimeType: 'application/json',
      data: '{"a":[1,2]}',
    });
    expect(part({ data: [1, 'x'] })).toMatchObject({ data: '[1,"x"]' });
    expect(part({ data: 'plain' })).toMatchObject({
      mimeType: 'application/json',
      data: '"plain"',
    });
    expect(part({ data: 'a,b', mediaType: 'text/csv' })).toEqual({
      kind: 'data',
      mimeType: 'text/csv',
      data: 'a,b',
    });
  });

  it('gives a v1.0 file without a media type application/octet-stream', () => {
    expect(part({ raw: PNG })).toEqual({
      kind: 'file',
      mimeType: 'application/octet-stream',
      data: PNG,
    });
  });

  it('rejects two kinds of content in one part', () => {
    expect(badMessage([{ text: 'a', url: 'https://x' }]).message).toContain('exactly one of');
    expect(badMessage([{ raw: 7 }]).field).toBe('message.parts.0.raw');
  });
});

describe('parts: A2A v0.3 shape', () => {
  it('reads file {bytes|uri} and data objects', () => {
    expect(
      part({ kind: 'file', file: { bytes: PNG, mimeType: 'image/png', name: 'a.png' } })
    ).toEqual({ kind: 'file', mimeType: 'image/png', name: 'a.png', data: PNG });
    expect(part({ kind: 'file', file: { uri: 'https://x/y' } })).toEqual({
      kind: 'file',
      mimeType: 'application/octet-stream',
      uri: 'https://x/y',
    });
    expect(part({ kind: 'data', data: { q: 'x' } })).toEqual({
      kind: 'data',
      mimeType: 'application/json',
      data: '{"q":"x"}',
    });
  });

  it('unwraps a2a-js data_part_compat values', () => {
    const wrapped = { kind: 'data', data: { value: [1, 2] }, metadata: { data_part_compat: true } };
    expect(part(wrapped)).toEqual({ kind: 'data', mimeType: 'application/json', data: '[1,2]' });
  });

  it('names file.bytes when a file has neither bytes nor uri', () => {
    expect(badMessage([{ kind: 'file', file: { name: 'x' } }]).field).toBe(
      'message.parts.0.file.bytes'
    );
  });
});

describe('messages', () => {
  it('maps roles of both families and defaults to user', () => {
    const text = [{ kind: 'text', text: 'x' }];
    expect(parseParams(MessageInput, { role: 'ROLE_AGENT', parts: text }).role).toBe('agent');
    expect(parseParams(MessageInput, { role: 'ROLE_USER', parts: text }).role).toBe('user');
    expect(parseParams(MessageInput, { role: 'agent', parts: text }).role).toBe('agent');
    expect(parseParams(MessageInput, { parts: text }).role).toBe('user');
    expect(rejection(() => parseParams(MessageInput, { role: 'bot', parts: text })).field).toBe(
      'role'
    );
  });

  it('generates msg-<uuid> when messageId is absent or empty, and keeps ids it is given', () => {
    const text = [{ text: 'x' }];
    expect(parseParams(MessageInput, { parts: text }).messageId).toMatch(/^msg-[0-9a-f-]{36}$/);
    expect(parseParams(MessageInput, { parts: text, messageId: '' }).messageId).toMatch(/^msg-/);
    const m = parseParams(MessageInput, {
      kind: 'message',
      parts: text,
      messageId: 'm1',
      contextId: 'c1',
      taskId: 't1',
      metadata: { k: 'v' },
    });
    expect(m).toEqual({
      role: 'user',
      parts: [{ kind: 'text', text: 'x' }],
      messageId: 'm1',
      contextId: 'c1',
      taskId: 't1',
      metadata: { k: 'v' },
    });
  });

  it('rejects wrong JSON types', () => {
    const text = [{ text: 'x' }];
    expect(rejection(() => parseParams(MessageInput, { parts: text, messageId: 5 })).field).toBe(
      'messageId'
    );
    expect(rejection(() => parseParams(MessageInput, { parts: text, metadata: [] })).field).toBe(
      'metadata'
    );
    expect(
      rejection(() => parseParams(MessageInput, { parts: text, messageId: 'a\ud800' }))
    ).toEqual({
      field: 'messageId',
      message: 'Invalid params: messageId: must be well-formed Unicode',
    });
  });
});

describe('params', () => {
  const message = { role: 'user', parts: [{ kind: 'text', text: 'hi' }] };

  it('refuses a NUL character in any id, naming the field (PostgreSQL text cannot hold one)', () => {
    expect(rejection(() => parseParams(ListTasksParams, { contextId: '\u0000' })).field).toBe(
      'contextId'
    );
    expect(rejection(() => parseParams(GetTaskParams, { id: 'task-\u0000' })).field).toBe('id');
    const nulMessage = { ...message, messageId: 'm\u0000' };
    expect(rejection(() => parseParams(SendMessageParams, { message: nulMessage })).field).toBe(
      'message.messageId'
    );
  });

  it('drops an x-hub a caller puts in message.metadata, keeping the rest', () => {
    const forged = { sender: { agentId: 'agent-forged' } };
    const parse = (metadata: unknown) =>
      parseParams(SendMessageParams, { message: { ...message, metadata } }).message;
    expect(parse({ trace: 'a', 'x-hub': forged }).metadata).toEqual({ trace: 'a' });
    expect(parse({ 'x-hub': forged })).not.toHaveProperty('metadata');
    expect(parse({ trace: 'a' }).metadata).toEqual({ trace: 'a' });
  });

  it('SendMessage: configuration fields and their types', () => {
    const p = parseParams(SendMessageParams, {
      message,
      configuration: {
        agentId: 'echo',
        historyLength: 0,
        acceptedOutputModes: ['text/plain'],
        blocking: true,
        'x-ttl': 0,
      },
      'x-hub': { forged: true },
    });
    expect(p.configuration).toMatchObject({ agentId: 'echo', historyLength: 0, 'x-ttl': 0 });
    expect(p).not.toHaveProperty('x-hub');
    const bad = (configuration: unknown) =>
      rejection(() => parseParams(SendMessageParams, { message, configuration }));
    expect(bad({ historyLength: -1 })).toEqual({
      field: 'configuration.historyLength',
      message: 'Invalid params: configuration.historyLength: must be at least 0',
    });
    expect(bad({ historyLength: 1.5 }).message).toContain('must be an integer, got a fraction');
    expect(bad({ 'x-ttl': '60' }).field).toBe('configuration.x-ttl');
    expect(bad({ blocking: 'yes' }).message).toContain('must be a boolean, got string');
    expect(bad({ acceptedOutputModes: 'text/plain' }).field).toBe(
      'configuration.acceptedOutputModes'
    );
    expect(rejection(() => parseParams(SendMessageParams, {})).field).toBe('message');
    expect(rejection(() => parseParams(SendMessageParams, [])).field).toBe('params');
  });

  it('GetTask and CancelTask need an id', () => {
    expect(parseParams(GetTaskParams, { id: 't1', historyLength: 2 })).toEqual({
      id: 't1',
      historyLength: 2,
    });
    expect(rejection(() => parseParams(GetTaskParams, undefined))).toEqual({
      field: 'id',
      message: 'Invalid params: id: is required',
    });
    expect(rejection(() => parseParams(CancelTaskParams, { id: '' })).message).toContain(
      'must not be empty'
    );
  });

  it('ListTasks: both state spellings, page size bounds and default', () => {
    expect(parseParams(ListTasksParams, {})).toMatchObject({ pageSize: 50 });
    expect(parseParams(ListTasksParams, { status: 'TASK_STATE_INPUT_REQUIRED' }).status).toBe(
      'input-required'
    );
    expect(parseParams(ListTasksParams, { status: 'completed' }).status).toBe('completed');
    expect(parseParams(ListTasksParams, { status: 'TASK_STATE_UNSPECIFIED' }).status).toBe(
      undefined
    );
    expect(rejection(() => parseParams(ListTasksParams, { status: 'done' })).field).toBe('status');
    for (const status of ['constructor', 'toString', '__proto__']) {
      expect(rejection(() => parseParams(ListTasksParams, { status })).field).toBe('status');
    }
    expect(rejection(() => parseParams(ListTasksParams, { pageSize: 0 })).field).toBe('pageSize');
    expect(rejection(() => parseParams(ListTasksParams, { pageSize: 101 })).message).toContain(
      'must be at most 100'
    );
    expect(
      parseParams(ListTasksParams, { statusTimestampAfter: '2025-01-01T00:00:00Z' })
        .statusTimestampAfter
    ).toBe(Date.UTC(2025, 0, 1));
  });

  it('task/respond: states, status text, artifact and lastChunk default', () => {
    const p = parseParams(TaskRespondParams, {
      taskId: 't1',
      status: { state: 'completed', message: 'done' },
      artifact: { name: 'out', parts: [{ kind: 'text', text: 'r' }] },
    });
    expect(p.lastChunk).toBe(true);
    expect(p.status).toEqual({ state: 'completed', message: 'done' });
    expect(p.artifact?.artifactId).toMatch(/^artifact-/);
    expect(p.artifact).toMatchObject({ name: 'out', parts: [{ kind: 'text', text: 'r' }] });

    const q = parseParams(TaskRespondParams, {
      taskId: 't1',
      status: {
        state: 'TASK_STATE_INPUT_REQUIRED',
        message: { parts: [{ text: 'which' }, { text: 'one?' }] },
      },
      artifact: { id: 'a1', parts: [{ text: 'x' }] },
      lastChunk: false,
    });
    expect(q.status).toEqual({ state: 'input-required', message: 'which one?' });
    expect(q.artifact?.artifactId).toBe('a1');
    expect(q.lastChunk).toBe(false);

    const bad = (params: unknown) => rejection(() => parseParams(TaskRespondParams, params));
    expect(bad({ taskId: 't1', status: { state: 'canceled' } })).toEqual({
      field: 'status.state',
      message:
        'Invalid params: status.state: must be one of completed, failed, input-required, rejected, working',
    });
    expect(bad({ taskId: 't1', status: { state: 'working', message: 3 } }).field).toBe(
      'status.message'
    );
    expect(bad({ taskId: 't1', status: { state: 'working' }, artifact: { parts: [] } }).field).toBe(
      'artifact.parts'
    );
    expect(bad({ status: { state: 'working' } }).field).toBe('taskId');
  });
});
