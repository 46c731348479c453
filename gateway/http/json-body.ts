// A REST request's JSON object body. PostgreSQL text and jsonb cannot hold a NUL character, so a
// string holding one (value or key, at any depth) is a 400 naming where it is, before any route
// stores it (otherwise the write fails as an internal error).
import type { HubError } from '../../runtime/errors/index.js';
import { InvalidParamsError } from '../../runtime/errors/index.js';
import { nestsDeeperThan, tooDeepError, tooDeepPath } from './json-depth.js';

/** The parsed object, or `invalid()` when the body is not JSON or not an object. */
export function parseJsonObject(
  body: Buffer,
  invalid: () => HubError,
  opts: { emptyIsObject?: boolean } = {}
): Record<string, unknown> {
  let value: unknown;
  const text = body.toString('utf8');
  try {
    value = opts.emptyIsObject === true && body.length === 0 ? {} : JSON.parse(text);
  } catch {
    throw invalid();
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid();
  // Before the NUL check, which recurses.
  if (nestsDeeperThan(value)) throw tooDeepError(tooDeepPath(value) ?? []);
  rejectNul(value, '');
  return value as Record<string, unknown>;
}

/** Throws naming the first string (or key) that holds a NUL character. */
export function rejectNul(value: unknown, path: string): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) {
      throw new InvalidParamsError(path || 'body', 'must not contain a NUL character');
    }
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    value.forEach((v, i) => rejectNul(v, `${path}[${i}]`));
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    const at = path === '' ? k : `${path}.${k}`;
    if (k.includes('\u0000')) throw new InvalidParamsError(at, 'must not contain a NUL character');
    rejectNul(v, at);
  }
}
