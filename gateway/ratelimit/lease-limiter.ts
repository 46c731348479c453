// Per-API-key rate limiting (decisions.md §7) without a PostgreSQL write per request. The shared
// row of a key's one-minute window holds how much of its allowance the nodes have leased; a lease
// grants min(asked, limit − leased) atomically, so the grants of all nodes never add up to more than
// the limit, and a node admits a request only against allowance it holds. Everything else is
// local: requests taken from the lease cost no I/O; counts (admitted and refused, for the alerts)
// and unused allowance go back to the row in one batched statement about once a second.
import {
  leaseRateLimit,
  recordRateLimitUsage,
  sweepRateLimitWindows,
  type Principal,
  type Queryable,
  type RateLimitUsage,
} from '../../infra/db/index.js';
import type { Logger } from '../../runtime/log/index.js';
import {
  RATE_LIMIT_WINDOW_MS,
  rateLimitState,
  type RateLimiter,
  type RateLimitState,
} from './rate-limiter.js';

export const RATE_LIMIT_LEASE_DEFAULTS = {
  /** Most allowance one lease asks for beyond the requests already waiting for it. */
  maxBlock: 256,
  /**
   * A lease asks for at most this fraction of what the window has left unleased, so near the limit
   * leases shrink to what is waiting and no node holds allowance another node's caller needs.
   */
  shareOfRest: 1 / 8,
  /** How often counts and unused allowance are written back (and on stop). */
  flushMs: 1_000,
  /** Allowance not touched for this long is given back, so a quiet key strands none of it. */
  idleMs: 2_000,
  /** A lease used up within this long doubles the next one; a slower one halves it. */
  busyMs: 1_000,
  /** Once the window's allowance is all leased, refuse locally this long before asking again. */
  recheckMs: 1_000,
  /** Longest the last write-back may hold up a stopping node (PostgreSQL unreachable). */
  stopWaitMs: 2_000,
} as const;

/** Windows kept in PostgreSQL: the alerts read the last ten minutes. */
const SWEEP_AFTER_WINDOWS = 10;

export type RateLimitLeaseSettings = {
  -readonly [K in keyof typeof RATE_LIMIT_LEASE_DEFAULTS]: number;
};

export interface RateLimiterOptions {
  readonly sql: Queryable;
  /** Requests per window per key when the tenant sets none (RATE_LIMIT_PER_MINUTE). */
  readonly defaultLimit: number;
  readonly log: Logger;
  /** Injectable clock (ms since epoch). */
  readonly now?: () => number;
  readonly lease?: Partial<RateLimitLeaseSettings>;
}

/** This node's part of one key's window. */
interface WindowLease {
  readonly id: string;
  readonly keyHash: string;
  readonly tenantId: string;
  readonly windowStartMs: number;
  /** Leased here and not used yet. */
  held: number;
  /** The key's limit, and the window's leased total, as the latest lease here saw them. */
  limit: number;
  leasedAll: number;
  /** How much the next lease asks for ahead of demand (adaptive). */
  block: number;
  /** When the latest grant arrived (0: none yet in this window). */
  grantedAt: number;
  /** Refuse without asking until then: every bit of the window was leased. */
  exhaustedUntil: number;
  /** Requests waiting for the lease in flight, which all of them share. */
  waiting: number;
  inflight: Promise<void> | undefined;
  /** Requests counted since the last write-back. */
  hits: number;
  lastUse: number;
}

