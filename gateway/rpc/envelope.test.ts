// parseEnvelope and isJsonContentType: every JSON-RPC 2.0 envelope error, pure (no uWS).
import { describe, expect, it } from 'vitest';
import { isJsonContentType } from './content-type.js';
import { parseEnvelope } from './envelope.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

function failure(body: string): { id: unknown; code: number; message: string } {
  const r = parseEnvelope(body);
  if (r.ok) throw new Error('expected a failure');
  return { id: r.id, code: r.error.rpcCode, message: r.error.message };
}

describe('parseEnvelope', () => {
  it('accepts a request with object params, from bytes or text', () => {
    const body = '{"jsonrpc":"2.0","method":"GetTask","params":{"id":"task-1"},"id":7}';
    for (const input of [body, bytes(body)]) {
      expect(parseEnvelope(input)).toEqual({
        ok: true,
        request: { method: 'GetTask', params: { id: 'task-1' }, id: 7, notification: false },
      });
    }
  });

  it('accepts array params, absent params, string and null ids', () => {
    expect(parseEnvelope('{"jsonrpc":"2.0","method":"m","params":[1],"id":"a"}')).toMatchObject({
      ok: true,
      request: { params: [1], id: 'a' },
    });
    expect(parseEnvelope('{"jsonrpc":"2.0","method":"m","id":null}')).toMatchObject({
      ok: true,
      request: { params: undefined, id: null, notification: false },
    });
  });

  it('takes a request without an id member as a notification (id null is not one)', () => {
    expect(parseEnvelope('{"jsonrpc":"2.0","method":"m"}')).toMatchObject({
      ok: true,
      request: { id: null, notification: true },
    });
    // An invalid request without an id is no notification: it is answered with id null.
    expect(failure('{"jsonrpc":"1.0","method":"m"}')).toMatchObject({ id: null, code: -32600 });
  });

  it('-32700 Parse error with id null for invalid JSON', () => {
    expect(failure('{"jsonrpc":"2.0","id":1,')).toEqual({
      id: null,
      code: -32700,
      message: 'Parse error',
    });
    expect(failure('').code).toBe(-32700);
  });

  it('-32600 for a batch, saying batches are not supported', () => {
    const f = failure('[{"jsonrpc":"2.0","method":"m","id":1}]');
    expect(f.code).toBe(-32600);
    expect(f.id).toBeNull();
    expect(f.message).toMatch(/batch.*not supported/i);
  });

  it('-32600 with id null when the body is not an object', () => {
    for (const body of ['42', '"x"', 'null', 'true']) {
      expect(failure(body)).toMatchObject({ id: null, code: -32600 });
    }
  });

  it('-32600 echoing the id for a wrong jsonrpc, method or params', () => {
    expect(failure('{"jsonrpc":"1.0","method":"m","id":3}')).toMatchObject({
      id: 3,
      code: -32600,
      message: expect.stringContaining('jsonrpc') as unknown,
    });
    expect(failure('{"method":"m","id":"k"}')).toMatchObject({ id: 'k', code: -32600 });
    expect(failure('{"jsonrpc":"2.0","method":5,"id":4}')).toMatchObject({
      id: 4,
      code: -32600,
      message: expect.stringContaining('method') as unknown,
    });
    expect(failure('{"jsonrpc":"2.0","id":5}')).toMatchObject({ id: 5, code: -32600 });
    for (const params of ['"s"', '1', 'true', 'null']) {
      expect(failure(`{"jsonrpc":"2.0","method":"m","params":${params},"id":6}`)).toMatchObject({
        id: 6,
        code: -32600,
        message: expect.stringContaining('params') as unknown,
      });
    }
  });

  it('-32600 with id null when the id itself is invalid', () => {
    for (const id of ['{}', '[1]', 'true']) {
      expect(failure(`{"jsonrpc":"2.0","method":"m","id":${id}}`)).toMatchObject({
        id: null,
        code: -32600,
        message: expect.stringContaining('id') as unknown,
      });
    }
  });
});

describe('isJsonContentType', () => {
  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON;charset=UTF-8',
    'application/json; charset="utf-8"',
  ])('accepts %s', (value) => {
    expect(isJsonContentType(value)).toBe(true);
  });

  it.each([
    undefined,
    '',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/jsonp',
    'application/json; charset=latin1',
  ])('refuses %s', (value) => {
    expect(isJsonContentType(value)).toBe(false);
  });
});
