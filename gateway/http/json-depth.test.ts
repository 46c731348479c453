import { describe, expect, it } from 'vitest';
import { InvalidParamsError } from '../../runtime/errors/index.js';
import { parseEnvelope } from '../rpc/envelope.js';
import { parseJsonObject } from './json-body.js';
import { MAX_JSON_DEPTH, nestsDeeperThan, tooDeepPath } from './json-depth.js';

const nested = (n: number, inner = '1') => '{"a":'.repeat(n) + inner + '}'.repeat(n);

describe('JSON nesting depth', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    const depth = (text: string) => nestsDeeperThan(JSON.parse(text) as unknown);
    expect(depth(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(depth(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(depth('['.repeat(100_000) + ']'.repeat(100_000))).toBe(true);
    expect(depth(JSON.stringify({ s: '['.repeat(500) + '\\"{{{' }))).toBe(false);
    expect(depth(`[1,{"a":[2,${nested(MAX_JSON_DEPTH - 2)}]}]`)).toBe(true);
  });

  it('finds the path to the deep place', () => {
    const value = { x: 1, m: { meta: JSON.parse(nested(70)) as unknown } };
    expect(tooDeepPath(value)?.slice(0, 3)).toEqual(['m', 'meta', 'a']);
    expect(tooDeepPath({ shallow: [1, [2]] })).toBeUndefined();
  });

  it('a REST body nested 50,000 deep is a 400 naming the field, not a stack overflow', () => {
    const body = Buffer.from(`{"description":${nested(50_000)}}`);
    let err: unknown;
    try {
      parseJsonObject(body, () => new Error('invalid') as never);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidParamsError);
    expect((err as InvalidParamsError).data).toMatchObject({
      field: 'description.a.a.a.a.….a.a',
      maxDepth: MAX_JSON_DEPTH,
    });
  });

  it('a JSON-RPC request nested deep in params is -32602 naming the field, echoing the id', () => {
    const r = parseEnvelope(
      `{"jsonrpc":"2.0","id":3,"method":"SendMessage","params":{"message":{"metadata":${nested(10_000)}}}}`
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.id).toBe(3);
    expect(r.error.rpcCode).toBe(-32602);
    expect((r.error.data as { field: string }).field).toMatch(/^message\.metadata\.a\./);
    const outside = parseEnvelope('['.repeat(1000) + ']'.repeat(1000));
    expect(outside.ok ? 0 : outside.error.rpcCode).toBe(-32600);
  });
});
