import { describe, expect, it } from 'vitest';
import { LexemeIndex, LexemeOrder } from './lexeme-index.js';
import { hasSlot, prefixCounts } from './slot-bits.js';
import { compareLexemes, parseTsVector } from './text-search.js';
import { orEntryFloat, orEntryTerm } from './ts-rank.js';
import { TsvPool } from './tsv-pool.js';

const run = (steps: Generator<void>): void => {
  while (steps.next().done !== true);
};

const sorted = (index: LexemeIndex, id: number): number[] =>
  [...Array.from(index.slotsOf(id))].sort((a, b) => a - b);

/** A small deterministic generator. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('LexemeIndex', () => {
  it('keeps postings through inline, pooled, moved and emptied states', () => {
    const index = new LexemeIndex();
    expect(index.add(3, 10, 0.5)).toBe(true);
    expect(index.add(3, 11, 0.25)).toBe(false);
    for (let s = 12; s < 30; s++) index.add(3, s, 0.125);
    expect(index.size(3)).toBe(20);
    expect(sorted(index, 3)).toEqual(Array.from({ length: 20 }, (_, i) => 10 + i));
    for (let s = 12; s < 30; s++) expect(index.remove(3, s)).toBe(false);
    expect(sorted(index, 3)).toEqual([10, 11]);
    expect(index.remove(3, 10)).toBe(false);
    expect(Array.from(index.slotsOf(3))).toEqual([11]);
    expect(index.remove(3, 99)).toBe(false);
    expect(index.remove(3, 11)).toBe(true);
    expect(index.size(3)).toBe(0);
    expect(index.remove(3, 11)).toBe(false);
    expect(index.size(5000)).toBe(0);
  });

  it('keeps every posting in slot order through adds of freed slots and removes', () => {
    const r = rng(11);
    const index = new LexemeIndex();
    const held = new Map<number, Set<number>>();
    for (let step = 0; step < 6000; step++) {
      const id = Math.floor(r() * 6);
      const slot = Math.floor(r() * 400);
      const set = held.get(id) ?? new Set<number>();
      held.set(id, set);
      if (set.has(slot) && r() < 0.6) {
        index.remove(id, slot);
        set.delete(slot);
      } else if (!set.has(slot)) {
        index.add(id, slot, r());
        set.add(slot);
      }
    }
    for (const [id, set] of held) {
      expect(Array.from(index.slotsOf(id))).toEqual([...set].sort((a, b) => a - b));
    }
  });

  it('galloping to the matches sums what testing every entry against their bitset sums', () => {
    const r = rng(5);
    const index = new LexemeIndex();
    for (let slot = 0; slot < 5000; slot++) {
      for (let id = 0; id < 4; id++) if (r() < 0.5 / (id + 1)) index.add(id, slot, r());
    }
    index.add(9, 4321, 0.75);
    for (let slot = 0; slot < 5000; slot += 7) index.remove(1, slot);
    for (const density of [0.001, 0.01, 0.2, 0.9]) {
      const matches = Int32Array.from(
        Array.from({ length: 5000 }, (_, i) => i).filter(() => r() < density)
      );
      matches[matches.length - 1] = 4321;
      matches.sort();
      const bits = new Uint32Array(157);
      for (const s of matches) bits[s >>> 5] = (bits[s >>> 5] as number) | (1 << (s & 31));
      const below = new Int32Array(157);
      prefixCounts(bits, 157, below);
      // Sums are numbered like the matches; the stamped walk by slot is the reference.
      const walked = new Float32Array(matches.length);
      const galloped = new Float32Array(matches.length);
      const stamped = new Float32Array(matches.length);
      const marked = new Uint32Array(5000);
      const at = new Uint32Array(5000);
      matches.forEach((slot, i) => {
        marked[slot] = 1;
        at[slot] = i;
      });
      // A second sum given to each walk gets the same shares (ranking's shared terms).
      const also = [0, 1, 2].map(() => new Float32Array(matches.length));
      for (const id of [0, 1, 2, 3, 9, 42]) {
        index.addSharesIn(id, bits, below, walked, also[0]);
        index.addSharesAt(id, matches, galloped, also[1]);
        index.addShares(id, 1, marked, at, stamped, also[2]);
      }
      expect(Array.from(galloped)).toEqual(Array.from(walked));
      expect(Array.from(stamped)).toEqual(Array.from(walked));
      for (const sums of also) expect(Array.from(sums)).toEqual(Array.from(walked));
      expect(walked.some((x) => x > 0)).toBe(true);
    }
  });

  it('sums each slot share as calc_rank_or does, for marked slots only', () => {
    const index = new LexemeIndex();
    const shares = [Math.fround(0.6), Math.fround(1.2), Math.fround(0.3)];
    shares.forEach((t, slot) => index.add(0, slot, t));
    index.add(1, 2, shares[0]!);
    const marked = Uint32Array.of(7, 0, 7);
    const at = Uint32Array.of(0, 1, 2);
    const sums = new Float32Array(3);
    index.addShares(0, 7, marked, at, sums);
    index.addShares(1, 7, marked, at, sums);
    const term = (t: number) => t / 1.64493406685;
    expect(sums[0]).toBe(Math.fround(term(shares[0]!)));
    expect(sums[1]).toBe(0);
    expect(sums[2]).toBe(Math.fround(Math.fround(term(shares[2]!)) + term(shares[0]!)));
  });

  it('builds in bulk exactly what adding vector by vector builds', () => {
    const r = rng(7);
    const words = ['taxi', 'tax', 'travel', 'weather', 'wine', 'zoo', 'a', 'ab'];
    const pool = new TsvPool();
    const slots = 300;
    for (let slot = 0; slot < slots; slot++) {
      if (r() < 0.1) continue;
      const entries = words
        .filter(() => r() < 0.4)
        .concat([`n${slot}`])
        .sort(compareLexemes)
        .map((w) => `'${w}':${1 + Math.floor(r() * 9)}${r() < 0.3 ? 'A' : ''}`);
      pool.put(slot, parseTsVector(entries.join(' ')));
    }
    const one = new LexemeIndex();
    for (let slot = 0; slot < slots; slot++) {
      pool.visit(slot, (id, pos, start, end) => one.add(id, slot, orEntryFloat(pos, start, end)));
    }
    const bulk = new LexemeIndex();
    run(bulk.build(pool, slots, pool.lexemeTexts.length, 7));
    const marked = new Uint32Array(slots).fill(1);
    const at = Uint32Array.from({ length: slots }, (_, i) => i);
    let withBits = 0;
    for (let id = 0; id < pool.lexemeTexts.length; id++) {
      expect(sorted(bulk, id)).toEqual(sorted(one, id));
      // Postings held by many slots have a bitset of them too, built alike either way.
      const bits = bulk.bitsOf(id);
      expect(bits === undefined).toBe(one.bitsOf(id) === undefined);
      if (bits !== undefined) {
        const inBits = Array.from({ length: slots }, (_, s) => s).filter((s) => hasSlot(bits, s));
        expect(inBits).toEqual(sorted(one, id));
        withBits++;
      }
      const a = new Float32Array(slots);
      const b = new Float32Array(slots);
      one.addShares(id, 1, marked, at, a);
      bulk.addShares(id, 1, marked, at, b);
      expect(b).toEqual(a);
    }
    expect(withBits).toBeGreaterThan(0);
    // The float kept and divided is the double orEntryTerm gives.
    const v = parseTsVector("'taxi':1A,4 'zoo':2");
    expect(orEntryFloat(v.pos, v.off[0]!, v.off[1]!) / 1.64493406685).toBe(orEntryTerm(v, 0));
  });
});

describe('LexemeOrder', () => {
  it('orders ids by their texts, sorted whole or merged in as they come', () => {
    const r = rng(3);
    const texts: string[] = [];
    const order = new LexemeOrder(texts);
    const expected = () =>
      texts.map((_, i) => i).sort((a, b) => compareLexemes(texts[a]!, texts[b]!));
    const fresh = (n: number) => {
      for (let i = 0; i < n; i++) {
        let t: string;
        do t = Math.floor(r() * 1e6).toString(36) + (r() < 0.2 ? 'é' : '');
        while (texts.includes(t));
        texts.push(t);
      }
    };
    fresh(500);
    run(order.sortAll(13));
    expect(Array.from(order.ids())).toEqual(expected());
    fresh(1);
    expect(Array.from(order.ids())).toEqual(expected());
    fresh(200);
    expect(Array.from(order.ids())).toEqual(expected());
    const ids = order.ids();
    const probe = texts[ids[100]!]!;
    expect(order.lowerBound(probe)).toBe(100);
    expect(order.lowerBound('')).toBe(0);
  });
});
