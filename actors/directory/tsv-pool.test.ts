import { describe, expect, it } from 'vitest';
import { parseTsVector, tsRank, type TsQuery } from './text-search.js';
import { TsvPool } from './tsv-pool.js';

const plain = (v: { lexemes: readonly string[]; pos: Uint16Array; off: Uint32Array }) => {
  const out: Array<[string, number[]]> = [];
  for (let i = 0; i < v.lexemes.length; i++) {
    out.push([v.lexemes[i]!, [...v.pos.subarray(v.off[i], v.off[i + 1])]]);
  }
  return out;
};

describe('TsvPool', () => {
  const a = parseTsVector(`'1':3A 'answer':12C 'taxi':1A,4B 'trivia':5B`);
  const b = parseTsVector(`'book':18C 'cook':15C,16 'zebra'`);

  it('gives back each slot its vector, lexemes and positions', () => {
    const pool = new TsvPool();
    pool.put(0, a);
    pool.put(5, b);
    expect(plain(pool.get(0))).toEqual(plain(a));
    expect(plain(pool.get(5))).toEqual(plain(b));
    expect(pool.same(0, a)).toBe(true);
    expect(pool.same(0, b)).toBe(false);
    expect(pool.same(5, parseTsVector(`'book':18C 'cook':15C,17 'zebra'`))).toBe(false);
  });

  it('ranks a pooled vector as the parsed one', () => {
    const pool = new TsvPool();
    pool.put(1, b);
    pool.put(2, a);
    const q: TsQuery = { kind: 'term', lexeme: 'taxi', prefix: false, weightMask: 0 };
    expect(tsRank(pool.get(2), q)).toBe(tsRank(a, q));
  });

  it('keeps every vector through replacement, release and compaction', () => {
    const pool = new TsvPool();
    for (let slot = 0; slot < 2000; slot++) pool.put(slot, slot % 2 === 0 ? a : b);
    for (let slot = 0; slot < 2000; slot += 3) pool.put(slot, b);
    for (let slot = 1; slot < 2000; slot += 7) pool.release(slot);
    pool.compact();
    for (let slot = 0; slot < 2000; slot++) {
      const released = slot % 7 === 1;
      const expected = released ? [] : slot % 3 === 0 || slot % 2 === 1 ? plain(b) : plain(a);
      expect(plain(pool.get(slot)), String(slot)).toEqual(expected);
    }
    expect(pool.text('taxi')).toBe('taxi');
    expect(pool.text('absent')).toBeUndefined();
  });

  it('fills pages in bulk and reads the same vectors before and after compacting', () => {
    const pool = new TsvPool();
    pool.beginBulk();
    // A vector larger than a page gets a page of its own; the rest share pages.
    const big = parseTsVector(
      Array.from({ length: 300_000 }, (_, i) => `'w${i}':${(i % 16000) + 1}`).join(' ')
    );
    const vectors = (slot: number) => (slot === 70_000 ? big : slot % 2 === 0 ? a : b);
    for (let slot = 0; slot < 140_000; slot++) pool.put(slot, vectors(slot));
    const check = () => {
      for (const slot of [0, 1, 69_999, 70_000, 70_001, 139_999]) {
        expect(plain(pool.get(slot)), String(slot)).toEqual(plain(vectors(slot)));
        expect(pool.same(slot, vectors(slot))).toBe(true);
        const seen: number[] = [];
        pool.visit(slot, (_id, pos, start, end) => seen.push(...pos.subarray(start, end)));
        expect(seen).toEqual([...vectors(slot).pos.subarray(0, seen.length)]);
      }
    };
    check();
    pool.compact();
    check();
    expect(() => pool.beginBulk()).toThrow(/not empty/);
  });
});
