import { describe, expect, it } from 'vitest';
import { SlotIndex } from './directory-model.js';
import { LexemeIndex } from './lexeme-index.js';
import {
  bitRank,
  hasSlot,
  MIN_BITSET_LIST,
  popcount,
  prefixCounts,
  wantsBits,
  wordsFor,
} from './slot-bits.js';

/** A small deterministic generator. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The slots below `span` a bitset holds, in order. */
const slotsIn = (bits: Uint32Array, span: number): number[] =>
  Array.from({ length: span }, (_, s) => s).filter((s) => hasSlot(bits, s));

const sortedList = (list: ArrayLike<number>): number[] => Array.from(list).sort((a, b) => a - b);

describe('bitsets beside the index lists', () => {
  it('a SlotIndex keeps each value bitset equal to its list through adds and removes', () => {
    const r = rng(7);
    const index = new SlotIndex();
    const values = ['common', 'half', 'rare'];
    const share = [0.6, 0.2, 0.004];
    const held = new Map<number, string[]>();
    const span = 4000;
    index.beginBulk();
    for (let slot = 0; slot < span / 2; slot++) {
      const mine = values.filter((_, k) => r() < share[k]!);
      held.set(slot, mine);
      for (const v of mine) index.add(v, slot);
    }
    const settle = index.settle();
    while (settle.next().done !== true);
    // Churn after the load: new slots, removals, slots reused.
    for (let step = 0; step < 6000; step++) {
      const slot = Math.floor(r() * span);
      for (const v of held.get(slot) ?? []) index.remove(v, slot);
      const mine = r() < 0.3 ? [] : values.filter((_, k) => r() < share[k]!);
      held.set(slot, mine);
      for (const v of mine) index.add(v, slot);
    }
    for (const v of values) {
      const list = index.get(v);
      const bits = index.bitsOf(v);
      if (bits !== undefined) expect(slotsIn(bits, span)).toEqual(sortedList(list));
      if (wantsBits(list.length, span)) expect(bits).toBeDefined();
    }
    expect(index.bitsOf('common')).toBeDefined();
    expect(index.bitsOf('rare')).toBeUndefined();
  });

  it('a LexemeIndex keeps each lexeme bitset equal to its posting', () => {
    const r = rng(11);
    const index = new LexemeIndex();
    const span = 3000;
    const held = new Map<number, number[]>();
    for (let step = 0; step < 12000; step++) {
      const slot = Math.floor(r() * span);
      for (const id of held.get(slot) ?? []) index.remove(id, slot);
      const ids = [0, 1, 2, 3].filter((id) => r() < [0.5, 0.1, 0.03, 0.002][id]!);
      held.set(slot, ids);
      for (const id of ids) index.add(id, slot, 0.5);
    }
    for (const id of [0, 1, 2, 3]) {
      const bits = index.bitsOf(id);
      if (bits !== undefined) expect(slotsIn(bits, span)).toEqual(sortedList(index.slotsOf(id)));
      if (index.size(id) >= MIN_BITSET_LIST && wantsBits(index.size(id), span)) {
        expect(bits).toBeDefined();
      }
    }
    expect(index.bitsOf(0)).toBeDefined();
    expect(index.bitsOf(3)).toBeUndefined();
  });

  it("numbers a set's slots in slot order by the rank of their bits", () => {
    expect([0, 1, 0x80000000, -1, 0x55555555, 0xffff].map(popcount)).toEqual([0, 1, 1, 32, 16, 16]);
    const r = rng(11);
    const span = 3000;
    const slots = Array.from({ length: span }, (_, s) => s).filter(() => r() < 0.3);
    slots.push(0, 31, 32, span - 1);
    const set = [...new Set(slots)].sort((a, b) => a - b);
    const bits = new Uint32Array(wordsFor(span));
    for (const s of set) bits[s >>> 5] = (bits[s >>> 5] as number) | (1 << (s & 31));
    const below = new Int32Array(bits.length);
    prefixCounts(bits, bits.length, below);
    expect(set.map((s) => bitRank(bits, below, s))).toEqual(set.map((_, i) => i));
  });
});
