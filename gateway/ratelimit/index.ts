// Per-API-key rate limiting, exact across hub nodes (decisions.md §7).
export {
  createRateLimiter,
  rateLimitedAuthenticator,
  rateLimitHeaders,
  rateLimitState,
  RATE_LIMIT_WINDOW_MS,
  type RateLimiter,
  type RateLimiterOptions,
  type RateLimitState,
} from './rate-limiter.js';
