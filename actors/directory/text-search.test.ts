// The tsvector/tsquery text parsers, and match and rank on small cases whose PostgreSQL 15 answers
// are written down here (test/integration/text-search-parity.int.test.ts compares thousands more).
import { describe, expect, it } from 'vitest';
import {
  compareLexemes,
  hasLexeme,
  parseTsQuery,
  parseTsVector,
  positionsAt,
  queryTerms,
  requiresMatch,
  tsMatch,
  tsRank,
  type TsQuery,
} from './text-search.js';
import { pgQsort, wordDistance } from './ts-rank.js';

const A = 3 << 14;
const B = 2 << 14;
const C = 1 << 14;

function query(text: string): TsQuery {
  const q = parseTsQuery(text);
  if (q === null) throw new Error(`unparsed: ${text}`);
  return q;
}

const term = (lexeme: string, prefix = false, weightMask = 0) => ({
  kind: 'term',
  lexeme,
  prefix,
  weightMask,
});

describe('parseTsVector', () => {
  it('reads lexemes, doubled quotes, positions and weights', () => {
    const v = parseTsVector(`'agent':1A,5 'fast':2B 'it''s':3 'x':4C,16383`);
    expect(v.lexemes).toEqual(['agent', 'fast', "it's", 'x']);
    expect(v.lexemes.map((_, i) => [...positionsAt(v, i)])).toEqual([
      [A | 1, 5],
      [B | 2],
      [3],
      [C | 4, 16383],
    ]);
  });

  it('reads a backslash escaped by a backslash', () => {
    const v = parseTsVector(String.raw`'a\\b':1 'c\'d':2`);
    expect(v.lexemes).toEqual(['a\\b', "c'd"]);
  });

  it('reads lexemes without positions (a stripped vector)', () => {
    const v = parseTsVector(`'a' 'b'`);
    expect(v.lexemes).toEqual(['a', 'b']);
    expect(v.lexemes.map((_, i) => positionsAt(v, i).length)).toEqual([0, 0]);
  });

  it('reads the empty vector', () => {
    expect(parseTsVector('')).toEqual({
      lexemes: [],
      pos: new Uint16Array(0),
      off: Uint32Array.of(0),
    });
  });

  it('accepts a D weight and clamps positions like PostgreSQL input', () => {
    const v = parseTsVector(`'a':2D,99999`);
    expect([...positionsAt(v, 0)]).toEqual([2, 16383]);
  });

  it('rejects text that is not tsvector output', () => {
    expect(() => parseTsVector('agent:1')).toThrow();
    expect(() => parseTsVector(`'agent`)).toThrow();
    expect(() => parseTsVector(`'a':`)).toThrow();
    expect(() => parseTsVector(`'a':1x`)).toThrow();
  });
});

describe('parseTsQuery', () => {
  it('reads prefix and weight suffixes', () => {
    expect(query(`'agent':*`)).toEqual(term('agent', true));
    expect(query(`'agent':*AB`)).toEqual(term('agent', true, 12));
    expect(query(`'agent':CD`)).toEqual(term('agent', false, 3));
    expect(query(String.raw`'it''s' & 'a\\b'`)).toEqual({
      kind: 'and',
      left: term("it's"),
      right: term('a\\b'),
    });
  });

  it('binds ! tighter than &, and & tighter than |', () => {
    expect(query(`'a' | 'b' & 'c'`)).toEqual({
      kind: 'or',
      left: term('a'),
      right: { kind: 'and', left: term('b'), right: term('c') },
    });
    expect(query(`!'a' & 'b'`)).toEqual({
      kind: 'and',
      left: { kind: 'not', arg: term('a') },
      right: term('b'),
    });
    expect(query(`'a' & !!'b'`)).toEqual({
      kind: 'and',
      left: term('a'),
      right: { kind: 'not', arg: { kind: 'not', arg: term('b') } },
    });
  });

  it('reads parentheses, as directory_query builds them', () => {
    expect(query(`( 'agent':* | 'agen' ) & 'fast':*`)).toEqual({
      kind: 'and',
      left: { kind: 'or', left: term('agent', true), right: term('agen') },
      right: term('fast', true),
    });
    expect(query(`!( 'a' | 'b' )`)).toEqual({
      kind: 'not',
      arg: { kind: 'or', left: term('a'), right: term('b') },
    });
  });

  it('chains operators to the left', () => {
    expect(query(`'a' & 'b' & 'c'`)).toEqual({
      kind: 'and',
      left: { kind: 'and', left: term('a'), right: term('b') },
      right: term('c'),
    });
  });

  it('returns null for phrase operators, input-only syntax and the empty query', () => {
    expect(parseTsQuery(`'a' <-> 'b'`)).toBeNull();
    expect(parseTsQuery(`'a' <2> 'b'`)).toBeNull();
    expect(parseTsQuery(`'a' & ( 'b' <-> 'c' )`)).toBeNull();
    expect(parseTsQuery('')).toBeNull();
    expect(parseTsQuery('agent')).toBeNull();
    expect(parseTsQuery(`( 'a'`)).toBeNull();
    expect(parseTsQuery(`'a' 'b'`)).toBeNull();
  });

  it('lists distinct operands for an inverted index', () => {
    expect(queryTerms(query(`( 'a':* | 'b' ) & !'a' & 'a':*`))).toEqual([
      { lexeme: 'a', prefix: true },
      { lexeme: 'b', prefix: false },
      { lexeme: 'a', prefix: false },
    ]);
  });

  it('knows when a match needs an operand present', () => {
    expect(requiresMatch(query(`'a' & !'b'`))).toBe(true);
    expect(requiresMatch(query(`'a' | !'b'`))).toBe(false);
    expect(requiresMatch(query(`!'a'`))).toBe(false);
  });
});

