// One pino root logger; components take children. JSON to stdout; pipe to pino-pretty in dev.
import { pino, type Logger } from 'pino';

export type { Logger };

export const REDACT_PATHS = [
  'authorization',
  'headers.authorization',
  '*.authorization',
  '*.token',
  '*.apiKey',
  '*.password',
  '*.secret',
  '*.webhookSecret',
];

export function createLogger(opts: { level: string; nodeId?: string }): Logger {
  return pino({
    level: opts.level,
    base: opts.nodeId ? { node: opts.nodeId } : {},
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}

/** A logger that writes nothing: for unit tests and tools that stay quiet. */
export const silentLogger: Logger = pino({ level: 'silent' });

export { throttledLog, type ThrottledLog } from './throttled.js';
