// Tool results and errors as MCP clients see them: the hub's code and JSON-RPC number survive,
// details ride in _meta (never in structuredContent, which clients check against the schema).
import { describe, expect, it } from 'vitest';
import { TaskNotCancelableError, hubError } from '../../sdk/index.js';
import { ERROR_META, TaskOutcomeError, guarded, toolError, toolResult } from './tool-result.js';

describe('toolResult', () => {
  it('gives the value as structured content and as JSON after the summary', () => {
    const r = toolResult('Task t is completed', { taskId: 't', state: 'completed' });
    expect(r.structuredContent).toEqual({ taskId: 't', state: 'completed' });
    const text = (r.content[0] as { text: string }).text;
    expect(text.split('\n')[0]).toBe('Task t is completed');
    expect(JSON.parse(text.slice(text.indexOf('{')))).toEqual(r.structuredContent);
    expect(r.isError).toBeUndefined();
  });
});

describe('toolError', () => {
  it("keeps a hub error's code, JSON-RPC number, message and data", () => {
    const err = new TaskNotCancelableError('TASK_NOT_CANCELABLE', 'Task t is completed', {
      rpcCode: -32002,
      data: { taskId: 't' },
    });
    const r = toolError(err);
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toBeUndefined();
    expect(r.content[0]).toEqual({
      type: 'text',
      text: 'TASK_NOT_CANCELABLE -32002: Task t is completed',
    });
    expect(r._meta?.[ERROR_META]).toEqual({
      code: 'TASK_NOT_CANCELABLE',
      rpcCode: -32002,
      message: 'Task t is completed',
      data: { taskId: 't' },
    });
  });

  it('names REST codes without a JSON-RPC number as they are', () => {
    const r = toolError(hubError('NOT_FOUND', 'No agent agent-x', { httpStatus: 404 }));
    expect((r.content[0] as { text: string }).text).toMatch(/^NOT_FOUND( -32001)?: No agent/);
  });

  it('reports an agent-side failure with its own code and the task', () => {
    const r = toolError(
      new TaskOutcomeError('TASK_FAILED', 'you have no memory mem_1', { taskId: 't' })
    );
    expect(r._meta?.[ERROR_META]).toEqual({
      code: 'TASK_FAILED',
      message: 'you have no memory mem_1',
      data: { taskId: 't' },
    });
  });

  it('maps argument errors to INVALID_PARAMS and anything else to INTERNAL', () => {
    expect(toolError(new TypeError('send: give the message `text`'))._meta?.[ERROR_META]).toEqual({
      code: 'INVALID_PARAMS',
      message: 'send: give the message `text`',
    });
    expect(toolError(new Error('boom'))._meta?.[ERROR_META]).toEqual({
      code: 'INTERNAL',
      message: 'boom',
    });
  });

  it('guarded turns a throw into a tool error instead of rejecting', async () => {
    const r = await guarded(() => Promise.reject(new Error('hub gone')));
    expect(r.isError).toBe(true);
  });
});
