import { describe, expect, it } from 'vitest';
import { assignment, fnv1a32, ownerOf, partitionOf } from './hash.js';

describe('placement hashing', () => {
  it('fnv1a32 matches the reference vectors', () => {
    expect(fnv1a32('')).toBe(0x811c9dc5);
    expect(fnv1a32('a')).toBe(0xe40c292c);
    expect(fnv1a32('foobar')).toBe(0xbf9cf968);
  });

  it('puts a key in the same partition every time, within range', () => {
    for (const k of ['t1', 'tenant-x', 'agent-abc']) {
      const p = partitionOf(k, 32);
      expect(p).toBe(partitionOf(k, 32));
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThan(32);
    }
  });

  it('assigns every partition to exactly one live node, roughly evenly', () => {
    const nodes = ['n1', 'n2', 'n3'];
    const a = assignment(32, nodes);
    const all = [...a.values()].flat().sort((x, y) => x - y);
    expect(all).toEqual(Array.from({ length: 32 }, (_, i) => i));
    for (const ps of a.values()) expect(ps.length).toBeGreaterThanOrEqual(5);
  });

  it('moves only the partitions of a node that leaves', () => {
    const before = assignment(32, ['n1', 'n2', 'n3']);
    const after = assignment(32, ['n1', 'n2']);
    for (const n of ['n1', 'n2']) {
      for (const p of before.get(n)!) expect(ownerOf(p, ['n1', 'n2'])).toBe(n);
    }
    expect(after.get('n1')!.length + after.get('n2')!.length).toBe(32);
  });

  it('has no owner without members', () => {
    expect(ownerOf(3, [])).toBeUndefined();
  });
});
