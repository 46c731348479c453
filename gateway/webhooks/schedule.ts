// The webhook delivery policy (interface-spec "Events"): a 2xx within 5 s is success; a failure is
// retried after 1 s, 5 s and 30 s; the last retry failing marks the webhook `failing`.
export const WEBHOOK_TIMEOUT_MS = 5_000;
export const RETRY_DELAYS_MS = [1_000, 5_000, 30_000] as const;
/** The first try and its three retries. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/**
 * When to try again after attempt number `attempt` (1-based) failed, or null when it was the last
 * (of `maxAttempts`: 4 normally, 1 for a webhook already failing).
 */
export function retryAt(attempt: number, maxAttempts: number, nowMs: number): Date | null {
  if (attempt >= maxAttempts) return null;
  const delay = RETRY_DELAYS_MS[attempt - 1];
  return delay === undefined ? null : new Date(nowMs + delay);
}
