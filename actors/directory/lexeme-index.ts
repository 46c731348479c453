// The directory's inverted index: for each lexeme (by its TsvPool id), the slots of the agents
// whose tsvector holds it and, beside each, what it adds to an OR query's rank. Everything is in
// typed arrays: a lexeme held by one agent (a name's number, a rare word: most lexemes of a large
// directory) costs 16 bytes and no object; a longer posting is a region of one shared pool, 8
// bytes an entry. JS arrays and a Posting object per lexeme cost about 100 bytes for a lexeme of
// one agent and 16 an entry.
import { compareLexemes } from './ts-parse.js';
import { bitRank, bitsOfSlots, KeyedBits, popcount, wantsBits } from './slot-bits.js';
import { OR_ENTRY_DIVISOR, orEntryFloat } from './ts-rank.js';
import { mergeSortSteps } from './merge-sort.js';

/** What the index reads a vector's entries from (TsvPool). */
export interface EntrySource {
  /** Calls `each` for slot's lexemes: the lexeme id and its positions pos[start..end). */
  visit(
    slot: number,
    each: (id: number, pos: Uint16Array, start: number, end: number) => void
  ): void;
}

export class LexemeIndex {
  /** Per lexeme id: how many slots hold it. */
  private count = new Int32Array(1024);
  /** Per lexeme id: the slot itself when count is 1, else where its region of the pool starts. */
  private start = new Int32Array(1024);
  /** Per lexeme id: the region's size (0 while the posting is inline). */
  private cap = new Int32Array(1024);
  /** Per lexeme id: an inline posting's rank share (orEntryFloat's float). */
  private oneTerm = new Float32Array(1024);
  private slots = new Int32Array(1024);
  private terms = new Float32Array(1024);
  private used = 0;
  /** Pool entries in regions since moved or emptied: reclaimed by compactPool(). */
  private free = 0;
  /** The slots of the lexemes many agents hold, also as bitsets (slot-bits.ts). */
  private readonly bits = new KeyedBits<number>();
  /** One past the highest slot ever added. */
  private span = 0;

  /** The lexeme's slots as a bitset, when it has one. */
  bitsOf(id: number): Uint32Array | undefined {
    return this.bits.get(id);
  }

  /** Slots holding lexeme `id`. */
  size(id: number): number {
    return id < this.count.length ? (this.count[id] as number) : 0;
  }

  /** True when the lexeme had no slot before. */
  add(id: number, slot: number, term: number): boolean {
    if (slot >= this.span) this.span = slot + 1;
    const fresh = this.append(id, slot, term);
    this.bits.added(id, slot, this.slotsOf(id), this.span);
    return fresh;
  }

  private append(id: number, slot: number, term: number): boolean {
    this.ensureIds(id + 1);
    const n = this.count[id] as number;
    if (n === 0) {
      this.start[id] = slot;
      this.oneTerm[id] = term;
      this.count[id] = 1;
      return true;
    }
    if (n === 1) {
      const at = this.region(4);
      this.slots[at] = this.start[id] as number;
      this.terms[at] = this.oneTerm[id] as number;
      this.start[id] = at;
      this.cap[id] = 4;
    } else if (n === this.cap[id]) {
      const at = this.region(n * 2);
      const from = this.start[id] as number;
      this.slots.copyWithin(at, from, from + n);
      this.terms.copyWithin(at, from, from + n);
      this.free += n;
      this.start[id] = at;
      this.cap[id] = n * 2;
    }
    // Postings are kept in slot order (ranking gallops through them): a slot below the last one
    // (a freed slot taken again) is inserted in its place.
    const from = this.start[id] as number;
    let at = from + n;
    if (slot < (this.slots[at - 1] as number)) {
      at = lowerBound(this.slots, from, from + n, slot);
      this.slots.copyWithin(at + 1, at, from + n);
      this.terms.copyWithin(at + 1, at, from + n);
    }
    this.slots[at] = slot;
    this.terms[at] = term;
    this.count[id] = n + 1;
    return false;
  }

  /** True when the lexeme has no slot left. */
  remove(id: number, slot: number): boolean {
    const sizeBefore = this.size(id);
    const gone = this.detach(id, slot);
    if (this.size(id) < sizeBefore) this.bits.removed(id, slot, this.size(id), this.span);
    return gone;
  }

