// A bound on queue deliveries in flight on one node, handed out first come, first served. A free
// slot is taken without an await (the drain is the hot path); a finished delivery hands its slot
// straight to the first one waiting.
export class DeliverySlots {
  private used = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly max: number) {}

  /** Takes a slot: undefined when one was free, else a promise resolved once one is handed over. */
  take(): Promise<void> | undefined {
    if (this.used >= this.max) return new Promise<void>((resolve) => this.waiting.push(resolve));
    this.used++;
    return undefined;
  }

  /** Hands the slot to the first one waiting, or frees it. */
  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.used--;
  }
}
