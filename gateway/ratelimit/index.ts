// Per-API-key rate limiting, exact across hub nodes (decisions.md §7), and a per-address limit
// on failed authentications.
export {
  rateLimitedAuthenticator,
  rateLimitHeaders,
  rateLimitState,
  RATE_LIMIT_WINDOW_MS,
  type RateLimiter,
  type RateLimitState,
} from './rate-limiter.js';
export {
  createRateLimiter,
  RATE_LIMIT_LEASE_DEFAULTS,
  type RateLimiterOptions,
  type RateLimitLeaseSettings,
} from './lease-limiter.js';
export {
  createFailedAuthLimiter,
  FAILED_AUTH_DEFAULTS,
  type FailedAuthLimiter,
  type FailedAuthLimiterOptions,
} from './failed-auth.js';
export {
  createSuspectLane,
  SUSPECT_LANE_DEFAULTS,
  type SuspectLane,
  type SuspectLaneOptions,
} from './suspect-lane.js';
