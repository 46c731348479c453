// Per-API-key rate limiting (decisions.md §7): a fixed one-minute window, exact across all hub
// nodes. The state and headers a request gets, and the authenticator that applies the limit; the
// counting itself (leases of the window's allowance) is in lease-limiter.ts.
import { hashApiKey, type Principal } from '../../infra/db/index.js';
import { HubError } from '../../runtime/errors/index.js';
import type { Authenticator } from '../auth/index.js';
import { bearerToken } from '../auth/index.js';
import { addReplyHeaders, currentClientAddress } from '../http/index.js';
import type { FailedAuthLimiter } from './failed-auth.js';
import { createSuspectLane, type SuspectLane } from './suspect-lane.js';

export const RATE_LIMIT_WINDOW_MS = 60_000;

export interface RateLimitState {
  readonly limit: number;
  readonly remaining: number;
  /** End of the current window, Unix seconds. */
  readonly resetAt: number;
  /** Seconds until the window ends (at least 1) when over the limit, else undefined. */
  readonly retryAfter: number | undefined;
}

/** The X-RateLimit-* (and, over the limit, Retry-After) headers of a state. */
export function rateLimitHeaders(s: RateLimitState): Record<string, string> {
  const h: Record<string, string> = {
    'x-ratelimit-limit': String(s.limit),
    'x-ratelimit-remaining': String(s.remaining),
    'x-ratelimit-reset': String(s.resetAt),
  };
  if (s.retryAfter !== undefined) h['retry-after'] = String(s.retryAfter);
  return h;
}

/** The state after the `hits`-th request of a window that started at `windowStartMs`. */
export function rateLimitState(
  hits: number,
  limit: number,
  windowStartMs: number,
  nowMs: number
): RateLimitState {
  const endMs = windowStartMs + RATE_LIMIT_WINDOW_MS;
  return {
    limit,
    remaining: Math.max(0, limit - hits),
    resetAt: Math.ceil(endMs / 1000),
    retryAfter: hits > limit ? Math.max(1, Math.ceil((endMs - nowMs) / 1000)) : undefined,
  };
}

export interface RateLimiter {
  /** Count one request of the key; over the limit the state has retryAfter set. */
  hit(keyHash: string, principal: Principal): Promise<RateLimitState>;
  /** Start writing back counts and unused allowance, and sweeping finished windows. */
  start(): void;
  /** Write back counts now (the timer does it about once a second). */
  flush(): Promise<void>;
  /** Stop the timers and give back all allowance held, with the last counts. */
  stop(): Promise<void>;
}

/**
 * The authenticator every route uses, with the limit applied after authentication: each
 * authenticated request is counted, its reply gets the X-RateLimit-* headers, and a request over
 * the limit is refused with RATE_LIMITED (data.retryAfter becomes Retry-After on JSON-RPC too).
 * With `failedAuth`, failed authentications are counted per client address (from the request
 * scope); once an address is over that limit, its requests without a valid key get 429 instead of
 * 401. The key is always checked first, so a valid key is never refused; the database look-ups of
 * such an address go through `lane`, so its made-up keys cannot crowd out everyone else's.
 */
export function rateLimitedAuthenticator(
  auth: Authenticator,
  limiter: RateLimiter,
  onLimited?: (principal: Principal) => void,
  failedAuth?: FailedAuthLimiter,
  lane: SuspectLane = createSuspectLane()
): Authenticator {
  /** An over-budget address: cached answers at once, database look-ups through the lane. */
  const suspect = async (header: string | undefined, client: string): Promise<Principal> => {
    const known = auth.known(header);
    if (known !== undefined) return known ?? auth.authenticate(header);
    const r = await lane.run(() => auth.authenticate(header));
    if (r.ran) return r.value;
    failedAuth?.check(client);
    // The window ended while it waited: an ordinary request again.
    return auth.authenticate(header);
  };

  return {
    invalidateAgent: (id) => auth.invalidateAgent(id),
    invalidateKeyHash: (h) => auth.invalidateKeyHash(h),
    known: (header) => auth.known(header),
    keyHashOf: (principal) => auth.keyHashOf?.(principal),
    close: () => auth.close(),
    async authenticate(header, scope) {
      const client = failedAuth === undefined ? '' : currentClientAddress(scope);
      let principal: Principal;
      try {
        principal = failedAuth?.over(client)
          ? await suspect(header, client)
          : await auth.authenticate(header);
      } catch (err) {
        if (failedAuth && err instanceof HubError && err.code === 'UNAUTHENTICATED') {
          // Over budget: 429 with Retry-After rather than 401.
          failedAuth.check(client);
          failedAuth.fail(client);
        }
        throw err;
      }
      // authenticate succeeded, so the header holds a well-formed key.
      const keyHash = auth.keyHashOf?.(principal) ?? hashApiKey(bearerToken(header) as string);
      const state = await limiter.hit(keyHash, principal);
      addReplyHeaders(rateLimitHeaders(state), scope);
      if (state.retryAfter !== undefined) {
        onLimited?.(principal);
        throw new HubError(
          'RATE_LIMITED',
          `Rate limit of ${state.limit} requests per minute exceeded`,
          {
            data: { limit: state.limit, retryAfter: state.retryAfter, reset: state.resetAt },
          }
        );
      }
      return principal;
    },
  };
}
