// When and how long the client waits before trying a call again: `Retry-After` (seconds or an
// HTTP date) wins; otherwise exponential backoff with jitter. Which errors may be retried depends
// on what the call does (see RetrySafety): a retry must never make the hub act twice.
import {
  HubConnectionError,
  HubError,
  QueueFullError,
  RateLimitedError,
  SenderThrottledError,
  TenantQueueFullError,
  UnavailableError,
} from './errors.js';

export interface RetryOptions {
  /** Attempts in all, the first included; 1 turns retries off. Default 4. */
  maxAttempts: number;
  /** The first backoff step; each later one doubles it. Default 500 ms. */
  baseDelayMs: number;
  /**
   * The longest single wait. A `Retry-After` longer than this is not waited for: the error is
   * thrown at once, its `retryAfterMs` telling the caller when to come back. Default 30 s.
   */
  maxDelayMs: number;
  /** Called before each wait (for logs and metrics). */
  onRetry?: (info: RetryInfo) => void;
}

export interface RetryInfo {
  /** The attempt that failed (1 = the first call). */
  attempt: number;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  error: HubError;
}

export const DEFAULT_RETRY: Readonly<RetryOptions> = Object.freeze({
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
});

/**
 * What a call may safely repeat:
 * - `safe`: reads, and writes the hub makes idempotent (SendMessage with a messageId, which the hub
 *   dedupes on sender and messageId; PATCH of absolute values). Retried on 429, 503 and on a
 *   connection that failed.
 * - `refusal-only`: writes that could act twice (CancelTask, continuing a task, rating). Retried
 *   only when the hub refused before acting: rate limited (429) or a queue refusal.
 */
export type RetrySafety = 'safe' | 'refusal-only';

/** Refusals: the hub created nothing, so trying again cannot duplicate anything. */
function isRefusal(err: HubError): boolean {
  return (
    err instanceof RateLimitedError ||
    err instanceof QueueFullError ||
    err instanceof SenderThrottledError ||
    err instanceof TenantQueueFullError ||
    err.httpStatus === 429
  );
}

export function isRetryable(err: HubError, safety: RetrySafety): boolean {
  if (isRefusal(err)) return true;
  if (safety === 'refusal-only') return false;
  return (
    err.httpStatus === 503 || err instanceof UnavailableError || err instanceof HubConnectionError
  );
}

/**
 * A `Retry-After` header in milliseconds: delay-seconds (`120`) or an HTTP date (`Wed, 21 Oct 2015
 * 07:28:00 GMT`, a date already past being 0). Anything else is undefined.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs: number = Date.now()
): number | undefined {
  const v = value?.trim();
  if (v === undefined || v === '') return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  // Only date forms: Date.parse also reads things like "1.5", which are not a valid header.
  if (!/[a-z]/i.test(v)) return undefined;
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : undefined;
}

/**
 * The wait before retry number `retry` (1 = the first retry) without a Retry-After: exponential,
 * capped at maxDelayMs, with "equal jitter" (between half and all of the step) so that many
 * clients refused at once do not come back at once.
 */
export function backoffDelay(
  retry: number,
  o: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number = Math.random
): number {
  const step = Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/**
 * The wait before retry number `retry`, or undefined when the hub asks for longer than
 * maxDelayMs. A Retry-After is honoured in full, plus up to 10% (at most 250 ms) of jitter.
 */
export function retryDelay(
  retry: number,
  retryAfterMs: number | undefined,
  o: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number = Math.random
): number | undefined {
  if (retryAfterMs === undefined) return backoffDelay(retry, o, random);
  if (retryAfterMs > o.maxDelayMs) return undefined;
  return Math.round(retryAfterMs + random() * Math.min(250, retryAfterMs * 0.1));
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The signal's reason as an Error (AbortSignal.timeout and abort() give a DOMException). */
export function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  return new DOMException(
    typeof reason === 'string' ? reason : 'The operation was aborted',
    'AbortError'
  );
}

export interface RetryLoop {
  options: RetryOptions;
  safety: RetrySafety;
  signal?: AbortSignal | undefined;
  /** Injected in tests; default `sleep`. */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

/** Runs `attempt` until it succeeds, fails with an error not worth retrying, or attempts run out. */
export async function withRetry<T>(
  attempt: (n: number) => Promise<T>,
  loop: RetryLoop
): Promise<T> {
  const o = loop.options;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      if (!(err instanceof HubError) || loop.signal?.aborted) throw err;
      if (n >= o.maxAttempts || !isRetryable(err, loop.safety)) throw err;
      const delayMs = retryDelay(n, err.retryAfterMs, o, loop.random);
      if (delayMs === undefined) throw err;
      o.onRetry?.({ attempt: n, delayMs, error: err });
      await (loop.wait ?? sleep)(delayMs, loop.signal);
    }
  }
}
