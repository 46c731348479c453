// When a failed push is tried again: 1 s doubling to 5 minutes, 12 attempts (about 20 minutes in
// all) before the config is marked failed. The schedule lives in push_configs, so a restart
// between two attempts resumes it.
export const PUSH_TIMEOUT_MS = 10_000;
export const PUSH_MAX_ATTEMPTS = 12;
const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 5 * 60_000;

/** When to retry after failed attempt number `attempt` (1-based), or null when it was the last. */
export function pushRetryAt(attempt: number, nowMs: number): Date | null {
  if (attempt >= PUSH_MAX_ATTEMPTS) return null;
  const delay = Math.min(FIRST_DELAY_MS * 2 ** (attempt - 1), MAX_DELAY_MS);
  return new Date(nowMs + delay);
}
