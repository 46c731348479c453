// dispatchRpc without uWS: results, error codes, logging of internal errors, rpc metrics.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HubError } from '../../runtime/errors/index.js';
import { createMetrics } from '../../runtime/metrics/index.js';
import type { RpcContext, RpcHandler } from '../deps.js';
import { capturingLogger } from '../test-gateway.js';
import { dispatchRpc } from './dispatch.js';
import { RequestScope } from '../http/index.js';

const ctx: RpcContext = {
  requestId: 'req-9',
  headers: {},
  path: '/a2a',
  scope: new RequestScope(),
};
const JSON_CT = 'application/json';

function setup(handlers: Record<string, RpcHandler>) {
  const { log, lines } = capturingLogger();
  const metrics = createMetrics({ defaultMetrics: false });
  const env = { handlers: new Map(Object.entries(handlers)), log, metrics };
  const call = async (body: string, contentType: string | undefined = JSON_CT) => {
    const reply = await dispatchRpc(Buffer.from(body), contentType, ctx, env);
    return {
      status: reply.status,
      headers: reply.headers,
      json: JSON.parse(String(reply.body)) as Record<string, unknown>,
    };
  };
  /** The raw reply, for answers without a JSON body (notifications). */
  const raw = (body: string, contentType: string | undefined = JSON_CT) =>
    dispatchRpc(Buffer.from(body), contentType, ctx, env);
  return { call, raw, lines, metrics };
}

const GetTaskParams = z.object({ id: z.string().startsWith('task-') });

describe('dispatchRpc', () => {
  const { call, lines, metrics } = setup({
    // Parses before returning a promise, so this also covers a handler that throws synchronously.
    GetTask: (params) =>
      Promise.resolve({ id: GetTaskParams.parse(params).id, status: { state: 'working' } }),
    Nothing: () => Promise.resolve(undefined),
    Broken: () => Promise.reject(new RangeError('index 7 out of range in partition map')),
    Missing: () => Promise.reject(new HubError('TASK_NOT_FOUND')),
  });

  it('returns the result with the request id', async () => {
    const r = await call('{"jsonrpc":"2.0","method":"GetTask","params":{"id":"task-1"},"id":"a"}');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      result: { id: 'task-1', status: { state: 'working' } },
      id: 'a',
    });
  });

  it('sends null for a handler that returns nothing', async () => {
    const r = await call('{"jsonrpc":"2.0","method":"Nothing","id":1}');
    expect(r.json).toEqual({ jsonrpc: '2.0', result: null, id: 1 });
  });

  it('-32601 echoing the id for an unknown method', async () => {
    const r = await call('{"jsonrpc":"2.0","method":"tasks/explode","id":11}');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ id: 11, error: { code: -32601, message: 'Method not found' } });
  });

  it('-32602 naming the field when the handler schema rejects params', async () => {
    const r = await call('{"jsonrpc":"2.0","method":"GetTask","params":{"id":"nope"},"id":12}');
    expect(r.json).toMatchObject({ id: 12, error: { code: -32602, data: { field: 'id' } } });
  });

  it('a thrown HubError goes out with its code', async () => {
    const r = await call('{"jsonrpc":"2.0","method":"Missing","id":13}');
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      error: { code: -32001, message: 'Task not found' },
      id: 13,
    });
  });

  it('-32603 with only the request id for an unexpected error, logged in full', async () => {
    const r = await call('{"jsonrpc":"2.0","method":"Broken","id":14}');
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      error: { code: -32603, message: 'Internal error', data: { requestId: 'req-9' } },
      id: 14,
    });
    expect(JSON.stringify(r.json)).not.toContain('partition map');
    expect(lines.at(-1)).toMatchObject({
      requestId: 'req-9',
      err: { message: expect.stringContaining('partition map') as unknown },
    });
  });

  it('-32600 echoing the id when the content type is not JSON', async () => {
    const r = await call('{"jsonrpc":"2.0","method":"Nothing","id":15}', 'text/plain');
    expect(r.json).toMatchObject({ id: 15, error: { code: -32600 } });
    expect((r.json['error'] as { message: string }).message).toMatch(
      /Content-Type must be application\/json/
    );
  });

  it('records rpc metrics with code 0 on success and the error code otherwise', async () => {
    await call('{"jsonrpc":"2.0","method":"Nothing","id":1}');
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/burrow_rpc_requests_total\{method="Nothing",code="0"\} \d+/);
    expect(text).toMatch(/burrow_rpc_requests_total\{method="unknown",code="-32601"\} 1/);
    expect(text).toMatch(/burrow_rpc_requests_total\{method="Broken",code="-32603"\} 1/);
    expect(text).toMatch(/burrow_rpc_duration_seconds_count\{method="GetTask"\} 2/);
  });
});

describe('dispatchRpc with notifications (no id member)', () => {
  const ran: string[] = [];
  const { call, raw } = setup({
    Note: (params) => {
      ran.push(JSON.stringify(params));
      return Promise.resolve({ ok: true });
    },
    Missing: () => Promise.reject(new HubError('TASK_NOT_FOUND')),
    Unauth: () => Promise.reject(new HubError('UNAUTHENTICATED')),
  });

  it('runs the call and answers 204 without a body', async () => {
    const reply = await raw('{"jsonrpc":"2.0","method":"Note","params":{"n":1}}');
    expect(reply.status).toBe(204);
    expect(reply.body).toBe('');
    expect(ran).toEqual(['{"n":1}']);
  });

  it('does not report its errors, unless the call was refused at the HTTP level', async () => {
    expect((await raw('{"jsonrpc":"2.0","method":"Missing"}')).status).toBe(204);
    expect((await raw('{"jsonrpc":"2.0","method":"no/such"}')).status).toBe(204);
    const refused = await call('{"jsonrpc":"2.0","method":"Unauth"}');
    expect(refused.status).toBe(401);
    expect(refused.json).toMatchObject({ id: null, error: { code: -32010 } });
  });

  it('answers id null, and invalid requests without an id, as usual', async () => {
    const withNull = await call('{"jsonrpc":"2.0","method":"Note","id":null}');
    expect(withNull.json).toEqual({ jsonrpc: '2.0', result: { ok: true }, id: null });
    const invalid = await call('{"jsonrpc":"1.0","method":"Note"}');
    expect(invalid.json).toMatchObject({ id: null, error: { code: -32600 } });
    const notJson = await call('{"jsonrpc":"2.0","method":"Note"}', 'text/plain');
    expect(notJson.json).toMatchObject({ id: null, error: { code: -32600 } });
  });
});
