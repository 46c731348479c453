// Reconnect delays for agents: exponential from 1 s, doubling, capped at 5 minutes, each delay
// shortened by up to 20 % at random so that agents dropped together do not return together.

export interface ReconnectBackoffOptions {
  /** The first delay; default 1,000 ms. */
  initialMs?: number;
  /** The longest delay; default 300,000 ms (5 minutes). */
  maxMs?: number;
  /** Growth per attempt; default 2. */
  factor?: number;
  /** Up to this fraction of each delay is taken off at random; default 0.2 (0 = no jitter). */
  jitter?: number;
  /** A number in [0, 1); default Math.random (tests pass a fixed one). */
  random?: () => number;
}

export const DEFAULT_RECONNECT_BACKOFF = {
  initialMs: 1_000,
  maxMs: 300_000,
  factor: 2,
  jitter: 0.2,
} as const;

/** The delay before reconnect attempt `attempt` (0 for the first attempt after a drop). */
export function reconnectDelay(attempt: number, opts: ReconnectBackoffOptions = {}): number {
  const initial = opts.initialMs ?? DEFAULT_RECONNECT_BACKOFF.initialMs;
  const max = opts.maxMs ?? DEFAULT_RECONNECT_BACKOFF.maxMs;
  const factor = opts.factor ?? DEFAULT_RECONNECT_BACKOFF.factor;
  const jitter = Math.min(1, Math.max(0, opts.jitter ?? DEFAULT_RECONNECT_BACKOFF.jitter));
  const random = opts.random ?? Math.random;
  // Capping the exponent first keeps huge attempt counts from overflowing to Infinity.
  const base = Math.min(max, initial * factor ** Math.min(attempt, 64));
  return Math.round(base * (1 - jitter * random()));
}