  private detach(id: number, slot: number): boolean {
    const n = this.size(id);
    if (n === 0) return false;
    if (n === 1) {
      if (this.start[id] !== slot) return false;
      this.count[id] = 0;
      return true;
    }
    const from = this.start[id] as number;
    const at = lowerBound(this.slots, from, from + n, slot);
    if (at === from + n || this.slots[at] !== slot) return false;
    // The entries after it move down one: the posting stays in slot order.
    this.slots.copyWithin(at, at + 1, from + n);
    this.terms.copyWithin(at, at + 1, from + n);
    if (n === 2) {
      this.start[id] = this.slots[from] as number;
      this.oneTerm[id] = this.terms[from] as number;
      this.free += this.cap[id] as number;
      this.cap[id] = 0;
    }
    this.count[id] = n - 1;
    return false;
  }

  /** The slots holding lexeme `id` (a view: valid until the index next changes). */
  slotsOf(id: number): ArrayLike<number> {
    const n = this.size(id);
    if (n === 0) return NONE;
    if (n === 1) return [this.start[id] as number];
    const from = this.start[id] as number;
    return this.slots.subarray(from, from + n);
  }

  /**
   * sums[i] += the lexeme's rank share, in float (as calc_rank_or adds), for every slot of the
   * posting that carries `stamp` in `marked`, where i is `at[slot]` (the slot's match number);
   * the same in `also` when given (the lexeme counts in two queries' sums).
   */
  addShares(
    id: number,
    stamp: number,
    marked: Uint32Array,
    at: Uint32Array,
    sums: Float32Array,
    also?: Float32Array
  ): void {
    const n = this.size(id);
    if (n === 1) {
      const slot = this.start[id] as number;
      if (marked[slot] === stamp) {
        const i = at[slot] as number;
        const t = (this.oneTerm[id] as number) / OR_ENTRY_DIVISOR;
        sums[i] = (sums[i] as number) + t;
        if (also !== undefined) also[i] = (also[i] as number) + t;
      }
      return;
    }
    const { slots, terms } = this;
    const from = this.start[id] as number;
    for (let k = from; k < from + n; k++) {
      const slot = slots[k] as number;
      if (marked[slot] === stamp) {
        // The Float32Array store is calc_rank_or's float rounding of the double sum.
        const i = at[slot] as number;
        const t = (terms[k] as number) / OR_ENTRY_DIVISOR;
        sums[i] = (sums[i] as number) + t;
        if (also !== undefined) also[i] = (also[i] as number) + t;
      }
    }
  }

  /**
   * addShares for the slots set in `bits` (a bitset: small enough to stay in cache), a slot's
   * match number being its bit's rank in `bits` (bitRank; `below` is the words' prefix counts):
   * the sums are then as short as the matches and stay in cache too, where sums by slot would
   * cost a miss per match at a million slots.
   */
  addSharesIn(
    id: number,
    bits: Uint32Array,
    below: Int32Array,
    sums: Float32Array,
    also?: Float32Array
  ): void {
    const n = this.size(id);
    if (n === 1) {
      const slot = this.start[id] as number;
      if ((((bits[slot >>> 5] ?? 0) >>> (slot & 31)) & 1) === 1) {
        const i = bitRank(bits, below, slot);
        const t = (this.oneTerm[id] as number) / OR_ENTRY_DIVISOR;
        sums[i] = (sums[i] as number) + t;
        if (also !== undefined) also[i] = (also[i] as number) + t;
      }
      return;
    }
    const { slots, terms } = this;
    const from = this.start[id] as number;
    for (let k = from; k < from + n; k++) {
      const slot = slots[k] as number;
      const word = bits[slot >>> 5] as number;
      if (((word >>> (slot & 31)) & 1) === 1) {
        const i = (below[slot >>> 5] as number) + popcount(word & ~(-1 << (slot & 31)));
        const t = (terms[k] as number) / OR_ENTRY_DIVISOR;
        sums[i] = (sums[i] as number) + t;
        if (also !== undefined) also[i] = (also[i] as number) + t;
      }
    }
  }

