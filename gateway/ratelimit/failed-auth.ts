// A limit on failed authentications per client address, so API keys cannot be guessed at request
// rate: after `maxFailures` wrong, malformed or missing keys from one address within a window,
// that address's requests without a valid key are refused with RATE_LIMITED (429 / -32017) until
// the window ends. A valid key is never refused (issue 18): behind a load balancer every client
// shares one address, and a stranger must not lock them all out. Telling a right key from a wrong
// one gains a guesser nothing, as the key space is 256 bits. Counted in this node's memory: a
// per-node budget (N nodes admit N times as many failures) changes nothing that matters, and
// costs no query per failure.
import { HubError } from '../../runtime/errors/index.js';

export interface FailedAuthLimiterOptions {
  /** Failures admitted per address and window; the next request is refused. */
  readonly maxFailures?: number;
  readonly windowMs?: number;
  /** Addresses tracked at most; the oldest are forgotten first (a spoofing flood stays bounded). */
  readonly maxAddresses?: number;
  readonly now?: () => number;
}

export interface FailedAuthLimiter {
  /** Is `client` over its failures in the current window? */
  over(client: string): boolean;
  /** Throws RATE_LIMITED when `client` is over its failures in the current window. */
  check(client: string): void;
  /** Count one failed authentication of `client`. */
  fail(client: string): void;
}

export const FAILED_AUTH_DEFAULTS = {
  maxFailures: 30,
  windowMs: 60_000,
  maxAddresses: 100_000,
} as const;

export function createFailedAuthLimiter(o: FailedAuthLimiterOptions = {}): FailedAuthLimiter {
  const max = o.maxFailures ?? FAILED_AUTH_DEFAULTS.maxFailures;
  const windowMs = o.windowMs ?? FAILED_AUTH_DEFAULTS.windowMs;
  const cap = o.maxAddresses ?? FAILED_AUTH_DEFAULTS.maxAddresses;
  const now = o.now ?? Date.now;
  // address → failures in the window that started at `since`; insertion order = oldest first.
  const failures = new Map<string, { since: number; count: number }>();

  const current = (client: string, t: number) => {
    const e = failures.get(client);
    if (e === undefined || t - e.since >= windowMs) return undefined;
    return e;
  };

  return {
    over(client) {
      if (client === '') return false;
      const e = current(client, now());
      return e !== undefined && e.count >= max;
    },
    check(client) {
      if (client === '') return;
      const t = now();
      const e = current(client, t);
      if (e === undefined || e.count < max) return;
      const retryAfter = Math.max(1, Math.ceil((e.since + windowMs - t) / 1000));
      throw new HubError(
        'RATE_LIMITED',
        `Too many failed authentications from this address: ${max} per ` +
          `${windowMs / 1000} s; retry after ${retryAfter} s`,
        { data: { limit: max, retryAfter, reset: Math.ceil((e.since + windowMs) / 1000) } }
      );
    },
    fail(client) {
      if (client === '') return;
      const t = now();
      const e = current(client, t);
      if (e !== undefined) {
        e.count++;
        return;
      }
      failures.delete(client);
      if (failures.size >= cap) failures.delete(failures.keys().next().value as string);
      failures.set(client, { since: t, count: 1 });
    },
  };
}
