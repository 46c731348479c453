// Per-slot columns of the in-memory directory (directory-model.ts): what a search checks and
// sorts by, in typed arrays indexed by slot.
import { wordsFor } from './slot-bits.js';

export const PUBLIC = 1;
export const VERIFIED = 2;

/**
 * Per slot, what a search checks and sorts by, in typed arrays: reading them costs no walk to an
 * agent's record (scattered in memory), which is what a search over thousands of candidates
 * spends its time on otherwise. Also the search's scratch: stamps by slot (a search's ranks and
 * sums are as long as its matches, model-rank.ts: by slot they cost 12 bytes an agent and a
 * cache miss per match at a million agents).
 */
export class SlotColumns {
  readonly flags: Uint8Array;
  /**
   * The PUBLIC and the VERIFIED flag of every slot as bitsets (kept equal to `flags`): a search
   * whose candidates are a bitset applies visibility and `verified` 32 slots at a time.
   */
  readonly publicBits: Uint32Array;
  readonly verifiedBits: Uint32Array;
  readonly tenant: Int32Array;
  /**
   * The agent's place in id order (1-based) as of the last whole read; 0 for an agent put since.
   * Two slots that both have one compare by it, as their ids would (idBefore).
   */
  readonly idOrder: Int32Array;
  readonly rating: Float64Array;
  readonly ratingCount: Int32Array;
  readonly usage: Float64Array;
  readonly created: Float64Array;
  readonly seen: Uint32Array;
  readonly marked: Uint32Array;

  constructor(readonly capacity: number) {
    this.flags = new Uint8Array(capacity);
    this.publicBits = new Uint32Array(wordsFor(capacity));
    this.verifiedBits = new Uint32Array(wordsFor(capacity));
    this.tenant = new Int32Array(capacity);
    this.idOrder = new Int32Array(capacity);
    this.rating = new Float64Array(capacity);
    this.ratingCount = new Int32Array(capacity);
    this.usage = new Float64Array(capacity);
    this.created = new Float64Array(capacity);
    this.seen = new Uint32Array(capacity);
    this.marked = new Uint32Array(capacity);
  }

  /** A copy at another capacity (smaller only when the slots above it are free). */
  grown(capacity: number): SlotColumns {
    const next = new SlotColumns(capacity);
    const steps = next.copyFrom(this);
    while (steps.next().done !== true);
    return next;
  }

  /** Copy what `from` holds (as far as this capacity goes), yielding between columns. */
  *copyFrom(from: SlotColumns): Generator<void> {
    const n = Math.min(this.capacity, from.capacity);
    this.flags.set(from.flags.subarray(0, n));
    const words = wordsFor(n);
    this.publicBits.set(from.publicBits.subarray(0, words));
    this.verifiedBits.set(from.verifiedBits.subarray(0, words));
    this.tenant.set(from.tenant.subarray(0, n));
    this.idOrder.set(from.idOrder.subarray(0, n));
    yield;
    this.rating.set(from.rating.subarray(0, n));
    this.ratingCount.set(from.ratingCount.subarray(0, n));
    yield;
    this.usage.set(from.usage.subarray(0, n));
    yield;
    this.created.set(from.created.subarray(0, n));
    yield;
    this.seen.set(from.seen.subarray(0, n));
    this.marked.set(from.marked.subarray(0, n));
  }

  /** The slot's flags, in the column and in the bitsets. */
  setFlags(slot: number, flags: number): void {
    this.flags[slot] = flags;
    const w = slot >>> 5;
    const bit = 1 << (slot & 31);
    const pub = this.publicBits[w] as number;
    const ver = this.verifiedBits[w] as number;
    this.publicBits[w] = (flags & PUBLIC) !== 0 ? pub | bit : pub & ~bit;
    this.verifiedBits[w] = (flags & VERIFIED) !== 0 ? ver | bit : ver & ~bit;
  }
}
