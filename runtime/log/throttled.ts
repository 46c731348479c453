// A log line that repeats (the same failure, retried) is written at most once per interval per key;
// the next line says how many were left out meanwhile. A failure that recurs three times a second
// must not fill the disk, and one line a minute still tells the operator it goes on.
import type { Logger } from 'pino';

export interface ThrottledLog {
  warn(key: string, fields: Record<string, unknown>, msg: string): void;
}

export function throttledLog(log: Logger, intervalMs = 60_000): ThrottledLog {
  const last = new Map<string, { at: number; suppressed: number }>();
  return {
    warn(key, fields, msg) {
      const now = Date.now();
      const seen = last.get(key);
      if (seen && now - seen.at < intervalMs) {
        seen.suppressed++;
        return;
      }
      if (last.size >= 1000) last.clear(); // keys are bounded in practice; never let them pile up
      last.set(key, { at: now, suppressed: 0 });
      log.warn(seen?.suppressed ? { ...fields, suppressed: seen.suppressed } : fields, msg);
    },
  };
}
