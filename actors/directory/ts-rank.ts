// `tsvector @@ tsquery` and `ts_rank(tsvector, tsquery)` (default weights, normalization 0) as
// PostgreSQL 15 computes them, to the bit: src/backend/utils/adt/tsvector_op.c (TS_execute,
// checkcondition_str) and tsrank.c (calc_rank, calc_rank_and, calc_rank_or, find_wordentry,
// SortAndUniqItems). PostgreSQL computes in C float with some double intermediates; every
// Math.fround below stands where C stores or computes a float (x86-64 SSE, FLT_EVAL_METHOD 0).
// Rounding a double result of one +, -, *, / or sqrt of floats to float gives the float operation's
// own result (53 >= 2 * 24 + 2 bits), so each float operation is the double one, then fround.
import {
  compareLexemes,
  termsInOrder,
  type TsQuery,
  type TsTerm,
  type TsVector,
} from './ts-parse.js';

const f32 = Math.fround;

/** The default weights {D, C, B, A}, as the C float constants 0.1f, 0.2f, 0.4f, 1.0f. */
const WEIGHTS = new Float64Array([f32(0.1), f32(0.2), f32(0.4), f32(1.0)]);
const MAXENTRYPOS = 1 << 14;
const POS_MASK = MAXENTRYPOS - 1;
const WORD_DISTANCE_FAR = f32(1e-30);
/** What calc_rank returns for a negative result: an AND query whose operands never pair up. */
const NO_PAIR_RANK = f32(1e-20);

/**
 * word_distance(w) for w in 1..100: `1.0 / (1.005 + 0.05 * exp(((float4) w) / 1.5 - 2))` in
 * double, returned as float4. Only these 100 arguments exist, and each float result was checked
 * to stay the same when exp() is off by ±2 ulp, so V8's exp and glibc's agree after the rounding.
 */
const WORD_DISTANCE = new Float64Array(101);
for (let w = 1; w <= 100; w++) {
  WORD_DISTANCE[w] = f32(1.0 / (1.005 + 0.05 * Math.exp(f32(w) / 1.5 - 2)));
}

/** word_distance(dist) for dist >= 1 (exported for the test of the claim above). */
export function wordDistance(dist: number): number {
  return dist > 100 ? WORD_DISTANCE_FAR : WORD_DISTANCE[dist]!;
}

/** calc_rank_and's stand-in for a lexeme without positions: position MAXENTRYPOS - 1, weight D. */
const POSNULL_AND = Uint16Array.of(MAXENTRYPOS - 1);
/** calc_rank_or's stand-in: position 0, weight D. */
const POSNULL_OR = Uint16Array.of(0);

