import { describe, expect, it } from 'vitest';
import { rateLimitHeaders, rateLimitState, RATE_LIMIT_WINDOW_MS } from './rate-limiter.js';

describe('rateLimitState', () => {
  const start = 1_700_000_040_000; // a window start (a multiple of 60 s)

  it('counts down the remaining requests and resets at the window end', () => {
    const s = rateLimitState(3, 10, start, start + 5_000);
    expect(s).toEqual({
      limit: 10,
      remaining: 7,
      resetAt: (start + RATE_LIMIT_WINDOW_MS) / 1000,
      retryAfter: undefined,
    });
  });

  it('admits exactly `limit` requests: the limit-th has 0 left, the next is refused', () => {
    expect(rateLimitState(10, 10, start, start).retryAfter).toBeUndefined();
    expect(rateLimitState(10, 10, start, start).remaining).toBe(0);
    const over = rateLimitState(11, 10, start, start + 20_500);
    expect(over.remaining).toBe(0);
    expect(over.retryAfter).toBe(40); // 39.5 s left, rounded up
  });

  it('never tells a refused caller to retry in less than a second', () => {
    expect(rateLimitState(11, 10, start, start + RATE_LIMIT_WINDOW_MS - 1).retryAfter).toBe(1);
  });

  it('puts Retry-After among the headers only when refused', () => {
    expect(rateLimitHeaders(rateLimitState(1, 5, start, start))).toEqual({
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '4',
      'x-ratelimit-reset': String((start + RATE_LIMIT_WINDOW_MS) / 1000),
    });
    expect(rateLimitHeaders(rateLimitState(6, 5, start, start))['retry-after']).toBe('60');
  });
});
