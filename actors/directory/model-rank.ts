// Relevance for a directory search, as the SQL computes it: ts_rank of the fuzzy query plus
// ts_rank of the exact one, in float4, for every match. Few matches, or an AND query, are ranked
// agent by agent from their tsvectors; many matches of an OR query from the lexemes' postings,
// walked in PostgreSQL's order so that every float is bit for bit the same.
import { type DirectoryModel } from './directory-model.js';
import { orSlots, scratchBits, wordsFor } from './slot-bits.js';
import { RANK_SCRATCH, ScratchArray } from './scratch-array.js';
import { rankPlanOf, tsRank, type TsQuery, type TsTerm } from './text-search.js';

/** Above this many matches, OR queries are ranked from the postings rather than agent by agent. */
const RANK_FROM_POSTINGS = 48;

/**
 * ts_rank(tsv, tq) + ts_rank(tsv, tx) in float4 for every match, numbered as the matches are
 * (a scratch array, valid until the next search). `matches` is sorted here when it is not in slot
 * order. matchBits and matchesBelow: the matches as a bitset and its prefix counts, when the
 * candidate walk left them.
 */
export function rank(
  model: DirectoryModel,
  matches: Int32Array,
  tq: TsQuery,
  tx: TsQuery,
  matchBits: Uint32Array | undefined,
  matchesBelow: Int32Array | undefined,
  bitsets: boolean
): Float64Array {
  const m = matches.length;
  const pq = rankPlanOf(tq);
  const px = rankPlanOf(tx);
  // Each rank is a float4 (Math.fround), kept in a double: the page's choice then reads the same
  // kind of array as for the other orders' keys (a key read of one kind only is a fast one).
  const out = ranks.of(m);
  if (m < RANK_FROM_POSTINGS || pq.and || px.and) {
    for (let i = 0; i < m; i++) {
      const tsv = model.tsvOf(matches[i] as number);
      out[i] = Math.fround(tsRank(tsv, tq) + tsRank(tsv, tx));
    }
    return out;
  }
  // calc_rank_or sums, per agent, what each matched lexeme adds, item by item and lexeme by
  // lexeme in PostgreSQL's order; walking the postings in that same order gives every agent the
  // same float sums without looking into its tsvector. The postings name slots; a slot's match
  // number comes from the matches' bitset (its bit's rank: small enough to stay in cache), or
  // without bitsets from a stamp and a number by slot.
  const lexemes = model.lexemes;
  let add: (id: number, sums: Float32Array, also: Float32Array | undefined) => void;
  if (!ascending(matches)) matches.sort();
  if (bitsets) {
    let bits = matchBits;
    let below = matchesBelow;
    if (bits === undefined || below === undefined) {
      const words = wordsFor(model.slotSpan);
      bits = scratchBits(RANK_SCRATCH, words);
      bits.fill(0, 0, words);
      orSlots(bits, matches);
      below = counts.of(words);
      countsBelow(matches, below);
    }
    const matched = bits;
    const numbered = below;
    // A posting many times longer than the matches is galloped through from match to match.
    const gallopAbove = m * GALLOP_RATIO;
    add = (id, sums, also) =>
      lexemes.size(id) > gallopAbove
        ? lexemes.addSharesAt(id, matches, sums, also)
        : lexemes.addSharesIn(id, matched, numbered, sums, also);
  } else {
    const stamp = model.nextStamp();
    const { marked } = model.cols;
    const at = walkAt.of(model.slotSpan);
    for (let i = 0; i < m; i++) {
      const slot = matches[i] as number;
      marked[slot] = stamp;
      at[slot] = i;
    }
    add = (id, sums, also) => lexemes.addShares(id, stamp, marked, at, sums, also);
  }
  const sumA = sumsA.of(m);
  const sumB = sumsB.of(m);
  sumA.fill(0, 0, m);
  sumB.fill(0, 0, m);
  if (isSubsequence(px.items, pq.items)) {
    // The exact query's terms are among the fuzzy one's (the usual case: the word itself and its
    // neighbours): each shared term's postings are walked once, adding to both sums. Each sum
    // still gets its terms' shares in its own query's order, so the floats are the same.
    sumPostings(model, pq.items, add, sumA, px.items, sumB);
  } else {
    sumPostings(model, pq.items, add, sumA, [], sumB);
    sumPostings(model, px.items, add, sumB, [], sumA);
  }
  const nq = pq.items.length;
  const nx = px.items.length;
  for (let i = 0; i < m; i++) {
    const a = sumA[i] as number;
    const b = sumB[i] as number;
    out[i] = Math.fround((nq > 0 ? Math.fround(a / nq) : a) + (nx > 0 ? Math.fround(b / nx) : b));
  }
  return out;
}

/** below[w] = the matches (ascending) in words before w, up to the last match's word. */
function countsBelow(matches: Int32Array, below: Int32Array): void {
  let w = 0;
  for (let i = 0; i < matches.length; i++) {
    const word = (matches[i] as number) >>> 5;
    while (w <= word) below[w++] = i;
  }
}

/**
 * Above this many posting entries per match, ranking gallops to the matches instead of testing
 * every entry: a gallop costs a few dependent steps per match, a test one sequential read.
 */
const GALLOP_RATIO = 32;

function ascending(a: Int32Array): boolean {
  for (let i = 1; i < a.length; i++) if ((a[i - 1] as number) > (a[i] as number)) return false;
  return true;
}

/**
 * Add the shares of each item's lexemes to `sums`, item by item; also to `alsoSums` for the items
 * that are, in order, `also`'s (a subsequence of `items`, matched first come first).
 */
function sumPostings(
  model: DirectoryModel,
  items: readonly TsTerm[],
  add: (id: number, sums: Float32Array, also: Float32Array | undefined) => void,
  sums: Float32Array,
  also: readonly TsTerm[],
  alsoSums: Float32Array
): void {
  const order = model.lexemeOrder;
  const texts = model.tsvs.lexemeTexts;
  let j = 0;
  for (const item of items) {
    const shared = j < also.length && sameTerm(item, also[j] as TsTerm);
    if (shared) j++;
    const ids = order.ids();
    for (let i = order.lowerBound(item.lexeme); i < ids.length; i++) {
      const id = ids[i] as number;
      const lexeme = texts[id] as string;
      if (item.prefix ? !lexeme.startsWith(item.lexeme) : lexeme !== item.lexeme) break;
      add(id, sums, shared ? alsoSums : undefined);
    }
  }
}

/** Two items walk the same postings (what ranking reads of a term: its lexeme and prefix flag). */
const sameTerm = (a: TsTerm, b: TsTerm): boolean => a.lexeme === b.lexeme && a.prefix === b.prefix;

/** True when `sub`'s items appear in `items` in the same order (sumPostings' greedy match). */
function isSubsequence(sub: readonly TsTerm[], items: readonly TsTerm[]): boolean {
  let j = 0;
  for (const item of items) if (j < sub.length && sameTerm(item, sub[j] as TsTerm)) j++;
  return j === sub.length;
}

/** Kept between searches (scratch-array.ts): ranks and the two queries' sums, numbered by match. */
const ranks = new ScratchArray((n) => new Float64Array(n));
const sumsA = new ScratchArray((n) => new Float32Array(n));
const sumsB = new ScratchArray((n) => new Float32Array(n));
/** Per-word prefix counts of the matches' bitset (their numbers). */
const counts = new ScratchArray((n) => new Int32Array(n));
/** A match number by slot, for ranking without bitsets (the bench's comparison only). */
const walkAt = new ScratchArray((n) => new Uint32Array(n));
