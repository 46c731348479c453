// toRpcError and rpcHttpStatus: each mapping of decisions.md §6, pure (no uWS).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  HubError,
  InvalidParamsError,
  PayloadTooLargeError,
  UnauthenticatedError,
} from '../../runtime/errors/index.js';
import { capturingLogger } from '../test-gateway.js';
import { rpcHttpStatus, toRpcError } from './rpc-error.js';

describe('toRpcError', () => {
  it('sends a HubError as it is: rpcCode, message and data', () => {
    const err = new HubError('QUEUE_FULL', 'Recipient queue is full', { data: { max: 500 } });
    expect(toRpcError(err, 'req-1')).toEqual({
      code: -32012,
      message: 'Recipient queue is full',
      data: { max: 500 },
    });
    expect(toRpcError(new HubError('TASK_NOT_FOUND'), 'req-1')).toEqual({
      code: -32001,
      message: 'Task not found',
    });
  });

  it('never sends the cause of a HubError', () => {
    const err = new HubError('UNAVAILABLE', 'A dependency is unavailable', {
      cause: new Error('password=hunter2'),
    });
    expect(JSON.stringify(toRpcError(err, 'r'))).not.toContain('hunter2');
  });

  it('maps a ZodError to -32602 naming the first bad field', () => {
    const schema = z.object({
      message: z.object({ parts: z.array(z.object({ text: z.string() })) }),
    });
    const parsed = schema.safeParse({ message: { parts: [{ text: 1 }] } });
    expect(parsed.success).toBe(false);
    const out = toRpcError(parsed.error, 'req-2');
    expect(out.code).toBe(-32602);
    expect(out.message).toContain('message.parts.0.text');
    expect(out.data).toEqual({
      field: 'message.parts.0.text',
      issues: [
        {
          path: ['message', 'parts', 0, 'text'],
          code: 'invalid_type',
          message: expect.any(String) as unknown,
        },
      ],
    });
  });

  it('keeps InvalidParamsError data (field) as thrown', () => {
    const out = toRpcError(new InvalidParamsError('configuration.agentId', 'is required'), 'r');
    expect(out).toMatchObject({ code: -32602, data: { field: 'configuration.agentId' } });
  });

  it('hides anything else behind -32603 with the request id, and logs it in full', () => {
    const { log, lines } = capturingLogger();
    const out = toRpcError(new TypeError('secret detail at db.ts:42'), 'req-3', log);
    expect(out).toEqual({ code: -32603, message: 'Internal error', data: { requestId: 'req-3' } });
    expect(JSON.stringify(out)).not.toContain('secret');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 50,
      requestId: 'req-3',
      err: { type: 'TypeError', message: 'secret detail at db.ts:42' },
    });
  });

  it('treats a HubError INTERNAL like an unknown error', () => {
    const { log, lines } = capturingLogger();
    const out = toRpcError(new HubError('INTERNAL', 'pool exhausted on pg-3'), 'req-4', log);
    expect(out).toEqual({ code: -32603, message: 'Internal error', data: { requestId: 'req-4' } });
    expect(lines).toHaveLength(1);
  });

  it('maps non-Error throws too', () => {
    expect(toRpcError('boom', 'r').code).toBe(-32603);
    expect(toRpcError(undefined, 'r').code).toBe(-32603);
  });
});

describe('rpcHttpStatus', () => {
  it('is 200 for ordinary JSON-RPC errors', () => {
    for (const err of [
      new HubError('TASK_NOT_FOUND'),
      new HubError('QUEUE_FULL'),
      new HubError('FORBIDDEN'),
    ]) {
      expect(rpcHttpStatus(toRpcError(err, 'r'))).toEqual({ status: 200 });
    }
    expect(rpcHttpStatus(toRpcError(new Error('x'), 'r')).status).toBe(200);
  });

  it('is 401 for UNAUTHENTICATED, 413 for PAYLOAD_TOO_LARGE', () => {
    expect(rpcHttpStatus(toRpcError(new UnauthenticatedError(), 'r')).status).toBe(401);
    expect(rpcHttpStatus(toRpcError(new PayloadTooLargeError(10), 'r'))).toEqual({ status: 413 });
  });

  it('is 429 for RATE_LIMITED, with Retry-After when data.retryAfter is present', () => {
    const limited = new HubError('RATE_LIMITED', undefined, { data: { retryAfter: 2.2 } });
    expect(rpcHttpStatus(toRpcError(limited, 'r'))).toEqual({
      status: 429,
      headers: { 'retry-after': '3' },
    });
    expect(rpcHttpStatus(toRpcError(new HubError('RATE_LIMITED'), 'r'))).toEqual({ status: 429 });
  });
});
