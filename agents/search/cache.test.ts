import { describe, expect, it } from 'vitest';
import { TtlLru } from './cache.js';

describe('TtlLru', () => {
  it('answers until the time to live passes, then forgets', () => {
    const c = new TtlLru<string>(10);
    c.set('a', 'A', 1000, 0);
    expect(c.get('a', 999)).toBe('A');
    expect(c.get('a', 1000)).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('drops the least recently used entry when full', () => {
    const c = new TtlLru<number>(2);
    c.set('a', 1, 1000, 0);
    c.set('b', 2, 1000, 0);
    expect(c.get('a', 1)).toBe(1); // a is now the most recent
    c.set('c', 3, 1000, 2);
    expect(c.size).toBe(2);
    expect(c.get('b', 3)).toBeUndefined();
    expect(c.get('a', 3)).toBe(1);
    expect(c.get('c', 3)).toBe(3);
  });

  it('replaces a value and renews its time to live', () => {
    const c = new TtlLru<string>(2);
    c.set('a', 'old', 10, 0);
    c.set('a', 'new', 10, 5);
    expect(c.get('a', 12)).toBe('new');
    expect(c.size).toBe(1);
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => new TtlLru(0)).toThrow(RangeError);
  });
});
