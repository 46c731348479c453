// How deep a request's JSON may nest. JSON.parse copes with any depth, but much of what runs after
// it recurses (schema checks, the NUL check, canonical JSON for signatures, jsonb): 10,000 nested
// objects in a message's metadata answered -32603, and REST bodies 500. Refusing past a fixed depth
// up front keeps every later step within its stack; no real message nests 64 levels.
import { InvalidParamsError } from '../../runtime/errors/index.js';

export const MAX_JSON_DEPTH = 64;

/**
 * Whether a parsed JSON value nests arrays and objects deeper than `max`. It walks the value, not
 * the text: the cost follows the number of containers, so a 10 MB string costs nothing (a scan of
 * the text took 29 ms for a 10 MB pixel request), and it never recurses past `max`.
 */
export function nestsDeeperThan(value: unknown, max = MAX_JSON_DEPTH): boolean {
  return deeper(value, 0, max);
}

function deeper(v: unknown, depth: number, max: number): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (depth >= max) return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (deeper(v[i], depth + 1, max)) return true;
    return false;
  }
  const o = v as Record<string, unknown>;
  for (const k in o) if (deeper(o[k], depth + 1, max)) return true;
  return false;
}

/**
 * The dotted path to the first place in `value` that nests deeper than `max` (array indexes as
 * numbers, like zod paths), or undefined. Bounded by `max`, so it never recurses past it.
 */
export function tooDeepPath(value: unknown, max = MAX_JSON_DEPTH): string[] | undefined {
  const walk = (v: unknown, depth: number): string[] | undefined => {
    if (typeof v !== 'object' || v === null) return undefined;
    if (depth >= max) return [];
    for (const [k, child] of Object.entries(v)) {
      const below = walk(child, depth + 1);
      if (below !== undefined) return [k, ...below];
    }
    return undefined;
  };
  return walk(value, 0);
}

/** A path as a field name, the middle of a long one elided: "message.metadata.a.….a". */
export function fieldName(path: readonly string[]): string {
  const shown = path.length <= 8 ? path : [...path.slice(0, 5), '…', ...path.slice(-2)];
  return shown.join('.');
}

/** -32602 / HTTP 400 naming where `value` (parsed from `text`) nests deeper than allowed. */
export function tooDeepError(path: readonly string[]): InvalidParamsError {
  return new InvalidParamsError(
    path.length > 0 ? fieldName(path) : 'body',
    `nests deeper than ${MAX_JSON_DEPTH} levels`,
    { maxDepth: MAX_JSON_DEPTH }
  );
}
