import { describe, expect, it } from 'vitest';
import { peekFrame } from './frame-peek.js';

const peek = (v: unknown) => peekFrame(Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)));

describe('peekFrame', () => {
  it('reads the id and method of a JSON-RPC frame, wherever they are', () => {
    const big = 'x'.repeat(100_000);
    expect(
      peek({ jsonrpc: '2.0', params: { message: { parts: [{ text: big }] } }, id: 7, method: 'M' })
    ).toEqual({ jsonrpc: true, id: 7, method: 'M' });
    expect(peek({ id: 'abc', jsonrpc: '2.0' })).toEqual({ jsonrpc: true, id: 'abc' });
    expect(peek({ jsonrpc: '2.0', id: null })).toEqual({ jsonrpc: true, id: null });
  });

  it('reads the type and task id of a custom frame', () => {
    expect(
      peek({ type: 'task_response', artifact: { parts: [{ text: '"}]{[\\' }] }, taskId: 't-1' })
    ).toEqual({ jsonrpc: false, type: 'task_response', taskId: 't-1' });
  });

  it('skips escaped quotes and nested brackets inside strings', () => {
    expect(peek('{"a":"he said \\"}\\" \\\\","b":[{"c":"]"}],"id":3, "jsonrpc" : "2.0"}')).toEqual({
      jsonrpc: true,
      id: 3,
    });
  });

  it('does not echo ids that are not strings, numbers or null, nor overlong scalars', () => {
    expect(peek({ jsonrpc: '2.0', id: { x: 1 } })).toEqual({ jsonrpc: true, id: undefined });
    expect(peek({ type: 'x'.repeat(300) })).toEqual({ jsonrpc: false });
  });

  it('stops at malformed or truncated input with what it found', () => {
    expect(peek('{"id":5,"params":{"a":"unterminated')).toEqual({ jsonrpc: false, id: 5 });
    expect(peek('[1,2]')).toEqual({ jsonrpc: false });
    expect(peek('')).toEqual({ jsonrpc: false });
    expect(peek('{"id" 5}')).toEqual({ jsonrpc: false });
  });
});