export function createRateLimiter(opts: RateLimiterOptions): RateLimiter {
  const now = opts.now ?? Date.now;
  const cfg: RateLimitLeaseSettings = { ...RATE_LIMIT_LEASE_DEFAULTS, ...opts.lease };
  const windows = new Map<string, WindowLease>();
  /** Write-backs that failed, retried with the next batch. */
  const unsent = new Map<string, RateLimitUsage>();
  let sweeper: NodeJS.Timeout | undefined;
  let flusher: NodeJS.Timeout | undefined;
  let flushing: Promise<void> | undefined;

  const windowOf = (keyHash: string, tenantId: string, windowStartMs: number): WindowLease => {
    const id = `${keyHash}@${windowStartMs}`;
    let w = windows.get(id);
    if (w === undefined) {
      // A busy key stays busy across the minute: start from the previous window's block and limit.
      const prev = windows.get(`${keyHash}@${windowStartMs - RATE_LIMIT_WINDOW_MS}`);
      w = {
        id,
        keyHash,
        tenantId,
        windowStartMs,
        held: 0,
        limit: prev?.limit ?? 0,
        leasedAll: 0,
        block: prev?.block ?? 1,
        grantedAt: 0,
        exhaustedUntil: 0,
        waiting: 0,
        inflight: undefined,
        hits: 0,
        lastUse: 0,
      };
      windows.set(id, w);
    }
    return w;
  };

  /** One lease for every request waiting on this window now; those arriving later ask again. */
  const lease = async (w: WindowLease): Promise<void> => {
    try {
      const t = now();
      if (w.grantedAt > 0) {
        w.block =
          t - w.grantedAt < cfg.busyMs
            ? Math.min(cfg.maxBlock, w.block * 2)
            : Math.max(1, Math.floor(w.block / 2));
      }
      const ahead = Math.min(w.block, Math.floor((w.limit - w.leasedAll) * cfg.shareOfRest));
      const r = await leaseRateLimit(opts.sql, {
        keyHash: w.keyHash,
        tenantId: w.tenantId,
        windowStart: new Date(w.windowStartMs),
        want: Math.max(1, w.waiting, ahead),
        defaultLimit: opts.defaultLimit,
      });
      w.held += r.granted;
      w.limit = r.limit;
      w.leasedAll = r.leased;
      w.grantedAt = now();
      if (r.leased >= r.limit) w.exhaustedUntil = w.grantedAt + cfg.recheckMs;
    } finally {
      w.inflight = undefined;
    }
  };

  /**
   * Take one request's allowance from what is held, and say how much the window has left then:
   * the allowance nobody had leased at this node's latest lease, plus what this node still holds.
   * That is exact while no allowance has been given back in the window (each admitted request
   * sees a distinct count), and an estimate after.
   */
  const take = (w: WindowLease): number => {
    w.held -= 1;
    return Math.min(w.limit, Math.max(0, w.limit - w.leasedAll) + w.held);
  };

  /** take(), leasing first when nothing is held; undefined once the window has nothing left. */
  const admit = async (w: WindowLease): Promise<number | undefined> => {
    while (w.held === 0) {
      if (now() < w.exhaustedUntil) return undefined;
      w.waiting += 1;
      try {
        await (w.inflight ??= lease(w));
      } finally {
        w.waiting -= 1;
      }
    }
    return take(w);
  };

  /** Write back counts and allowance given up: idle or finished windows, or all of it (`all`). */
  const flushOnce = async (all: boolean): Promise<void> => {
    const t = now();
    // Failed write-backs wait for the next batch, but not past the windows the sweeper keeps.
    const kept = t - SWEEP_AFTER_WINDOWS * RATE_LIMIT_WINDOW_MS;
    const batch = new Map([...unsent].filter(([, u]) => u.windowStart.getTime() >= kept));
    unsent.clear();
    for (const [id, w] of windows) {
      const over = t >= w.windowStartMs + RATE_LIMIT_WINDOW_MS;
      let returned = 0;
      if (w.held > 0 && w.inflight === undefined && (all || over || t - w.lastUse >= cfg.idleMs)) {
        returned = w.held;
        w.held = 0;
        w.block = 1;
      }
      if (w.hits > 0 || returned > 0) {
        const before = batch.get(id);
        batch.set(id, {
          keyHash: w.keyHash,
          windowStart: new Date(w.windowStartMs),
          hits: w.hits + (before?.hits ?? 0),
          returned: returned + (before?.returned ?? 0),
        });
        w.hits = 0;
      }
      // Kept one window longer than it lasts, for the next window's block and limit.
      const gone = t >= w.windowStartMs + 2 * RATE_LIMIT_WINDOW_MS;
      if (gone && w.inflight === undefined && w.waiting === 0) windows.delete(id);
    }
    if (batch.size === 0) return;
    try {
      await recordRateLimitUsage(opts.sql, [...batch.values()]);
    } catch (err) {
      // The statement is atomic: none of it counted, so all of it goes with the next batch.
      // Windows the sweeper has deleted by then are skipped by the update.
      for (const [id, u] of batch) unsent.set(id, u);
      opts.log.warn({ err, windows: batch.size }, 'rate-limit write-back failed');
    }
  };

  /** One write-back at a time: the timer's, a test's, and the last one on stop queue up. */
  const flush = async (all: boolean): Promise<void> => {
    while (flushing !== undefined) await flushing;
    flushing = flushOnce(all).finally(() => {
      flushing = undefined;
    });
    await flushing;
  };

  return {
    async hit(keyHash: string, principal: Principal): Promise<RateLimitState> {
      const nowMs = now();
      const windowStartMs = nowMs - (nowMs % RATE_LIMIT_WINDOW_MS);
      const w = windowOf(keyHash, principal.tenantId, windowStartMs);
      w.hits += 1;
      w.lastUse = nowMs;
      const remaining = w.held > 0 ? take(w) : await admit(w);
      if (remaining === undefined) {
        return rateLimitState(w.limit + 1, w.limit, windowStartMs, now());
      }
      return {
        limit: w.limit,
        remaining,
        resetAt: Math.ceil((windowStartMs + RATE_LIMIT_WINDOW_MS) / 1000),
        retryAfter: undefined,
      };
    },
    start() {
      sweeper ??= setInterval(() => {
        const before = new Date(now() - SWEEP_AFTER_WINDOWS * RATE_LIMIT_WINDOW_MS);
        sweepRateLimitWindows(opts.sql, before).catch((err: unknown) =>
          opts.log.warn({ err }, 'rate-limit sweep failed')
        );
      }, RATE_LIMIT_WINDOW_MS);
      sweeper.unref();
      flusher ??= setInterval(() => {
        if (flushing === undefined) void flush(false);
      }, cfg.flushMs);
      flusher.unref();
    },
    async stop() {
      if (sweeper !== undefined) clearInterval(sweeper);
      if (flusher !== undefined) clearInterval(flusher);
      sweeper = undefined;
      flusher = undefined;
      // Leases still in flight land first, so what they grant is given back too. An unreachable
      // database only costs the unused allowance (until the window ends) and the last counts.
      const last = (async () => {
        const inflight = [...windows.values()].flatMap((w) => (w.inflight ? [w.inflight] : []));
        await Promise.allSettled(inflight);
        await flush(true);
      })();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          opts.log.warn('rate-limit write-back on stop gave up waiting');
          resolve();
        }, cfg.stopWaitMs);
      });
      await Promise.race([last, late]);
      clearTimeout(timer);
    },
    flush: () => flush(false),
  };
}
