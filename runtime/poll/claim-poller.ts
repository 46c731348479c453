// The claim loop shared by the hub's outbound deliveries (webhooks, A2A push): every node polls a
// table of due work, claims a batch under a lease (so no other node takes the same rows until it
// runs out) and starts each claimed item without waiting for it. One claim runs at a time per node;
// a wake-up during a claim runs another right after it, so work that became due meanwhile is not
// left for the next period. What is claimed, and how, is the caller's: this holds only the loop.

export interface ClaimPollerOptions<T> {
  /** Claims at most `limit` due items, leasing them to this node. */
  claim(limit: number): Promise<T[]>;
  /** Starts one claimed item; the poller only waits for it on tick() and stop(). */
  start(item: T): Promise<void>;
  /** How many more items this node may take on now. */
  room(): number;
  /** Items claimed per query; a full batch is followed at once by another. */
  batch: number;
  /** How often due items are looked for once started. */
  pollMs: number;
  /** A claim that failed (the next poll tries again). */
  onClaimError(err: unknown): void;
}

export interface ClaimPoller {
  /** Polls every pollMs from now on. */
  start(): void;
  /** Claims now (or right after the claim under way); nothing before start() or after stop(). */
  readonly wake: () => void;
  /** Claims what is due now and waits for those items; resolves with how many. */
  tick(): Promise<number>;
  /** Stops at once; resolves when the claim under way and the items in flight have ended. */
  stop(): Promise<void>;
  readonly stopped: boolean;
}

export function createClaimPoller<T>(o: ClaimPollerOptions<T>): ClaimPoller {
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  let stopped = false;
  /** The claim under way (settled when it ends, whatever its outcome). */
  let claiming: Promise<void> | undefined;
  let again = false;
  const running = new Set<Promise<void>>();

  const track = (item: T): Promise<void> => {
    const p = o.start(item).finally(() => running.delete(p));
    running.add(p);
    return p;
  };

  const claim = async (): Promise<Promise<void>[]> => {
    const begun: Promise<void>[] = [];
    for (;;) {
      const room = Math.min(o.batch, o.room());
      if (room <= 0 || stopped) return begun;
      const due = await o.claim(room);
      for (const item of due) begun.push(track(item));
      if (due.length < room) return begun;
    }
  };

  const runClaim = (): Promise<Promise<void>[]> => {
    const p = claim().finally(() => {
      claiming = undefined;
      if (again) {
        again = false;
        wake();
      }
    });
    claiming = p.then(
      () => undefined,
      () => undefined
    );
    return p;
  };

  function wake(): void {
    if (stopped || !started) return;
    if (claiming !== undefined) {
      again = true;
      return;
    }
    runClaim().catch((err: unknown) => o.onClaimError(err));
  }

  return {
    start() {
      started = true;
      timer = setInterval(wake, o.pollMs);
      timer.unref();
    },
    wake,
    async tick() {
      while (claiming !== undefined) await claiming;
      const begun = await runClaim();
      await Promise.all(begun);
      return begun.length;
    },
    async stop() {
      stopped = true;
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      await claiming;
      await Promise.allSettled([...running]);
    },
    get stopped() {
      return stopped;
    },
  };
}
