// Sets of slots as bitsets (a Uint32Array, bit s of word s >>> 5), kept beside the lists of the
// directory's indexes for the values and lexemes that many agents hold. A search that starts from
// tens of thousands of candidates intersects them a word (32 slots) at a time instead of testing
// each candidate, and tests membership of a slot in one read. A bitset costs a bit per slot of
// the directory, so one is kept only for a list holding at least 1/64 of the slots (about the
// list's own size or less); below 1/256 it is dropped again.

import { ScratchArray } from './scratch-array.js';

/** Lists this long or longer (and at least 1/64 of the span) get a bitset. */
export const MIN_BITSET_LIST = 64;

/** Words of a bitset holding slots below `span`. */
export const wordsFor = (span: number): number => (span + 31) >>> 5;

/** True when a list of `size` slots out of `span` should have a bitset. */
export const wantsBits = (size: number, span: number): boolean =>
  size >= MIN_BITSET_LIST && size * 64 >= span;

/** True when a list that has a bitset has become small enough to drop it. */
export const dropsBits = (size: number, span: number): boolean =>
  size < MIN_BITSET_LIST / 2 || size * 256 < span;

/** A bitset of `slots`, at least `span` slots wide. */
export function bitsOfSlots(slots: ArrayLike<number>, span: number): Uint32Array {
  let max = span;
  for (let i = 0; i < slots.length; i++) max = Math.max(max, (slots[i] as number) + 1);
  const bits = new Uint32Array(wordsFor(max));
  for (let i = 0; i < slots.length; i++) {
    const s = slots[i] as number;
    bits[s >>> 5] = (bits[s >>> 5] as number) | (1 << (s & 31));
  }
  return bits;
}

/** Scratch bitsets (unions of lists) a search builds, numbered by its caller, reused by the next. */
const scratch: ScratchArray<Uint32Array>[] = [];

/** Scratch bitset `k`, at least `words` long (its contents are the last user's: clear it). */
export function scratchBits(k: number, words: number): Uint32Array {
  let bits = scratch[k];
  if (bits === undefined) {
    bits = new ScratchArray((n) => new Uint32Array(n));
    scratch[k] = bits;
  }
  return bits.of(words);
}

/** Set the bit of every slot of `slots` in `bits` (wide enough for them). */
export function orSlots(bits: Uint32Array, slots: ArrayLike<number>): void {
  for (let i = 0; i < slots.length; i++) {
    const s = slots[i] as number;
    bits[s >>> 5] = (bits[s >>> 5] as number) | (1 << (s & 31));
  }
}

/** `bits` with slot set: the same array, or a longer copy when the slot is beyond it. */
export function withSlot(bits: Uint32Array, slot: number): Uint32Array {
  const w = slot >>> 5;
  let out = bits;
  if (w >= bits.length) {
    out = new Uint32Array(Math.max(w + 1, Math.ceil(bits.length * 1.25)));
    out.set(bits);
  }
  out[w] = (out[w] as number) | (1 << (slot & 31));
  return out;
}

export function clearSlot(bits: Uint32Array, slot: number): void {
  const w = slot >>> 5;
  if (w < bits.length) bits[w] = (bits[w] as number) & ~(1 << (slot & 31));
}

/** Set bits of a 32-bit word. */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * The set bits of `bits` below `slot`: a slot's number among the set's, in slot order. `below`
 * holds each word's count of set bits in the words before it (prefixCounts).
 */
export const bitRank = (bits: Uint32Array, below: Int32Array, slot: number): number =>
  (below[slot >>> 5] as number) + popcount((bits[slot >>> 5] as number) & ~(-1 << (slot & 31)));

/** below[w] = the set bits of bits[0..w), for w below `words`. */
export function prefixCounts(bits: Uint32Array, words: number, below: Int32Array): void {
  let n = 0;
  for (let w = 0; w < words; w++) {
    below[w] = n;
    const x = bits[w] as number;
    if (x !== 0) n += popcount(x);
  }
}

export const hasSlot = (bits: Uint32Array, slot: number): boolean =>
  (((bits[slot >>> 5] ?? 0) >>> (slot & 31)) & 1) === 1;

/** Bitsets by key, each kept exactly equal to its list while it exists. */
export class KeyedBits<K> {
  private readonly byKey = new Map<K, Uint32Array>();

  get(key: K): Uint32Array | undefined {
    return this.byKey.get(key);
  }

  /** After `slot` joined `key`'s list (now `list`, of the index spanning `span` slots). */
  added(key: K, slot: number, list: ArrayLike<number>, span: number): void {
    const bits = this.byKey.get(key);
    if (bits !== undefined) this.byKey.set(key, withSlot(bits, slot));
    else if (wantsBits(list.length, span)) this.byKey.set(key, bitsOfSlots(list, span));
  }

  /** After `slot` left `key`'s list (now of `size`). */
  removed(key: K, slot: number, size: number, span: number): void {
    const bits = this.byKey.get(key);
    if (bits === undefined) return;
    if (dropsBits(size, span)) this.byKey.delete(key);
    else clearSlot(bits, slot);
  }

  set(key: K, bits: Uint32Array): void {
    this.byKey.set(key, bits);
  }

  clear(): void {
    this.byKey.clear();
  }
}
