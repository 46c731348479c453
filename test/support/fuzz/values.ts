// Hostile JSON values and strings for the fuzz tests: wrong types, huge numbers, deep nesting,
// odd unicode, and text that only looks like JSON.
import type { Rng } from './prng.js';

export const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\ud800',
  '\udfff\ud800',
  '\u202e\u0041\u0042',
  '💥🔥'.repeat(50),
  'é'.normalize('NFD'),
  '../../etc/passwd',
  '%00%ff%c0%af',
  '<script>alert(1)</script>',
  "' or 1=1 --",
  '${jndi:ldap://x}',
  '__proto__',
  'constructor',
  'hub.p.00.actor',
  '*',
  '>',
  'a'.repeat(5000),
  '\n\r\t\f\v',
  'null',
  'true',
  '-0',
  '1e400',
];

export const ODD_NUMBERS = [
  0,
  -0,
  -1,
  1.5,
  2 ** 53,
  -(2 ** 53) - 2,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  1e308,
  -1e308,
];

/** Raw JSON number texts JSON.stringify cannot produce. */
export const HUGE_NUMBER_TEXTS = [
  '1e400',
  '-1e400',
  '123456789012345678901234567890123456789',
  '0.000000000000000000000000000000000000000000001',
  '1' + '0'.repeat(400),
];

export function oddString(r: Rng): string {
  if (r.chance(0.3)) {
    // Random code points, surrogates included.
    let s = '';
    const n = r.between(0, 40);
    for (let i = 0; i < n; i++) s += String.fromCharCode(r.int(0x10000));
    return s;
  }
  return r.pick(ODD_STRINGS);
}

/** Any JSON value, biased towards trouble; `depth` bounds recursion. */
export function oddValue(r: Rng, depth = 3): unknown {
  const k = r.int(depth > 0 ? 9 : 6);
  switch (k) {
    case 0:
      return null;
    case 1:
      return r.chance(0.5);
    case 2:
      return r.pick(ODD_NUMBERS);
    case 3:
    case 4:
      return oddString(r);
    case 5:
      return r.int(1000);
    case 6:
      return Array.from({ length: r.int(4) }, () => oddValue(r, depth - 1));
    default: {
      const o: Record<string, unknown> = {};
      // defineProperty: a `__proto__` key stays a plain field (see cases.ts setOwn).
      for (let i = r.int(4); i > 0; i--) {
        Object.defineProperty(o, oddString(r).slice(0, 20), {
          value: oddValue(r, depth - 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return o;
    }
  }
}

/** A deeply nested array or object, as text (JSON.stringify would overflow first). */
export function deepNesting(r: Rng): string {
  const depth = r.pick([100, 1_000, 10_000, 100_000]);
  return r.chance(0.5)
    ? '['.repeat(depth) + ']'.repeat(depth)
    : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}
