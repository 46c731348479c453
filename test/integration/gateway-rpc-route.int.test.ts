// POST /a2a over a real uWS gateway on port 0: envelope errors echo the id, HTTP statuses, body limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubError, UnauthenticatedError } from '../../runtime/errors/index.js';
import type { RpcHandler } from '../../gateway/deps.js';
import { startTestGateway, type TestGateway } from '../../gateway/test-gateway.js';

const LIMIT = 2048;

const handlers = new Map<string, RpcHandler>([
  [
    'SendMessage',
    (params, ctx) =>
      Promise.resolve({ echo: params, path: ctx.path, version: ctx.headers['a2a-version'] }),
  ],
  ['Whoami', () => Promise.reject(new UnauthenticatedError())],
  [
    'Hammer',
    () => Promise.reject(new HubError('RATE_LIMITED', undefined, { data: { retryAfter: 30 } })),
  ],
]);

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ rpc: handlers, config: { bodyLimitBytes: LIMIT } });
});
afterAll(() => gw.close());

async function post(
  body: string | ReadableStream<Uint8Array>,
  headers: Record<string, string> = {}
) {
  const res = await fetch(`${gw.base}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  });
  return {
    res,
    json: (await res.json()) as {
      id: unknown;
      result?: unknown;
      error?: { code: number; message: string; data?: unknown };
    },
  };
}

describe('POST /a2a', () => {
  it('calls the handler and returns its result', async () => {
    const { res, json } = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'SendMessage',
        params: { message: { parts: [] } },
        id: 1,
      }),
      { 'a2a-version': '1.0', 'content-type': 'application/json; charset=utf-8' }
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(json).toEqual({
      jsonrpc: '2.0',
      result: { echo: { message: { parts: [] } }, path: '/a2a', version: '1.0' },
      id: 1,
    });
  });

  it.each([
    ['invalid JSON', '{"jsonrpc":"2.0",', null, -32700],
    ['a batch', '[{"jsonrpc":"2.0","method":"SendMessage","id":1}]', null, -32600],
    ['a wrong jsonrpc', '{"jsonrpc":"1.0","method":"SendMessage","id":"r-2"}', 'r-2', -32600],
    ['a non-string method', '{"jsonrpc":"2.0","method":1,"id":3}', 3, -32600],
    ['string params', '{"jsonrpc":"2.0","method":"SendMessage","params":"x","id":4}', 4, -32600],
    ['an object id', '{"jsonrpc":"2.0","method":"SendMessage","id":{}}', null, -32600],
    ['an unknown method', '{"jsonrpc":"2.0","method":"tasks/nope","id":"r-6"}', 'r-6', -32601],
  ])(
    'answers %s with HTTP 200 and the JSON-RPC error, echoing the id',
    async (_name, body, id, code) => {
      const { res, json } = await post(body);
      expect(res.status).toBe(200);
      expect(json).toMatchObject({ jsonrpc: '2.0', id, error: { code } });
    }
  );

  it('refuses a non-JSON content type with -32600 and a clear message', async () => {
    const { res, json } = await post('{"jsonrpc":"2.0","method":"SendMessage","id":7}', {
      'content-type': 'text/plain',
    });
    expect(res.status).toBe(200);
    expect(json.id).toBe(7);
    expect(json.error?.code).toBe(-32600);
    expect(json.error?.message).toContain('Content-Type must be application/json');
  });

  it('answers UNAUTHENTICATED with HTTP 401', async () => {
    const { res, json } = await post('{"jsonrpc":"2.0","method":"Whoami","id":8}');
    expect(res.status).toBe(401);
    expect(json).toMatchObject({ id: 8, error: { code: -32010 } });
  });

  it('answers RATE_LIMITED with HTTP 429 and Retry-After', async () => {
    const { res, json } = await post('{"jsonrpc":"2.0","method":"Hammer","id":9}');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(json).toMatchObject({ id: 9, error: { code: -32017, data: { retryAfter: 30 } } });
  });

  it('answers 413 with a -32018 envelope when Content-Length is over the limit', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      method: 'SendMessage',
      params: { pad: 'x'.repeat(LIMIT) },
      id: 10,
    });
    const { res, json } = await post(big);
    expect(res.status).toBe(413);
    expect(json).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32018, data: { limit: LIMIT } },
    });
  });

  it('answers 413 when a chunked body grows over the limit', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(700));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const { res, json } = await post(stream);
    expect(res.status).toBe(413);
    expect(json.error?.code).toBe(-32018);
  });

  it('reads a chunked body under the limit', async () => {
    const text = JSON.stringify({
      jsonrpc: '2.0',
      method: 'SendMessage',
      params: { n: 1 },
      id: 11,
    });
    const enc = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(enc.encode(text.slice(0, 10)));
        controller.enqueue(enc.encode(text.slice(10)));
        controller.close();
      },
    });
    const { res, json } = await post(stream);
    expect(res.status).toBe(200);
    expect(json).toMatchObject({ id: 11, result: { echo: { n: 1 } } });
  });

  it('keeps serving on the same connection after a 413', async () => {
    await post('x'.repeat(LIMIT * 4));
    const { res } = await post('{"jsonrpc":"2.0","method":"SendMessage","id":12}');
    expect(res.status).toBe(200);
  });
});