  /**
   * addShares for the slots of `matches` (ascending; sums[i] for matches[i]), found by galloping
   * through the posting (kept in slot order) from one match to the next: for a posting many times
   * longer than the matches, a few steps per match instead of a test per entry.
   */
  addSharesAt(id: number, matches: Int32Array, sums: Float32Array, also?: Float32Array): void {
    const n = this.size(id);
    if (n === 0) return;
    if (n === 1) {
      const slot = this.start[id] as number;
      const at = lowerBound(matches, 0, matches.length, slot);
      if (at < matches.length && matches[at] === slot) {
        const t = (this.oneTerm[id] as number) / OR_ENTRY_DIVISOR;
        sums[at] = (sums[at] as number) + t;
        if (also !== undefined) also[at] = (also[at] as number) + t;
      }
      return;
    }
    const { slots, terms } = this;
    const end = (this.start[id] as number) + n;
    let k = this.start[id] as number;
    for (let i = 0; i < matches.length && k < end; i++) {
      const target = matches[i] as number;
      if ((slots[k] as number) < target) {
        // Steps of 1, 2, 4, ... past entries below the target, then a binary search in the last.
        let lo = k;
        let step = 1;
        let hi = k + 1;
        while (hi < end && (slots[hi] as number) < target) {
          lo = hi;
          step *= 2;
          hi = lo + step;
        }
        k = lowerBound(slots, lo + 1, Math.min(hi, end), target);
      }
      if (k < end && slots[k] === target) {
        const t = (terms[k] as number) / OR_ENTRY_DIVISOR;
        sums[i] = (sums[i] as number) + t;
        if (also !== undefined) also[i] = (also[i] as number) + t;
        k++;
      }
    }
  }

  /**
   * Build the index of every vector in `source` at once, sizing each posting to its count plus
   * room() (a whole read builds it so, instead of growing postings agent by agent). A generator:
   * it yields after about `budget` entries, so the caller can give the event loop a turn.
   */
  *build(source: EntrySource, slots: number, ids: number, budget: number): Generator<void> {
    this.count = new Int32Array(ids);
    this.start = new Int32Array(ids);
    this.cap = new Int32Array(ids);
    this.oneTerm = new Float32Array(ids);
    this.bits.clear();
    this.span = slots;
    const count = this.count;
    let work = 0;
    const counting = (id: number): void => {
      count[id] = (count[id] as number) + 1;
      work++;
    };
    for (let slot = 0; slot < slots; slot++) {
      source.visit(slot, counting);
      if (work >= budget) {
        work = 0;
        yield;
      }
    }
    let total = 0;
    for (let id = 0; id < ids; id++) {
      if (id % budget === budget - 1) yield;
      const n = count[id] as number;
      if (n > 1) {
        // Room to grow in place (see room()): the first agents added after a whole read would
        // otherwise move every posting they touch, the longest ones first.
        const cap = n + room(n);
        this.start[id] = total;
        this.cap[id] = cap;
        total += cap;
      }
      count[id] = 0;
    }
    this.slots = new Int32Array(total + room(total) + 1024);
    this.terms = new Float32Array(this.slots.length);
    this.used = total;
    this.free = 0;
    yield;
    let current = 0;
    const filling = (id: number, pos: Uint16Array, start: number, end: number): void => {
      const term = orEntryFloat(pos, start, end);
      const n = count[id] as number;
      if (this.cap[id] === 0) {
        this.start[id] = current;
        this.oneTerm[id] = term;
      } else {
        const at = (this.start[id] as number) + n;
        this.slots[at] = current;
        this.terms[at] = term;
      }
      count[id] = n + 1;
      work++;
    };
    for (let slot = 0; slot < slots; slot++) {
      current = slot;
      source.visit(slot, filling);
      if (work >= budget) {
        work = 0;
        yield;
      }
    }
    for (let id = 0; id < ids; id++) {
      const n = count[id] as number;
      if (!wantsBits(n, slots)) continue;
      this.bits.set(id, bitsOfSlots(this.slotsOf(id), slots));
      work += n;
      if (work >= budget) {
        work = 0;
        yield;
      }
    }
  }

  /** A region of `size` entries at the end of the pool. */
  private region(size: number): number {
    if (this.free > 1 << 20 && this.free > this.used - this.free) this.compactPool();
    if (this.used + size > this.slots.length) {
      const length = Math.max(this.used + size, Math.ceil(this.slots.length * 1.5));
      const slots = new Int32Array(length);
      slots.set(this.slots.subarray(0, this.used));
      const terms = new Float32Array(length);
      terms.set(this.terms.subarray(0, this.used));
      this.slots = slots;
      this.terms = terms;
    }
    const at = this.used;
    this.used += size;
    return at;
  }

