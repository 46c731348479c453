// A list of slots in a buffer that outlives the search that fills it. A search at 1,000,000
// agents lists thousands of matches; grown as a fresh array each time, that was tens to hundreds
// of kilobytes of garbage per request, enough to run the young-generation collector every few
// milliseconds and promote the in-flight requests' objects into the old generation, whose
// collections (tens of ms over a heap of a gigabyte) then set the p99. Searches run to completion
// without yielding, so one list per kind of search is never in use twice at once.

export class SlotList {
  private buffer = new Int32Array(1024);
  private size = 0;

  /** Empty the list for the next search. */
  reset(): void {
    this.size = 0;
  }

  get length(): number {
    return this.size;
  }

  push(slot: number): void {
    if (this.size === this.buffer.length) {
      const next = new Int32Array(this.buffer.length * 2);
      next.set(this.buffer);
      this.buffer = next;
    }
    this.buffer[this.size++] = slot;
  }

  /** The slots listed, a view valid until the next reset or push. */
  view(): Int32Array {
    return this.buffer.subarray(0, this.size);
  }
}
