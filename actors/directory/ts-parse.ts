// PostgreSQL's text output of tsvector (tsvector_out) and tsquery (tsqueryout) read back into the
// shapes ts-rank.ts evaluates. Only the output syntax is accepted (every lexeme quoted, spaces as
// PostgreSQL prints them or more): the input always comes from `v::text` / `q::text`, and anything
// else is safer answered by SQL than by a guess at PostgreSQL's more lenient input rules.

/**
 * A parsed tsvector: lexemes in PostgreSQL's order (byte-wise, as its text output lists them), and
 * their positions packed as PostgreSQL's WordEntryPos (weight in the top 2 bits: A=3,B=2,C=1,D=0;
 * position in the low 14 bits), all in one array: lexeme i's are pos[off[i]] up to pos[off[i+1]].
 * One array for all (not one per lexeme) keeps 100,000 vectors in tens of megabytes, not hundreds.
 * A lexeme without positions (a stripped vector) has an empty range.
 */
export interface TsVector {
  readonly lexemes: readonly string[];
  readonly pos: Uint16Array;
  readonly off: Uint32Array;
}

/** Lexeme i's positions, as a view (allocates: for tests and tools, not for ranking). */
export function positionsAt(v: TsVector, i: number): Uint16Array {
  return v.pos.subarray(v.off[i], v.off[i + 1]);
}

/**
 * A query operand. `weightMask` is PostgreSQL's QueryOperand.weight: A=8, B=4, C=2, D=1, 0 for
 * "any weight" (`'x':AB` is 12).
 */
export interface TsTerm {
  readonly kind: 'term';
  readonly lexeme: string;
  readonly prefix: boolean;
  readonly weightMask: number;
}
export interface TsNot {
  readonly kind: 'not';
  readonly arg: TsQuery;
}
export interface TsAnd {
  readonly kind: 'and';
  readonly left: TsQuery;
  readonly right: TsQuery;
}
export interface TsOr {
  readonly kind: 'or';
  readonly left: TsQuery;
  readonly right: TsQuery;
}
/** A tsquery without phrase operators, as a tree whose root is PostgreSQL's root operator. */
export type TsQuery = TsTerm | TsNot | TsAnd | TsOr;

/** Largest position a tsvector holds (MAXENTRYPOS - 1); PostgreSQL clamps larger ones to it. */
export const MAX_POSITION = 0x3fff;

const QUOTE = 0x27;
const BACKSLASH = 0x5c;
const SPACE = 0x20;

/** Weight letter → WordEntryPos weight (A=3 … D=0), -1 if not a weight letter. */
function weightCode(c: number): number {
  switch (c | 0x20) {
    case 0x61:
      return 3;
    case 0x62:
      return 2;
    case 0x63:
      return 1;
    case 0x64:
      return 0;
    default:
      return -1;
  }
}

/**
 * Order of lexemes as PostgreSQL's tsCompareString sorts them: by UTF-8 bytes, a proper prefix
 * first. UTF-16 code-unit order agrees except that surrogates (characters above U+FFFF, 4 UTF-8
 * bytes) sort below U+E000..U+FFFF (3 bytes), so the first differing pair is remapped when both
 * are in that range.
 */
export function compareLexemes(a: string, b: string): number {
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) {
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      }
      return x - y;
    }
  }
  return a.length - b.length;
}

// readQuoted's string result, kept outside so that the hot parse loop returns a plain index.
let quotedValue = '';

/** End index (after the closing quote) of the quoted string at `start`, -1 if unterminated. */
function readQuoted(text: string, start: number): number {
  // tsvector_out and tsqueryout double a quote and put a backslash before a backslash.
  let out = '';
  let seg = start + 1;
  let i = seg;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      if (text.charCodeAt(i + 1) === QUOTE) {
        out += text.slice(seg, i + 1);
        i += 2;
        seg = i;
        continue;
      }
      quotedValue = out + text.slice(seg, i);
      return i + 1;
    }
    if (c === BACKSLASH) {
      if (i + 1 >= text.length) return -1;
      out += text.slice(seg, i);
      seg = i + 1;
      i += 2;
      continue;
    }
    i++;
  }
  return -1;
}

/** PostgreSQL tsvector_out text, e.g. `'agent':1A,5 'fast':2B 'it''s':3`; '' is the empty vector. */
export function parseTsVector(text: string): TsVector {
  const lexemes: string[] = [];
  const flat: number[] = [];
  const off: number[] = [0];
  const fail = (at: number) => new Error(`not tsvector text at ${at}: ${text.slice(0, 120)}`);
  const n = text.length;
  let i = 0;
  for (;;) {
    while (i < n && text.charCodeAt(i) === SPACE) i++;
    if (i >= n) break;
    if (text.charCodeAt(i) !== QUOTE) throw fail(i);
    i = readQuoted(text, i);
    if (i < 0 || quotedValue === '') throw fail(i);
    const lexeme = quotedValue;
    if (text.charCodeAt(i) === 0x3a /* : */) {
      i++;
      const list = flat;
      for (;;) {
        let p = 0;
        const digitsAt = i;
        for (let c = text.charCodeAt(i); c >= 0x30 && c <= 0x39; c = text.charCodeAt(++i)) {
          p = p * 10 + (c - 0x30);
        }
        if (i === digitsAt) throw fail(i);
        let weight = 0;
        if (i < n) {
          const w = weightCode(text.charCodeAt(i));
          if (w >= 0) {
            weight = w;
            i++;
          }
        }
        list.push((weight << 14) | (p > MAX_POSITION ? MAX_POSITION : p));
        if (text.charCodeAt(i) !== 0x2c /* , */) break;
        i++;
      }
    }
    if (i < n && text.charCodeAt(i) !== SPACE) throw fail(i);
    lexemes.push(lexeme);
    off.push(flat.length);
  }
  return { lexemes, pos: Uint16Array.from(flat), off: Uint32Array.from(off) };
}