describe('compareLexemes', () => {
  it('orders by UTF-8 bytes, a prefix first', () => {
    expect(compareLexemes('ab', 'abc')).toBeLessThan(0);
    expect(compareLexemes('b', 'abc')).toBeGreaterThan(0);
    expect(compareLexemes('abc', 'abc')).toBe(0);
    // U+E000 is 3 UTF-8 bytes (EE 80 80), U+1F600 four (F0 …): a surrogate pair in UTF-16.
    expect(compareLexemes('a\uE000', 'a\u{1F600}')).toBeLessThan(0);
    expect(compareLexemes('a\uD7FF', 'a\u{1F600}')).toBeLessThan(0);
    expect(compareLexemes('a\uFFFD', 'a\u{10000}')).toBeLessThan(0);
  });
});

describe('tsMatch', () => {
  const v = parseTsVector(`'agenda':4B 'agent':1A,9C 'fast':2 'tool'`);

  it('matches plain, prefix and negated operands', () => {
    expect(tsMatch(v, query(`'agent'`))).toBe(true);
    expect(tsMatch(v, query(`'agen'`))).toBe(false);
    expect(tsMatch(v, query(`'agen':*`))).toBe(true);
    expect(tsMatch(v, query(`'agent' & !'fast'`))).toBe(false);
    expect(tsMatch(v, query(`'nope' | !'nothing'`))).toBe(true);
    expect(hasLexeme(v, 'agend', true)).toBe(true);
    expect(hasLexeme(v, 'agend', false)).toBe(false);
  });

  it('honours weight restrictions, except on a lexeme without positions', () => {
    expect(tsMatch(v, query(`'agent':C`))).toBe(true);
    expect(tsMatch(v, query(`'agent':B`))).toBe(false);
    expect(tsMatch(v, query(`'agen':*B`))).toBe(true);
    expect(tsMatch(v, query(`'fast':A`))).toBe(false);
    expect(tsMatch(v, query(`'fast':D`))).toBe(true);
    expect(tsMatch(v, query(`'tool':A`))).toBe(true);
  });

  it('matches nothing but negations in the empty vector', () => {
    const empty = parseTsVector('');
    expect(tsMatch(empty, query(`'a'`))).toBe(false);
    expect(tsMatch(empty, query(`!'a'`))).toBe(true);
    expect(tsRank(empty, query(`'a' & 'b'`))).toBe(0);
  });
});

describe('tsRank', () => {
  // Values read from PostgreSQL 15: SELECT ts_rank(v, q)::float8.
  it('equals PostgreSQL on hand-checked cases', () => {
    const v = parseTsVector(`'b':1A 'bc':3A 'd':5`);
    expect(tsRank(v, query(`'b':* & 'b'`))).toBe(0.6079270839691162);
    expect(tsRank(v, query(`'b' & 'b':*`))).toBe(1.2158541679382324);
    expect(tsRank(v, query(`'b':* & 'b' & 'd'`))).toBe(0.3011847734451294);
    expect(tsRank(v, query(`'b' & 'b':* & 'd'`))).toBe(0.3114870488643646);
    expect(tsRank(parseTsVector(`'a':1 'b':2`), query(`'a' & 'b'`))).toBe(0.09910321980714798);
    expect(tsRank(parseTsVector(`'a':1`), query(`'a' & 'zz'`))).toBe(9.999999682655225e-21);
  });

  it('returns float32 values', () => {
    const v = parseTsVector(`'agent':1A,7,30B 'fast':2C,40 'tool':3`);
    for (const text of [`'agent' & 'fast'`, `'agent' | 'tool'`, `'agen':* & !'x'`]) {
      const r = tsRank(v, query(text));
      expect(Math.fround(r)).toBe(r);
      expect(r).toBeGreaterThan(0);
    }
  });
});

describe('wordDistance', () => {
  // glibc's exp and V8's may differ in the last bit; the float result must not depend on it.
  it('does not depend on the last bits of exp()', () => {
    const buf = new Float64Array(1);
    const bits = new BigInt64Array(buf.buffer);
    const nudge = (x: number, ulps: number) => {
      buf[0] = x;
      bits[0]! += BigInt(ulps);
      return buf[0];
    };
    for (let w = 1; w <= 100; w++) {
      const e = Math.exp(Math.fround(w) / 1.5 - 2);
      for (const ulps of [-2, -1, 1, 2]) {
        expect(Math.fround(1.0 / (1.005 + 0.05 * nudge(e, ulps))), `w=${w}`).toBe(wordDistance(w));
      }
    }
    expect(wordDistance(101)).toBe(Math.fround(1e-30));
    expect(wordDistance(16384)).toBe(Math.fround(1e-30));
  });
});

describe('pgQsort', () => {
  it('sorts', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let n = 0; n < 200; n += 7) {
      const arr = Array.from({ length: n }, () => Math.floor(rnd() * 20));
      pgQsort(arr, (a, b) => a - b);
      expect(arr).toEqual([...arr].sort((a, b) => a - b));
    }
  });
});
