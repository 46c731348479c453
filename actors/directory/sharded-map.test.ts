import { describe, expect, it } from 'vitest';
import { ShardedMap } from './sharded-map.js';

describe('ShardedMap', () => {
  it('keeps, replaces, counts and forgets entries as a Map does', () => {
    const m = new ShardedMap<number>();
    const reference = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) {
      const key = `agent-${i % 15_000}`;
      m.set(key, i);
      reference.set(key, i);
    }
    for (let i = 0; i < 15_000; i += 4) {
      expect(m.delete(`agent-${i}`)).toBe(true);
      reference.delete(`agent-${i}`);
    }
    expect(m.delete('agent-0')).toBe(false);
    expect(m.size).toBe(reference.size);
    for (const [k, v] of reference) expect(m.get(k)).toBe(v);
    expect(m.has('agent-4')).toBe(false);
    expect(m.has('agent-5')).toBe(true);
    expect(m.get('')).toBeUndefined();
    expect([...m.values()].sort((x, y) => x - y)).toEqual(
      [...reference.values()].sort((x, y) => x - y)
    );
  });
});
