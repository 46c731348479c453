import { describe, expect, it } from 'vitest';
import { HubError, InternalError, InvalidParamsError } from './hub-error.js';

describe('HubError', () => {
  it('builds client errors without stack frames and keeps them for server errors', () => {
    const limit = Error.stackTraceLimit;
    const refused = new InvalidParamsError('message.parts', 'must not be empty');
    expect(refused.stack).toBe(
      'InvalidParamsError: Invalid params: message.parts: must not be empty'
    );
    expect(new HubError('RATE_LIMITED').stack).not.toMatch(/\n\s+at /);
    expect(new InternalError(new Error('boom')).stack).toMatch(/\n\s+at /);
    expect(new HubError('UNAVAILABLE', 'db down').stack).toMatch(/\n\s+at /);
    // The limit is only lowered while a client error is built.
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('plain').stack).toMatch(/\n\s+at /);
  });

  it('answers the same whatever its stack', () => {
    const e = new InvalidParamsError('taskId', 'is required');
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({
      name: 'InvalidParamsError',
      code: 'INVALID_PARAMS',
      rpcCode: -32602,
      httpStatus: 400,
      data: { field: 'taskId' },
      message: 'Invalid params: taskId: is required',
    });
  });
});