/** First index whose lexeme is >= `lexeme` in PostgreSQL's order. */
export function lowerBound(lexemes: readonly string[], lexeme: string): number {
  let lo = 0;
  let hi = lexemes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareLexemes(lexemes[mid]!, lexeme) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// find_wordentry's result, as [rangeStart, rangeEnd) over v.lexemes: one lexeme for a plain
// operand, every lexeme it starts for a prefix one (they follow each other in byte order).
let rangeStart = 0;
let rangeEnd = 0;
function findRange(lexemes: readonly string[], lexeme: string, prefix: boolean): void {
  const start = lowerBound(lexemes, lexeme);
  let end = start;
  if (prefix) {
    while (end < lexemes.length && lexemes[end]!.startsWith(lexeme)) end++;
  } else if (end < lexemes.length && lexemes[end] === lexeme) {
    end++;
  }
  rangeStart = start;
  rangeEnd = end;
}

/** Whether `v` holds `lexeme` (or, with `prefix`, any lexeme starting with it). */
export function hasLexeme(v: TsVector, lexeme: string, prefix: boolean): boolean {
  findRange(v.lexemes, lexeme, prefix);
  return rangeEnd > rangeStart;
}

// checkclass_str without position output: a stripped lexeme matches whatever the weights asked.
function weightMatches(v: TsVector, i: number, mask: number): boolean {
  const start = v.off[i]!;
  const end = v.off[i + 1]!;
  if (mask === 0 || start === end) return true;
  for (let j = start; j < end; j++) {
    if (mask & (1 << (v.pos[j]! >>> 14))) return true;
  }
  return false;
}

function termMatches(v: TsVector, t: TsTerm): boolean {
  findRange(v.lexemes, t.lexeme, t.prefix);
  for (let i = rangeStart; i < rangeEnd; i++) {
    if (weightMatches(v, i, t.weightMask)) return true;
  }
  return false;
}

/**
 * `v @@ q`. Without phrase operators TS_execute never sees TS_MAYBE (no operand is asked for
 * positions), so this is plain boolean logic.
 */
export function tsMatch(v: TsVector, q: TsQuery): boolean {
  switch (q.kind) {
    case 'term':
      return termMatches(v, q);
    case 'not':
      return !tsMatch(v, q.arg);
    case 'and':
      return tsMatch(v, q.left) && tsMatch(v, q.right);
    case 'or':
      return tsMatch(v, q.left) || tsMatch(v, q.right);
  }
}

interface RankPlan {
  /** SortAndUniqItems' result. */
  readonly items: readonly TsTerm[];
  /** calc_rank's choice: calc_rank_and for an AND root, unless it falls back for < 2 items. */
  readonly and: boolean;
}

const plans = new WeakMap<TsQuery, RankPlan>();

function rankPlan(q: TsQuery): RankPlan {
  let plan = plans.get(q);
  if (plan === undefined) {
    // The query's item array lists an operator's right operand before its left one, so its
    // operands are the text's in reverse. Duplicates compare equal by string alone (prefix flag
    // and weights ignored), and which of them survives is whichever qsort_arg leaves first.
    // Ranking never looks at an operand's weights: find_wordentry takes every position.
    const items = termsInOrder(q, []).reverse();
    pgQsort(items, (a, b) => compareLexemes(a.lexeme, b.lexeme));
    let size = items.length === 0 ? 0 : 1;
    for (let i = 1; i < items.length; i++) {
      if (items[i]!.lexeme !== items[size - 1]!.lexeme) items[size++] = items[i]!;
    }
    items.length = size;
    plan = { items, and: q.kind === 'and' && size >= 2 };
    plans.set(q, plan);
  }
  return plan;
}

/** `ts_rank(v, q)`: the float4 result, exactly (as a number). */
export function tsRank(v: TsVector, q: TsQuery): number {
  if (v.lexemes.length === 0) return 0;
  const plan = rankPlan(q);
  const res = plan.and ? rankAnd(v, plan.items) : rankOr(v, plan.items);
  return res < 0 ? NO_PAIR_RANK : res;
}

function rankOr(v: TsVector, items: readonly TsTerm[]): number {
  let res = 0;
  for (const item of items) {
    findRange(v.lexemes, item.lexeme, item.prefix);
    for (let e = rangeStart; e < rangeEnd; e++) {
      // Stored back into float res from the double sum.
      res = f32(res + orEntryTerm(v, e));
    }
  }
  if (items.length > 0) res = f32(res / items.length);
  return res;
}

/**
 * What one matched lexeme adds to calc_rank_or's sum (before the float rounding of the sum): it
 * depends only on that lexeme's positions, so an inverted index can keep it beside each entry.
 */
export function orEntryTerm(v: TsVector, i: number): number {
  return orEntryFloat(v.pos, v.off[i]!, v.off[i + 1]!) / OR_ENTRY_DIVISOR;
}

/** The double constant calc_rank_or divides each entry's float by. */
export const OR_ENTRY_DIVISOR = 1.64493406685;

/**
 * orEntryTerm before its division, for the positions pos[start..end): a float, so an index can
 * keep it in a Float32Array exactly and divide when it sums (the same double either way).
 */
export function orEntryFloat(pos: Uint16Array, start: number, end: number): number {
  let post = pos;
  if (start === end) {
    post = POSNULL_OR;
    start = 0;
    end = 1;
  }
  let resj = 0;
  let wjm = -1;
  let jm = 0;
  for (let at = start; at < end; at++) {
    const j = at - start;
    const w = WEIGHTS[post[at]! >>> 14]!;
    // float / int: the int converts to float (exactly, it is at most 257^2).
    resj = f32(resj + f32(w / ((j + 1) * (j + 1))));
    if (w > wjm) {
      wjm = w;
      jm = j;
    }
  }
  // Float arithmetic up to the double constant, then double.
  return f32(f32(wjm + resj) - f32(wjm / ((jm + 1) * (jm + 1))));
}

/**
 * calc_rank's operands (sorted, unique) and whether it ranks with calc_rank_and; for a caller that
 * sums orEntryTerm itself: f32(f32(sum…) / items.length) in item order, then lexeme order.
 */
export function rankPlanOf(q: TsQuery): {
  readonly items: readonly TsTerm[];
  readonly and: boolean;
} {
  return rankPlan(q);
}

// calc_rank_and's pos[]: per sorted item, the positions of the last lexeme it matched, as a range
// of an array (the vector's, or the stand-in). Reused between calls so ranking allocates nothing.
let pairBuf: Array<Uint16Array | null> = [];
let pairStart = new Int32Array(16);
let pairEnd = new Int32Array(16);

function rankAnd(v: TsVector, items: readonly TsTerm[]): number {
  const size = items.length;
  if (pairBuf.length < size) pairBuf = new Array<Uint16Array | null>(size).fill(null);
  if (pairStart.length < size) {
    pairStart = new Int32Array(size);
    pairEnd = new Int32Array(size);
  }
  for (let i = 0; i < size; i++) pairBuf[i] = null;
  let res = -1;
  for (let i = 0; i < size; i++) {
    const item = items[i]!;
    findRange(v.lexemes, item.lexeme, item.prefix);
    for (let e = rangeStart; e < rangeEnd; e++) {
      let post = v.pos;
      let ps = v.off[e]!;
      let pe = v.off[e + 1]!;
      if (ps === pe) {
        post = POSNULL_AND;
        ps = 0;
        pe = 1;
      }
      // Each lexeme of a prefix item replaces the previous one: later items pair only with the last.
      pairBuf[i] = post;
      pairStart[i] = ps;
      pairEnd[i] = pe;
      for (let k = 0; k < i; k++) {
        const ct = pairBuf[k];
        if (ct == null) continue;
        const cs = pairStart[k]!;
        const ce = pairEnd[k]!;
        const anyNull = post === POSNULL_AND || ct === POSNULL_AND;
        for (let l = ps; l < pe; l++) {
          const pl = post[l]!;
          const wl = WEIGHTS[pl >>> 14]!;
          for (let p = cs; p < ce; p++) {
            const pp = ct[p]!;
            let dist = Math.abs((pl & POS_MASK) - (pp & POS_MASK));
            if (dist === 0 && !anyNull) continue;
            if (dist === 0) dist = MAXENTRYPOS;
            const wd = wordDistance(dist);
            // sqrt() of a float promoted to double, stored into float curw.
            const curw = f32(Math.sqrt(f32(f32(wl * WEIGHTS[pp >>> 14]!) * wd)));
            // `(res < 0) ? curw : 1.0 - ...` has type double, then stored into float res.
            res = res < 0 ? curw : f32(1.0 - (1.0 - res) * (1.0 - curw));
          }
        }
      }
    }
  }
  return res;
}

/**
 * PostgreSQL 15's qsort_arg (src/include/lib/sort_template.h, Bentley & McIlroy), step for step:
 * it is not stable, and SortAndUniqItems keeps the first of equal operands, so which duplicate
 * ranks (`'x':*` or `'x'`) depends on this exact sequence of swaps.
 */
export function pgQsort<T>(arr: T[], cmp: (a: T, b: T) => number): void {
  sortRange(arr, 0, arr.length, cmp);
}

function swap<T>(arr: T[], i: number, j: number): void {
  const t = arr[i]!;
  arr[i] = arr[j]!;
  arr[j] = t;
}

function med3<T>(arr: T[], a: number, b: number, c: number, cmp: (a: T, b: T) => number): number {
  const A = arr[a]!;
  const B = arr[b]!;
  const C = arr[c]!;
  return cmp(A, B) < 0
    ? cmp(B, C) < 0
      ? b
      : cmp(A, C) < 0
        ? c
        : a
    : cmp(B, C) > 0
      ? b
      : cmp(A, C) < 0
        ? a
        : c;
}

function sortRange<T>(arr: T[], a: number, n: number, cmp: (a: T, b: T) => number): void {
  for (;;) {
    if (n < 7) {
      for (let pm = a + 1; pm < a + n; pm++) {
        for (let pl = pm; pl > a && cmp(arr[pl - 1]!, arr[pl]!) > 0; pl--) swap(arr, pl, pl - 1);
      }
      return;
    }
    let presorted = true;
    for (let pm = a + 1; pm < a + n; pm++) {
      if (cmp(arr[pm - 1]!, arr[pm]!) > 0) {
        presorted = false;
        break;
      }
    }
    if (presorted) return;
    let pm = a + Math.floor(n / 2);
    if (n > 7) {
      let pl = a;
      let pn = a + n - 1;
      if (n > 40) {
        const d = Math.floor(n / 8);
        pl = med3(arr, pl, pl + d, pl + 2 * d, cmp);
        pm = med3(arr, pm - d, pm, pm + d, cmp);
        pn = med3(arr, pn - 2 * d, pn - d, pn, cmp);
      }
      pm = med3(arr, pl, pm, pn, cmp);
    }
    swap(arr, a, pm);
    let pa = a + 1;
    let pb = pa;
    let pc = a + n - 1;
    let pd = pc;
    for (;;) {
      let r: number;
      while (pb <= pc && (r = cmp(arr[pb]!, arr[a]!)) <= 0) {
        if (r === 0) swap(arr, pa++, pb);
        pb++;
      }
      while (pb <= pc && (r = cmp(arr[pc]!, arr[a]!)) >= 0) {
        if (r === 0) swap(arr, pc, pd--);
        pc--;
      }
      if (pb > pc) break;
      swap(arr, pb++, pc--);
    }
    const pn = a + n;
    let d1 = Math.min(pa - a, pb - pa);
    for (let i = 0; i < d1; i++) swap(arr, a + i, pb - d1 + i);
    d1 = Math.min(pd - pc, pn - pd - 1);
    for (let i = 0; i < d1; i++) swap(arr, pb + i, pn - d1 + i);
    d1 = pb - pa;
    const d2 = pd - pc;
    if (d1 <= d2) {
      if (d1 > 1) sortRange(arr, a, d1, cmp);
      if (d2 <= 1) return;
      a = pn - d2;
      n = d2;
    } else {
      if (d2 > 1) sortRange(arr, pn - d2, d2, cmp);
      if (d1 <= 1) return;
      n = d1;
    }
  }
}
