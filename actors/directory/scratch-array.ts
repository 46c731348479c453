// Typed arrays a search fills and the next one reuses. Searches run to completion without
// yielding, so one array per use is never in use twice at once; a fresh array per search would be
// garbage of the matches' size (tens to hundreds of KB at 1,000,000 agents), the cost that
// slot-list.ts explains.

type Typed = Float32Array | Float64Array | Int32Array | Uint32Array;

export class ScratchArray<T extends Typed> {
  private array: T;

  constructor(private readonly make: (length: number) => T) {
    this.array = make(0);
  }

  /** At least `length` long, holding the last user's values (clear what you read). */
  of(length: number): T {
    if (this.array.length < length) this.array = this.make(length + (length >>> 3) + 1024);
    return this.array;
  }
}

/** The scratch bitsets a search uses (slot-bits.ts scratchBits), by number: ranking's own. */
export const RANK_SCRATCH = 0;
/** The viewer's own agents (ownBits). */
export const OWN_SCRATCH = 1;
/** Where a dense search leaves its matches (for rank). */
export const DENSE_SCRATCH = 2;
/** bitsetPlan's unions, from this number up (as many as the search has sources). */
export const PLAN_SCRATCH = 3;