  /** Rewrite the pool without the regions postings moved out of (rare: after much churn). */
  private compactPool(): void {
    const live = this.used - this.free;
    const slots = new Int32Array(live + room(live) + 1024);
    const terms = new Float32Array(slots.length);
    let used = 0;
    for (let id = 0; id < this.count.length; id++) {
      const cap = this.cap[id] as number;
      if (cap === 0) continue;
      const from = this.start[id] as number;
      slots.set(this.slots.subarray(from, from + cap), used);
      terms.set(this.terms.subarray(from, from + cap), used);
      this.start[id] = used;
      used += cap;
    }
    this.slots = slots;
    this.terms = terms;
    this.used = used;
    this.free = 0;
  }

  private ensureIds(ids: number): void {
    if (ids <= this.count.length) return;
    const length = Math.max(ids, Math.ceil(this.count.length * 1.5));
    this.count = grown(this.count, new Int32Array(length));
    this.start = grown(this.start, new Int32Array(length));
    this.cap = grown(this.cap, new Int32Array(length));
    this.oneTerm = grown(this.oneTerm, new Float32Array(length));
  }
}

const NONE: ArrayLike<number> = Object.freeze([]);

/** The first index in [from, to) of the ascending `a` whose value is not below `value`. */
function lowerBound(a: Int32Array, from: number, to: number, value: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((a[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Spare room kept in a posting and at the end of the pool when they are laid out at once (a
 * sixteenth). At a million agents the pool is hundreds of megabytes: grown by the first write
 * after a whole read, its copy held the event loop for about 100 ms.
 */
const room = (n: number): number => n >>> 4;

function grown<T extends Int32Array | Float32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/**
 * Lexeme ids in PostgreSQL's order of their texts: those sharing a prefix are adjacent, and a
 * prefix's lexemes come in the order a tsvector lists them, which ranking sums in. Ids new since
 * the last sort are merged in when the order is next read; lexemes whose posting emptied stay
 * (an empty posting matches nothing).
 */
export class LexemeOrder {
  private sorted = new Int32Array(0);
  private length = 0;

  constructor(private readonly texts: readonly string[]) {}

  /** The ids in order, every id the texts hold included. */
  ids(): Int32Array {
    if (this.length < this.texts.length) this.mergeNew();
    return this.sorted.subarray(0, this.length);
  }

  /** First index in ids() whose text is not before `lexeme`. */
  lowerBound(lexeme: string): number {
    const ids = this.ids();
    const texts = this.texts;
    let lo = 0;
    let hi = ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareLexemes(texts[ids[mid] as number] as string, lexeme) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Sort every id from scratch, yielding after about `budget` comparisons (a bottom-up merge
   * sort: its work comes in pieces of any size, so a whole read never holds the loop for long).
   */
  *sortAll(budget: number): Generator<void> {
    const n = this.texts.length;
    const ids = new Int32Array(n);
    for (let i = 0; i < n; i++) ids[i] = i;
    const texts = this.texts;
    this.sorted = yield* mergeSortSteps(
      ids,
      (x, y) => compareLexemes(texts[x] as string, texts[y] as string) < 0,
      budget
    );
    this.length = n;
  }

  /** Merge the ids added since the last sort (a few between reads: each one is placed alone). */
  private mergeNew(): void {
    const texts = this.texts;
    const fresh: number[] = [];
    for (let id = this.length; id < texts.length; id++) fresh.push(id);
    fresh.sort((x, y) => compareLexemes(texts[x] as string, texts[y] as string));
    const total = this.length + fresh.length;
    const out = new Int32Array(total);
    let i = 0;
    let k = 0;
    for (const id of fresh) {
      // Copy the run of old ids before this one in a block (lowerBound over the old ids).
      let lo = i;
      let hi = this.length;
      const text = texts[id] as string;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compareLexemes(texts[this.sorted[mid] as number] as string, text) < 0) lo = mid + 1;
        else hi = mid;
      }
      out.set(this.sorted.subarray(i, lo), k);
      k += lo - i;
      i = lo;
      out[k++] = id;
    }
    out.set(this.sorted.subarray(i, this.length), k);
    this.sorted = out;
    this.length = total;
  }
}
