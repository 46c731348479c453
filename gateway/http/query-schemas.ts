// Schemas for query-string values, which always arrive as strings. A number is read from the
// string before zod checks it, so the route's doc publishes the number (type integer, minimum,
// maximum in GET /openapi.json) rather than a string pattern a client must decode.
import { z } from 'zod';

/**
 * A whole number from `min` to `max` written in decimal digits (no sign, point, exponent or
 * space: `1e2` and `0x10` are refused rather than read as 100 and 16).
 */
export function queryInteger(min: number, max: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.preprocess((value, ctx) => {
    // Nine digits at most: a longer string would only be refused by `max` as Infinity or so.
    if (typeof value === 'string' && /^\d{1,9}$/.test(value)) return Number(value);
    ctx.issues.push({ code: 'custom', message, input: value });
    return z.NEVER;
  }, z.number().int().min(min).max(max));
}