class Unsupported extends Error {}

/** Recursive descent over tsqueryout text, with PostgreSQL's priorities: ! over & over |. */
class QueryParser {
  private i = 0;
  constructor(private readonly text: string) {}

  parse(): TsQuery {
    const q = this.or();
    this.skipSpace();
    if (this.i < this.text.length) throw new Unsupported();
    return q;
  }

  private skipSpace(): number {
    const t = this.text;
    while (this.i < t.length && t.charCodeAt(this.i) === SPACE) this.i++;
    return this.i < t.length ? t.charCodeAt(this.i) : -1;
  }

  // Left-associative like PostgreSQL's parser; the shape below the root does not change either
  // the match or the rank, only the root operator and the operands' order do.
  private or(): TsQuery {
    let left = this.and();
    while (this.skipSpace() === 0x7c /* | */) {
      this.i++;
      left = { kind: 'or', left, right: this.and() };
    }
    return left;
  }

  private and(): TsQuery {
    let left = this.unary();
    while (this.skipSpace() === 0x26 /* & */) {
      this.i++;
      left = { kind: 'and', left, right: this.unary() };
    }
    return left;
  }

  private unary(): TsQuery {
    const c = this.skipSpace();
    if (c === 0x21 /* ! */) {
      this.i++;
      return { kind: 'not', arg: this.unary() };
    }
    if (c === 0x28 /* ( */) {
      this.i++;
      const inner = this.or();
      if (this.skipSpace() !== 0x29 /* ) */) throw new Unsupported();
      this.i++;
      return inner;
    }
    // Anything else (an unquoted word, `<->`, `<2>`) is input syntax or a phrase operator.
    if (c !== QUOTE) throw new Unsupported();
    const end = readQuoted(this.text, this.i);
    if (end < 0 || quotedValue === '') throw new Unsupported();
    const lexeme = quotedValue;
    this.i = end;
    let prefix = false;
    let weightMask = 0;
    if (this.text.charCodeAt(this.i) === 0x3a /* : */) {
      this.i++;
      for (;;) {
        const s = this.text.charCodeAt(this.i);
        const w = weightCode(s);
        if (s === 0x2a /* * */) prefix = true;
        else if (w >= 0) weightMask |= 1 << w;
        else break;
        this.i++;
      }
    }
    return { kind: 'term', lexeme, prefix, weightMask };
  }
}

/**
 * PostgreSQL tsqueryout text, e.g. `( 'agent':* | 'agen' ) & 'fast'`. Null for the empty query and
 * for anything this module does not evaluate (phrase operators `<->`/`<N>`, input-only syntax), so
 * the caller can ask PostgreSQL instead.
 */
export function parseTsQuery(text: string): TsQuery | null {
  if (text.trim() === '') return null;
  try {
    return new QueryParser(text).parse();
  } catch (err) {
    if (err instanceof Unsupported) return null;
    throw err;
  }
}

/** Every distinct (lexeme, prefix) operand, in the query's text order, for an inverted index. */
export function queryTerms(q: TsQuery): Array<{ lexeme: string; prefix: boolean }> {
  const out: Array<{ lexeme: string; prefix: boolean }> = [];
  const seen = new Set<string>();
  for (const t of termsInOrder(q, [])) {
    const key = (t.prefix ? '*' : '=') + t.lexeme;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ lexeme: t.lexeme, prefix: t.prefix });
  }
  return out;
}

/** All operands, duplicates included, left to right as the text shows them. */
export function termsInOrder(q: TsQuery, into: TsTerm[]): TsTerm[] {
  switch (q.kind) {
    case 'term':
      into.push(q);
      break;
    case 'not':
      termsInOrder(q.arg, into);
      break;
    case 'and':
    case 'or':
      termsInOrder(q.left, into);
      termsInOrder(q.right, into);
  }
  return into;
}

/**
 * Whether every matching vector must hold one of the query's operands (PostgreSQL's
 * tsquery_requires_match): when false (`!x`, `x | !y`), an inverted index of operands cannot find
 * all matches, and every vector has to be tested.
 */
export function requiresMatch(q: TsQuery): boolean {
  switch (q.kind) {
    case 'term':
      return true;
    case 'not':
      return false;
    case 'and':
      return requiresMatch(q.left) || requiresMatch(q.right);
    case 'or':
      return requiresMatch(q.left) && requiresMatch(q.right);
  }
}
