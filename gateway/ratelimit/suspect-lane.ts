// The narrow lane for key look-ups on behalf of addresses over their failed-authentication budget
// (failed-auth.ts). Such an address still gets its keys checked (a valid key is never refused),
// but every made-up key it sends costs a database query: the lane holds those queries to a few at
// a time on this node, so a flood of them cannot take the connection pool from everyone else's
// look-ups. Requests wait their turn in order; when the line is full they are refused as over
// budget, like a wrong key. Only a valid key that is not cached (unused on this node for 30 s)
// can meet that refusal, and only while a flood from its own address fills the line: holding
// more waiters would hold their request bodies too (up to BODY_LIMIT_BYTES each).

export interface SuspectLaneOptions {
  /** Look-ups running at once. */
  readonly concurrency?: number;
  /** Look-ups waiting; one more is refused. */
  readonly maxWaiting?: number;
}

export interface SuspectLane {
  /** Runs `fn` when a slot is free; false (without running it) when the line is full. */
  run<T>(fn: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }>;
}

export const SUSPECT_LANE_DEFAULTS = { concurrency: 2, maxWaiting: 256 } as const;

export function createSuspectLane(o: SuspectLaneOptions = {}): SuspectLane {
  const concurrency = o.concurrency ?? SUSPECT_LANE_DEFAULTS.concurrency;
  const maxWaiting = o.maxWaiting ?? SUSPECT_LANE_DEFAULTS.maxWaiting;
  let running = 0;
  const waiting: Array<() => void> = [];

  const release = () => {
    const next = waiting.shift();
    if (next === undefined) running--;
    else next();
  };

  return {
    async run(fn) {
      if (running < concurrency) {
        running++;
      } else {
        if (waiting.length >= maxWaiting) return { ran: false };
        // The slot is handed over by release(): `running` stays as it is.
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
      try {
        return { ran: true, value: await fn() };
      } finally {
        release();
      }
    },
  };
}
