// The log record of a compact (light) snapshot is written around its context's own JSON, which
// the task index then reuses: the bytes must be exactly those of JSON.stringify of the record,
// whatever the context holds, or readers of the log and the index would see two different tasks.
import { describe, expect, it } from 'vitest';
import { encodeJson } from '../bus/index.js';
import { encodeRecord, fromRecord, toRecord, type StoredActor } from './actor-record.js';
import type { RestorePoint } from './hosted-actor.js';

const dec = new TextDecoder();

const light = (context: unknown, value: unknown = 'working'): RestorePoint => ({
  state: { value: value as never, status: 'active', context },
});

describe('encodeRecord', () => {
  const contexts: Array<[string, unknown]> = [
    ['a task-like context', { id: 't-1', messages: [{ parts: [{ text: 'hi' }] }], rev: 3 }],
    ['NUL, lone surrogates, a pair and quotes', { text: 'a\u0000b\ud800"c\\d\ud83d\ude00' }],
    ['undefined and function members (dropped)', { a: undefined, b: () => 1, c: [undefined] }],
    ['a nested state value', { n: 1 }],
  ];
  for (const [name, context] of contexts) {
    for (const key of [undefined, 'agent-1:m-"1"']) {
      it(`writes ${name}${key ? ' with a key' : ''} as JSON.stringify of the record`, () => {
        const point = light(context, name.includes('nested') ? { a: { b: 'c' } } : 'working');
        const { data, contextJson } = encodeRecord(point, 1_700_000_000_123, key);
        expect(dec.decode(data)).toBe(
          dec.decode(encodeJson(toRecord(point, 1_700_000_000_123, key)))
        );
        expect(contextJson).toBe(JSON.stringify(context));
        const back = fromRecord(JSON.parse(dec.decode(data)) as StoredActor);
        expect(back.key).toBe(key);
        expect(back.point.state.context).toEqual(JSON.parse(JSON.stringify(context)));
      });
    }
  }

  it("hands no context JSON for a full actor's snapshot, and writes it as before", () => {
    const point: RestorePoint = {
      state: { value: 'idle', status: 'active', context: { n: 1 } },
      snapshot: { value: 'idle', status: 'active', context: { n: 1 }, children: {} },
    };
    const { data, contextJson } = encodeRecord(point, 5, 'k');
    expect(contextJson).toBeUndefined();
    expect(dec.decode(data)).toBe(JSON.stringify(toRecord(point, 5, 'k')));
  });

  it('hands no context JSON for a context that is not an object', () => {
    const point = light(undefined);
    const { data, contextJson } = encodeRecord(point, 5, undefined);
    expect(contextJson).toBeUndefined();
    expect(dec.decode(data)).toBe(JSON.stringify(toRecord(point, 5, undefined)));
  });
});
