// One pino root logger; components take children. JSON lines to stdout for collectors
// (LOG_FORMAT=json), or one readable line per event for people (text, the default).
import { pino, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';

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

export function createLogger(opts: {
  level: string;
  nodeId?: string;
  format?: 'text' | 'json';
}): Logger {
  const options = {
    level: opts.level,
    base: opts.nodeId ? { node: opts.nodeId } : {},
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (opts.format !== 'text') return pino(options);
  // Formatted in the write itself, to a synchronous stdout: no stream pipeline in between, whose
  // pending lines a process.exit() right after a stop (or a fatal start-up) would lose.
  const pretty = prettyFactory({
    colorize: process.stdout.isTTY === true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,node',
  });
  const out = pino.destination({ dest: 1, sync: true });
  return pino(options, { write: (line: string) => void out.write(pretty(line)) });
}

/** A logger that writes nothing: for unit tests and tools that stay quiet. */
export const silentLogger: Logger = pino({ level: 'silent' });

export { throttledLog, type ThrottledLog } from './throttled.js';
