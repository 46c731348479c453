// The /debug/inspect query, read with its doc's schema: a kind the host runs and/or an actor id,
// each bad value, repeated or unknown parameter named.
import { describe, expect, it } from 'vitest';
import { inspectFilterOf } from './debug-inspect.js';

describe('inspectFilterOf', () => {
  it('takes a kind, an id, or both', () => {
    expect(inspectFilterOf('kind=task', ['task'])).toEqual({ kind: 'task' });
    expect(inspectFilterOf('id=t-1', ['task'])).toEqual({ id: 't-1' });
    expect(inspectFilterOf('kind=task&id=t-1&token=x', ['task'])).toEqual({
      kind: 'task',
      id: 't-1',
    });
  });

  it.each([
    ['', 'kind'],
    ['kind=queue', 'kind'],
    ['kind=', 'kind'],
    ['id=', 'id'],
    [`id=${'x'.repeat(201)}`, 'id'],
    ['kind=task&kind=queue', 'kind'],
    ['id=a&id=b', 'id'],
    ['kind=task&colour=blue', 'colour'],
  ])('refuses %j naming %s', (query, field) => {
    expect(() => inspectFilterOf(query, ['task'])).toThrow(
      new RegExp(`Invalid params: ${field}: `)
    );
  });
});
