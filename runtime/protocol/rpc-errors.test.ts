// JSON-RPC errors per dialect (decisions.md §1, §6).
import { describe, expect, it } from 'vitest';
import { HubError, InternalError, InvalidParamsError } from '../errors/index.js';
import { encodeRpcError } from './rpc-errors.js';

describe('encodeRpcError', () => {
  it('gives A2A errors in v1.0 an ErrorInfo array', () => {
    const err = new HubError('TASK_NOT_FOUND', 'Task not found: t1', {
      data: { taskId: 't1', n: 2 },
    });
    expect(encodeRpcError(err, 'v1')).toEqual({
      code: -32001,
      message: 'Task not found: t1',
      data: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'TASK_NOT_FOUND',
          domain: 'a2a-protocol.org',
          metadata: { taskId: 't1', n: '2' },
        },
      ],
    });
    expect(encodeRpcError(new HubError('VERSION_NOT_SUPPORTED'), 'v1').data).toEqual([
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'VERSION_NOT_SUPPORTED',
        domain: 'a2a-protocol.org',
      },
    ]);
  });

  it('keeps data as it is for the hub dialect, v0.3, and non-A2A codes in v1.0', () => {
    const err = new HubError('TASK_NOT_FOUND', undefined, { data: { taskId: 't1' } });
    expect(encodeRpcError(err, 'hub')).toEqual({
      code: -32001,
      message: 'Task not found',
      data: { taskId: 't1' },
    });
    expect(encodeRpcError(err, 'v0.3')).toEqual({
      code: -32001,
      message: 'Task not found',
      data: { taskId: 't1' },
    });
    const bad = new InvalidParamsError('message.parts', 'must not be empty');
    expect(encodeRpcError(bad, 'v1')).toEqual({
      code: -32602,
      message: 'Invalid params: message.parts: must not be empty',
      data: { field: 'message.parts' },
    });
    expect(encodeRpcError(new HubError('QUEUE_FULL'), 'v1')).toEqual({
      code: -32012,
      message: 'Recipient queue is full',
    });
  });

  it('never shows the details of an internal error', () => {
    const err = new InternalError(new Error('db password wrong'));
    expect(encodeRpcError(err, 'v1', 'req-1')).toEqual({
      code: -32603,
      message: 'Internal error',
      data: { requestId: 'req-1' },
    });
    expect(encodeRpcError(new HubError('INTERNAL', 'secret detail'), 'hub')).toEqual({
      code: -32603,
      message: 'Internal error',
    });
  });
});
