import { describe, expect, it } from 'vitest';
import { AnswerCache } from './answer-cache.js';

describe('AnswerCache', () => {
  it('serves an answer only at the generation it was read at', () => {
    const cache = new AnswerCache({ maxChars: 1_000 });
    cache.set('k', 5n, 'five');
    expect(cache.get('k', 5n)).toBe('five');
    expect(cache.get('k', 6n)).toBeUndefined();
    // A newer generation drops the stale answer.
    expect(cache.has('k')).toBe(false);
    expect(cache.size()).toEqual({ entries: 0, chars: 0 });
  });

  it('keeps the newer answer when an older read finishes last', () => {
    const cache = new AnswerCache({ maxChars: 1_000 });
    cache.set('k', 7n, 'seven');
    cache.set('k', 6n, 'six');
    expect(cache.get('k', 7n)).toBe('seven');
    cache.set('k', 8n, 'eight');
    expect(cache.get('k', 8n)).toBe('eight');
    expect(cache.size()).toEqual({ entries: 1, chars: 'k'.length + 'eight'.length });
  });

  it('evicts the least recently used answers beyond its size', () => {
    const cache = new AnswerCache({ maxChars: 30 });
    cache.set('a', 1n, 'x'.repeat(9)); // 10 chars with its key
    cache.set('b', 1n, 'x'.repeat(9));
    cache.set('c', 1n, 'x'.repeat(9));
    expect(cache.get('a', 1n)).toBeDefined(); // a is now the most recent
    cache.set('d', 1n, 'x'.repeat(9));
    expect(cache.has('b')).toBe(false);
    expect(['a', 'c', 'd'].map((k) => cache.has(k))).toEqual([true, true, true]);
    expect(cache.size()).toEqual({ entries: 3, chars: 30 });
    // An answer larger than the whole cache is not kept (and evicts nothing).
    cache.set('e', 1n, 'x'.repeat(40));
    expect(cache.has('e')).toBe(false);
    expect(cache.size().entries).toBe(3);
  });
});
