// Start-up failures a person can act on: the one line hub.ts prints names the setting to change.
import { ConfigError } from '../../runtime/config/index.js';

/** A start-up failure people can act on: which service, where, which setting, what to run. */
export function unreachable(
  what: string,
  where: string,
  setting: string,
  err: unknown
): ConfigError {
  const reason = err instanceof Error ? err.message : String(err);
  return new ConfigError(
    `cannot reach ${what} at ${where} (${setting}): ${reason}. Start it (for a loopback URL, ` +
      '`infra/dev/services.sh start` starts one; `npm start` runs it first) or set ' +
      `${setting} to a running server.`,
    [setting]
  );
}

/** A connection URL without its password, for messages. */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}
