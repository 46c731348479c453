// Retry-After parsing, backoff and the retry loop, with no servers and no real waiting.
import { describe, expect, it } from 'vitest';
import {
  HubConnectionError,
  InternalError,
  QueueFullError,
  RateLimitedError,
  TaskNotFoundError,
  UnavailableError,
} from './errors.js';
import {
  backoffDelay,
  isRetryable,
  parseRetryAfter,
  retryDelay,
  withRetry,
  type RetryOptions,
} from './retry.js';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const opts: RetryOptions = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 30_000 };

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter('1', NOW)).toBe(1000);
    expect(parseRetryAfter(' 120 ', NOW)).toBe(120_000);
  });

  it('reads an HTTP date, relative to now; a past date is 0', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 12:00:05 GMT', NOW)).toBe(5000);
    expect(parseRetryAfter(new Date(NOW + 90_000).toUTCString(), NOW)).toBe(90_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 11:00:00 GMT', NOW)).toBe(0);
  });

  it('ignores what is neither', () => {
    for (const v of [null, undefined, '', '  ', '-1', '1.5', 'soon', '12abc', 'Mon, 99 Foo 2026']) {
      expect(parseRetryAfter(v, NOW)).toBeUndefined();
    }
  });
});

describe('backoff', () => {
  it('doubles from the base, jittered between half and all of the step, capped', () => {
    const low = () => 0;
    const high = () => 1;
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, opts, low))).toEqual([250, 500, 1000, 2000]);
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, opts, high))).toEqual([500, 1000, 2000, 4000]);
    expect(backoffDelay(20, opts, high)).toBe(30_000);
    expect(backoffDelay(20, opts, low)).toBe(15_000);
  });

  it('honours Retry-After in full (plus a little jitter) and refuses one longer than maxDelayMs', () => {
    expect(retryDelay(1, 1000, opts, () => 0)).toBe(1000);
    expect(retryDelay(1, 1000, opts, () => 1)).toBe(1100);
    expect(retryDelay(3, 10_000, opts, () => 1)).toBe(10_250);
    expect(retryDelay(1, 0, opts, () => 1)).toBe(0);
    expect(retryDelay(1, 31_000, opts)).toBeUndefined();
    expect(retryDelay(2, undefined, opts, () => 1)).toBe(1000);
  });
});

describe('what is retried', () => {
  const limited = new RateLimitedError('RATE_LIMITED', 'x', { httpStatus: 429 });
  const full = new QueueFullError('QUEUE_FULL', 'x', { httpStatus: 200 });
  const down = new UnavailableError('UNAVAILABLE', 'x', { httpStatus: 503 });
  const conn = new HubConnectionError('CONNECTION_FAILED', 'x');
  const gone = new TaskNotFoundError('TASK_NOT_FOUND', 'x', { httpStatus: 200 });
  const internal = new InternalError('INTERNAL', 'x', { httpStatus: 200 });

  it('safe calls: refusals, 503 and broken connections', () => {
    expect([limited, full, down, conn].every((e) => isRetryable(e, 'safe'))).toBe(true);
    expect([gone, internal].some((e) => isRetryable(e, 'safe'))).toBe(false);
  });

  it('calls that could act twice: refusals only', () => {
    expect([limited, full].every((e) => isRetryable(e, 'refusal-only'))).toBe(true);
    expect([down, conn, gone, internal].some((e) => isRetryable(e, 'refusal-only'))).toBe(false);
  });
});

describe('withRetry', () => {
  const recorded = () => {
    const waits: number[] = [];
    return { waits, wait: (ms: number) => (waits.push(ms), Promise.resolve()) };
  };

  it('waits Retry-After, then backoff, and succeeds', async () => {
    const { waits, wait } = recorded();
    const errors = [
      new RateLimitedError('RATE_LIMITED', 'slow down', { httpStatus: 429, retryAfterMs: 2000 }),
      new UnavailableError('UNAVAILABLE', 'down', { httpStatus: 503 }),
    ];
    const result = await withRetry(
      (n) => (n <= errors.length ? Promise.reject(errors[n - 1]!) : Promise.resolve(`ok on ${n}`)),
      { options: opts, safety: 'safe', wait, random: () => 0 }
    );
    expect(result).toBe('ok on 3');
    expect(waits).toEqual([2000, 500]);
  });

  it('stops after maxAttempts and throws the last error', async () => {
    const { waits, wait } = recorded();
    let calls = 0;
    const err = new UnavailableError('UNAVAILABLE', 'down', { httpStatus: 503 });
    await expect(
      withRetry(() => (calls++, Promise.reject(err)), {
        options: { ...opts, maxAttempts: 3 },
        safety: 'safe',
        wait,
        random: () => 1,
      })
    ).rejects.toBe(err);
    expect(calls).toBe(3);
    expect(waits).toEqual([500, 1000]);
  });

  it('does not retry a terminal error, nor wait longer than maxDelayMs', async () => {
    const { waits, wait } = recorded();
    const gone = new TaskNotFoundError('TASK_NOT_FOUND', 'no');
    await expect(
      withRetry(() => Promise.reject(gone), { options: opts, safety: 'safe', wait })
    ).rejects.toBe(gone);
    const later = new RateLimitedError('RATE_LIMITED', 'x', { retryAfterMs: 60_000 });
    await expect(
      withRetry(() => Promise.reject(later), { options: opts, safety: 'safe', wait })
    ).rejects.toBe(later);
    expect(waits).toEqual([]);
  });

  it('reports each retry and stops when the signal aborts', async () => {
    const seen: number[] = [];
    const abort = new AbortController();
    const err = new UnavailableError('UNAVAILABLE', 'down', { httpStatus: 503 });
    const wait = () => {
      abort.abort(new Error('caller gave up'));
      return Promise.reject(abort.signal.reason as Error);
    };
    await expect(
      withRetry(() => Promise.reject(err), {
        options: { ...opts, onRetry: (i) => seen.push(i.attempt) },
        safety: 'safe',
        signal: abort.signal,
        wait,
      })
    ).rejects.toThrow('caller gave up');
    expect(seen).toEqual([1]);
  });
});
