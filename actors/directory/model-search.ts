// A directory search answered from the in-memory model, with the SQL's semantics
// (infra/db discover-search.repo.ts): the same visibility, filters, text match, relevance
// (ts_rank of the fuzzy query plus ts_rank of the exact one, in float4), tie-breaks and paging.
// Candidates come from the smallest index that every match must be in, intersected with the
// others that are cheap to test (lists that many agents hold also have a bitset, slot-bits.ts:
// when the smallest is itself large, the intersection is taken 32 slots at a time and its bits
// are the candidates); each candidate is then checked against everything those indexes do not
// already guarantee, so the index choice never changes an answer, only its cost. Checks and sort
// keys are read from the model's per-slot columns; an agent's record is read only for what they
// do not hold. setBitsetSearch(false) gives the walk without bitsets (the bench compares them).
import {
  PRICING,
  type DirectoryAgent,
  type DirectoryPage,
  type DirectorySearch,
  type Viewer,
} from '../../infra/db/index.js';
import {
  type AgentKeys,
  type DirectoryModel,
  type ModelTenant,
  type SlotIndex,
} from './directory-model.js';
import { requiredTermGroups, type QueryTerm } from './query-terms.js';
import { orSlots, scratchBits, wordsFor } from './slot-bits.js';
import { PUBLIC, VERIFIED } from './slot-columns.js';
import { SlotList } from './slot-list.js';
import { firstN, FIRST_KEYS, ORDERS, RELEVANCE_TIES } from './search-order.js';
import { rankPlanOf, tsMatch, tsRank, type TsQuery, type TsTerm } from './text-search.js';

/** The search's parameters as the SQL applies them: folded by PostgreSQL, owner resolved. */
export interface ResolvedSearch {
  readonly search: DirectorySearch;
  /** directory_query(words, true) and (words, false); null when no word is searchable. */
  readonly tq: TsQuery | null;
  readonly tx: TsQuery | null;
  readonly categoryKey?: string;
  readonly tagKey?: string;
  readonly skillTagKey?: string;
  readonly contentMode?: string;
  /** The owner's tenant id; null when `owner` names no tenant. */
  readonly ownerTenantId?: string | null;
}

/** A filter an index can stand for; 'text' is a required group of the text query. */
type Covers = 'text' | 'category' | 'tag' | 'skillTag' | 'contentMode' | 'country' | 'tenant';

/** One list of a source, with its bitset when the index keeps one (slot-bits.ts). */
interface Part {
  readonly list: ArrayLike<number>;
  readonly bits: Uint32Array | undefined;
}

/** Slots every match is among: the union of its parts. */
interface Source {
  readonly parts: readonly Part[];
  readonly size: number;
  readonly covers: Covers;
}

export function searchModel(
  model: DirectoryModel,
  viewer: Viewer,
  r: ResolvedSearch
): DirectoryPage {
  const s = r.search;
  const hasWords = s.words.length > 0;
  if (
    (hasWords && (r.tq === null || r.tx === null)) ||
    r.ownerTenantId === null ||
    s.pricing === 'paid'
  ) {
    return { agents: [], count: 0 };
  }
  const stamp = model.nextStamp();
  const cols = model.cols;
  const { seen, marked, flags, tenant } = cols;
  const options = candidateSources(model, viewer, r);
  const plan = bitsetSearch ? bitsetPlan(model, options) : walkPlan(options, marked, stamp);
  const recordCheck = recordFilter(r, plan.covered);
  // A query that is one group of plain terms matches exactly the agents listed under them.
  const textListed = r.tq !== null && plan.covered.has('text') && isTermGroup(r.tq);
  const viewerOrd = model.tenantOrdinal(viewer.tenantId);
  const ownerOrd = r.ownerTenantId === undefined ? -2 : model.tenantOrdinal(r.ownerTenantId);
  const verified = s.verified === undefined ? -1 : s.verified ? VERIFIED : 0;
  const tenantOnly = s.tenantOnly;
  const matched = matchList;
  matched.reset();
  /** True when visibility and `verified` were applied to the candidates' bits already. */
  let flagsApplied = false;
  /** The matches as a bitset, when the candidate walk left one (dense, nothing to check). */
  let matchBits: Uint32Array | undefined;
  /** Per word of matchBits, the matches in the words before it (their numbers start there). */
  let matchesBelow: Int32Array | undefined;
  /** The checks the candidate's sources do not already guarantee; a match joins `matches`. */
  const check = (slot: number): void => {
    if (!flagsApplied) {
      const f = flags[slot] as number;
      const t = tenant[slot];
      if (tenantOnly ? t !== viewerOrd : (f & PUBLIC) === 0 && t !== viewerOrd) return;
      if (verified >= 0 && (f & VERIFIED) !== verified) return;
    }
    if (ownerOrd !== -2 && tenant[slot] !== ownerOrd) return;
    if (recordCheck === undefined && (r.tq === null || textListed)) {
      matched.push(slot);
      return;
    }
    if (recordCheck !== undefined && !recordCheck(model.keysOf(slot))) return;
    if (r.tq === null || textListed || tsMatch(model.tsvOf(slot), r.tq)) matched.push(slot);
  };
  if (plan.dense !== undefined) {
    // Every candidate is a set bit: the sources' intersection, in slot order, taken here a word
    // at a time (one pass over the bitsets, not one to intersect and another to list). Visibility
    // (public, or the viewer's own) and `verified` are applied to each word first: an agent they
    // rule out costs no check, and one they let through no read of its flags.
    const [p0, p1, p2] = plan.dense;
    const { publicBits, verifiedBits } = cols;
    const own = tenantOnly ? undefined : ownBits(model, viewer, plan.words);
    flagsApplied = !tenantOnly;
    const wantVerified = verified === VERIFIED ? -1 : 0;
    // Nothing left to check on a candidate (the common case): each is a match, listed without a
    // call, and a scratch bitset is left holding exactly the matches, for rank.
    const acceptAll =
      flagsApplied && ownerOrd === -2 && recordCheck === undefined && (r.tq === null || textListed);
    const below = acceptAll ? scratchCounts(plan.words) : undefined;
    const bits = acceptAll ? scratchBits(DENSE_SCRATCH, wordsFor(model.slotSpan)) : undefined;
    for (let w = 0; w < plan.words; w++) {
      let x = (p0[w] as number) & (p1[w] as number);
      if (p2 !== undefined) x &= p2[w] as number;
      if (flagsApplied && x !== 0) {
        x &= (publicBits[w] as number) | (own === undefined ? 0 : (own[w] as number));
        if (verified >= 0) x &= ~((verifiedBits[w] as number) ^ wantVerified);
      }
      if (below !== undefined && bits !== undefined) {
        below[w] = matched.length;
        bits[w] = x;
        while (x !== 0) {
          const low = x & -x;
          x ^= low;
          matched.push((w << 5) | (31 - Math.clz32(low)));
        }
        continue;
      }
      while (x !== 0) {
        const low = x & -x;
        x ^= low;
        check((w << 5) | (31 - Math.clz32(low)));
      }
    }
    if (below !== undefined && bits !== undefined) {
      // Ranking tests posting slots up to the span: no match lies beyond the words intersected.
      bits.fill(0, plan.words, wordsFor(model.slotSpan));
      matchBits = bits;
      matchesBelow = below;
    }
  } else {
    const tests = plan.tests;
    const marking = plan.marking;
    // A slot listed in two of the driver's parts is checked once (`seen`). The bitset tests come
    // first: they turn most slots away with a read of a small bitset, the stamp is a write to a
    // column as long as the directory, and a turned-away slot is turned away again anyway.
    const dedupe = plan.driver.parts.length > 1;
    for (const part of plan.driver.parts) {
      const list = part.list;
      candidates: for (let i = 0; i < list.length; i++) {
        const slot = list[i] as number;
        if (marking && marked[slot] !== stamp) continue;
        const w = slot >>> 5;
        const b = slot & 31;
        tests: for (const anyOf of tests) {
          for (const bits of anyOf) if ((((bits[w] ?? 0) >>> b) & 1) === 1) continue tests;
          continue candidates;
        }
        if (dedupe) {
          if (seen[slot] === stamp) continue;
          seen[slot] = stamp;
        }
        check(slot);
      }
    }
  }
  const matches = matched.view();
  const end = s.limit === undefined ? matches.length : s.offset + s.limit;
  let page: number[];
  if (r.tq !== null && r.tx !== null && s.sort === 'relevance') {
    // Ranks are numbered like the matches (scores[i] is matches[i]'s), so the page is chosen
    // among match numbers and mapped back to slots.
    const scores = rank(model, matches, r.tq, r.tx, matchBits, matchesBelow);
    const ties = RELEVANCE_TIES(model, cols);
    const before = (i: number, j: number): boolean =>
      scores[i] !== scores[j]
        ? (scores[i] as number) > (scores[j] as number)
        : ties(matches[i] as number, matches[j] as number);
    const numbers = matchNumbers(matches.length);
    page = firstN(numbers, end, before, bitsetSearch ? scores : undefined)
      .slice(s.offset, end)
      .map((i) => matches[i] as number);
  } else {
    const order = s.sort === 'relevance' ? 'rating' : s.sort;
    const before = ORDERS[order](model, cols);
    const key = bitsetSearch ? FIRST_KEYS[order](cols) : undefined;
    page = firstN(matches, end, before, key).slice(s.offset, end);
  }
  return {
    agents: page.map((slot) => listing(model, slot)),
    count: matches.length,
  };
}

/** The viewer's tenant's slots as a bitset of `words` words or more; undefined: no tenant. */
function ownBits(model: DirectoryModel, viewer: Viewer, words: number): Uint32Array | undefined {
  if (viewer.tenantId === undefined) return undefined;
  const own = model.byTenant.bitsOf(viewer.tenantId);
  if (own !== undefined && own.length >= words) return own;
  const bits = scratchBits(OWN_SCRATCH, words);
  bits.fill(0, 0, words);
  orSlots(bits, model.byTenant.get(viewer.tenantId));
  return bits;
}

/** What a listing shows, in the key order of toDirectoryAgent (same JSON as the SQL path). */
export function listing(model: DirectoryModel, slot: number): DirectoryAgent {
  const tenant = model.tenants.get(model.tenantIdOf(slot)) as ModelTenant;
  const a = model.listingOf(slot);
  return {
    id: model.idBySlot[slot] as string,
    name: a.name,
    description: a.description,
    category: a.category,
    tags: a.tags,
    avgRating: model.cols.rating[slot] as number,
    ratingCount: model.cols.ratingCount[slot] as number,
    tenantName: tenant.name,
    tenantSlug: tenant.slug,
    verified: ((model.cols.flags[slot] as number) & VERIFIED) !== 0,
    featured: a.featured,
    pricing: PRICING,
    websiteUrl: a.websiteUrl,
    docsUrl: a.docsUrl,
  };
}

/** The filters no index of the search stands for, checked on the agent's record; none: undefined. */
function recordFilter(
  r: ResolvedSearch,
  covered: ReadonlySet<Covers>
): ((a: AgentKeys) => boolean) | undefined {
  // Left to the record only when the candidates are few (bitsetPlan's budget): decoding an
  // agent's keys costs about a microsecond.
  const k = (v: string | undefined, c: Covers): string | undefined =>
    v === undefined || covered.has(c) ? undefined : v;
  const category = k(r.categoryKey, 'category');
  const tag = k(r.tagKey, 'tag');
  const skillTag = k(r.skillTagKey, 'skillTag');
  const contentMode = k(r.contentMode, 'contentMode');
  const country = k(r.search.country, 'country');
  if (
    category === undefined &&
    tag === undefined &&
    skillTag === undefined &&
    contentMode === undefined &&
    country === undefined
  ) {
    return undefined;
  }
  return (a) =>
    (category === undefined || a.categoryKey === category) &&
    (tag === undefined || a.tagKeys.includes(tag)) &&
    (skillTag === undefined || a.skillTags.includes(skillTag)) &&
    (contentMode === undefined || a.contentModes.includes(contentMode)) &&
    (country === undefined || a.countries.includes(country));
}

/** Above this many matches, OR queries are ranked from the postings rather than agent by agent. */
const RANK_FROM_POSTINGS = 48;

/**
 * ts_rank(tsv, tq) + ts_rank(tsv, tx) in float4 for every match, numbered as the matches are
 * (a scratch array, valid until the next search). `matches` is sorted here when it is not in slot
 * order. matchBits and matchesBelow: the matches as a bitset and its prefix counts, when the
 * candidate walk left them.
 */
function rank(
  model: DirectoryModel,
  matches: Int32Array,
  tq: TsQuery,
  tx: TsQuery,
  matchBits: Uint32Array | undefined,
  matchesBelow: Int32Array | undefined
): Float64Array {
  const m = matches.length;
  const pq = rankPlanOf(tq);
  const px = rankPlanOf(tx);
  // Each rank is a float4 (Math.fround), kept in a double: the page's choice then reads the same
  // kind of array as for the other orders' keys (a key read of one kind only is a fast one).
  const out = rankScratch(m);
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
  if (bitsetSearch) {
    let bits = matchBits;
    let below = matchesBelow;
    if (bits === undefined || below === undefined) {
      const words = wordsFor(model.slotSpan);
      bits = scratchBits(RANK_SCRATCH, words);
      bits.fill(0, 0, words);
      orSlots(bits, matches);
      below = scratchCounts(words);
      countsBelow(matches, below);
    }
    const matched = bits;
    const counts = below;
    // A posting many times longer than the matches is galloped through from match to match.
    const gallopAbove = m * GALLOP_RATIO;
    add = (id, sums, also) =>
      lexemes.size(id) > gallopAbove
        ? lexemes.addSharesAt(id, matches, sums, also)
        : lexemes.addSharesIn(id, matched, counts, sums, also);
  } else {
    const stamp = model.nextStamp();
    const { marked } = model.cols;
    const at = walkNumbers(model.slotSpan);
    for (let i = 0; i < m; i++) {
      const slot = matches[i] as number;
      marked[slot] = stamp;
      at[slot] = i;
    }
    add = (id, sums, also) => lexemes.addShares(id, stamp, marked, at, sums, also);
  }
  const sumA = scratchFloats(SUM_A, m);
  const sumB = scratchFloats(SUM_B, m);
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

/**
 * Where candidates come from: the required text groups of the query (each match holds one of the
 * group's terms) and the filter indexes, smallest first. Every agent when nothing narrows the
 * search. A text group covers the text query only when it is the whole query (isTermGroup
 * decides); 'tenant' sources are checked again by ordinal anyway.
 */
function candidateSources(model: DirectoryModel, viewer: Viewer, r: ResolvedSearch): Source[] {
  const options: Source[] = [];
  const add = (parts: Part[], covers: Covers) => {
    let size = 0;
    for (const p of parts) size += p.list.length;
    options.push({ parts, size, covers });
  };
  const filter = (index: SlotIndex, value: string, covers: Covers) =>
    add([{ list: index.get(value), bits: index.bitsOf(value) }], covers);
  if (r.tq !== null) {
    for (const group of requiredTermGroups(r.tq)) add(termParts(model, group), 'text');
  }
  if (r.categoryKey !== undefined) filter(model.categories, r.categoryKey, 'category');
  if (r.tagKey !== undefined) filter(model.tags, r.tagKey, 'tag');
  if (r.skillTagKey !== undefined) filter(model.skillTags, r.skillTagKey, 'skillTag');
  if (r.contentMode !== undefined) filter(model.contentModes, r.contentMode, 'contentMode');
  if (r.search.country !== undefined) filter(model.countries, r.search.country, 'country');
  if (r.ownerTenantId !== undefined && r.ownerTenantId !== null) {
    filter(model.byTenant, r.ownerTenantId, 'tenant');
  }
  if (r.search.tenantOnly && viewer.tenantId !== undefined) {
    filter(model.byTenant, viewer.tenantId, 'tenant');
  }
  options.sort((a, b) => a.size - b.size);
  if (options.length === 0) {
    // Every agent (in a list kept between searches: a million slots would be 8 MB of garbage).
    const all = everyList;
    all.reset();
    const ids = model.idBySlot;
    for (let slot = 0; slot < ids.length; slot++) if (ids[slot] !== undefined) all.push(slot);
    const list = all.view();
    return [{ parts: [{ list, bits: undefined }], size: list.length, covers: 'tenant' }];
  }
  return options;
}

/** How a search finds its candidates, and which filters that already guarantees. */
interface Plan {
  readonly covered: ReadonlySet<Covers>;
  /**
   * The bitsets whose intersection is the candidates (two or three, each `words` long or longer),
   * or undefined: walk `driver`.
   */
  readonly dense: readonly [Uint32Array, Uint32Array, Uint32Array?] | undefined;
  readonly words: number;
  readonly driver: Source;
  /** Per source a walked candidate must be in: bitsets of which it must be in one. */
  readonly tests: ReadonlyArray<readonly Uint32Array[]>;
  /** True when a walked candidate must also carry the stamp in `marked`. */
  readonly marking: boolean;
}

/**
 * Without bitsets: walk the smallest source, and mark the slots of the next smallest so a
 * candidate outside it is skipped before any other check (what a GIN index's intersection does).
 * Marking costs a write per listed slot: worth it only when it can rule out many candidates.
 */
function walkPlan(options: readonly Source[], marked: Uint32Array, stamp: number): Plan {
  const [first, second] = options as [Source, Source | undefined];
  const narrower = second !== undefined && second.size <= first.size * 16 ? second : undefined;
  if (narrower !== undefined) {
    for (const { list } of narrower.parts) {
      for (let i = 0; i < list.length; i++) marked[list[i] as number] = stamp;
    }
  }
  return {
    covered: new Set([first.covers, narrower?.covers ?? first.covers]),
    dense: undefined,
    words: 0,
    driver: first,
    tests: [],
    marking: narrower !== undefined,
  };
}

/** The matches of the search running (searchModel never yields: one list serves every search). */
const matchList = new SlotList();
/** Every agent's slot, for a search that nothing narrows (candidateSources). */
const everyList = new SlotList();

/** Scratch float arrays by use, as long as the matches (kept between searches, like the lists). */
const SUM_A = 0;
const SUM_B = 1;
const floats: Float32Array[] = [];
let ranks = new Float64Array(0);

function rankScratch(length: number): Float64Array {
  if (ranks.length < length) ranks = new Float64Array(length + (length >>> 3) + 1024);
  return ranks;
}

function scratchFloats(k: number, length: number): Float32Array {
  let a = floats[k];
  if (a === undefined || a.length < length) {
    a = new Float32Array(length + (length >>> 3) + 1024);
    floats[k] = a;
  }
  return a;
}

let counts = new Int32Array(1024);

/** Per-word prefix counts of a bitset of `words` words (the matches' numbers, rank()). */
function scratchCounts(words: number): Int32Array {
  if (counts.length < words) counts = new Int32Array(words + (words >>> 3));
  return counts;
}

let numbers = new Int32Array(0);

/** 0, 1, ... length - 1: the match numbers the page is chosen among (firstN may sort them). */
function matchNumbers(length: number): Int32Array {
  if (numbers.length < length) numbers = new Int32Array(length + (length >>> 3) + 1024);
  const out = numbers.subarray(0, length);
  for (let i = 0; i < length; i++) out[i] = i;
  return out;
}

let walkAt = new Uint32Array(0);

/** A match number by slot, for ranking without bitsets (the bench's comparison only). */
function walkNumbers(span: number): Uint32Array {
  if (walkAt.length < span) walkAt = new Uint32Array(span + (span >>> 3));
  return walkAt;
}

/** The scratch bitsets a search uses, by number: ranking's (when the walk left none). */
const RANK_SCRATCH = 0;
/** The viewer's own agents (ownBits). */
const OWN_SCRATCH = 1;
/** Where a dense search leaves its matches (for rank). */
const DENSE_SCRATCH = 2;
/** bitsetPlan's unions, from this number up (as many as the search has sources). */
const PLAN_SCRATCH = 3;

/** What making a source's bitset costs, in about the units of walking a listed slot. */
function bitsCost(source: Source, words: number): number {
  if (source.parts.length === 1 && source.parts[0]?.bits !== undefined) return 0;
  let cost = words >>> 3;
  for (const p of source.parts) cost += p.bits !== undefined ? words >>> 2 : p.list.length;
  return cost;
}

/** The source as a bitset of `words` words or more: its own, or a union built in scratch k. */
function bitsFor(source: Source, words: number, k: number): Uint32Array {
  const [only] = source.parts;
  if (source.parts.length === 1 && only?.bits !== undefined) return only.bits;
  const out = scratchBits(k, words);
  out.fill(0, 0, words);
  for (const { list, bits } of source.parts) {
    if (bits !== undefined) {
      const n = Math.min(words, bits.length);
      for (let w = 0; w < n; w++) out[w] = (out[w] as number) | (bits[w] as number);
    } else {
      orSlots(out, list);
    }
  }
  return out;
}

/**
 * With bitsets: each further source whose bitset is cheap enough (its own, or a union of a few
 * lexemes' bitsets) is intersected with the smallest one, so every candidate is in all of them
 * and they all count as checked. When the smallest source is itself large, the intersection is
 * taken a word (32 slots) at a time and its bits are the candidates; otherwise its slots are
 * walked and tested against the other bitsets.
 */
function bitsetPlan(model: DirectoryModel, options: readonly Source[]): Plan {
  const words = wordsFor(model.slotSpan);
  const driver = options[0] as Source;
  // Left out, a filter is checked on each candidate's record, and a text group by matching the
  // candidate's vector: a few times, and some hundred times, the cost of a listed slot.
  const budget = (o: Source): number => driver.size * (o.covers === 'text' ? 256 : 16);
  const covered = new Set<Covers>([driver.covers]);
  const dense =
    options.length > 1 && driver.size * 2 >= words && bitsCost(driver, words) <= driver.size * 16;
  /** Per source a candidate must be in: bitsets of which it must be in one. */
  const tests: Uint32Array[][] = [];
  let built = PLAN_SCRATCH;
  for (let i = 1; i < options.length; i++) {
    const o = options[i] as Source;
    const cost = bitsCost(o, words);
    if (!dense && cost > 0 && o.parts.every((p) => p.bits !== undefined)) {
      // A few candidates tested against each part's own bitset cost less than the union.
      const tested = driver.size * o.parts.length;
      if (tested < cost && tested <= budget(o)) {
        tests.push(o.parts.map((p) => p.bits as Uint32Array));
        covered.add(o.covers);
        continue;
      }
    }
    if (cost > budget(o)) continue;
    tests.push([bitsFor(o, words, ++built)]);
    covered.add(o.covers);
  }
  if (!dense || tests.length === 0) {
    return { covered, dense: undefined, words, driver, tests, marking: false };
  }
  const parts = [
    bitsFor(driver, words, PLAN_SCRATCH),
    ...tests.map(([bits]) => bits as Uint32Array),
  ];
  let n = words;
  for (const p of parts) n = Math.min(n, p.length);
  if (parts.length > 3) {
    // More than three (rare): the rest intersected ahead, so the listing's pass reads three.
    const rest = scratchBits(++built, n);
    rest.set((parts[2] as Uint32Array).subarray(0, n));
    for (const p of parts.slice(3)) {
      for (let w = 0; w < n; w++) rest[w] = (rest[w] as number) & (p[w] as number);
    }
    parts.length = 2;
    parts.push(rest);
  }
  const [p0, p1, p2] = parts as [Uint32Array, Uint32Array, Uint32Array | undefined];
  return {
    covered,
    dense: p2 === undefined ? [p0, p1] : [p0, p1, p2],
    words: n,
    driver,
    tests,
    marking: false,
  };
}

/** True for a query that is terms joined by `|` only, none of them weight-restricted. */
function isTermGroup(q: TsQuery): boolean {
  if (q.kind === 'term') return q.weightMask === 0;
  return q.kind === 'or' && isTermGroup(q.left) && isTermGroup(q.right);
}

/** The slots holding any of the terms (a prefix term: any lexeme that starts with it). */
function termParts(model: DirectoryModel, group: readonly QueryTerm[]): Part[] {
  const parts: Part[] = [];
  const lexemes = model.lexemes;
  for (const term of group) {
    if (!term.prefix) {
      const id = model.lexemeId(term.lexeme);
      if (id !== undefined) parts.push({ list: lexemes.slotsOf(id), bits: lexemes.bitsOf(id) });
      continue;
    }
    const order = model.lexemeOrder;
    const ids = order.ids();
    const texts = model.tsvs.lexemeTexts;
    for (let i = order.lowerBound(term.lexeme); i < ids.length; i++) {
      const id = ids[i] as number;
      if (!(texts[id] as string).startsWith(term.lexeme)) break;
      if (lexemes.size(id) > 0) parts.push({ list: lexemes.slotsOf(id), bits: lexemes.bitsOf(id) });
    }
  }
  return parts;
}

/**
 * Whether searches use bitsets (candidates, ranking) and the top's floor; off: the walk they
 * replaced, which gives the same answers (the synthetic bench times and compares the two).
 */
let bitsetSearch = true;

export function setBitsetSearch(on: boolean): void {
  bitsetSearch = on;
}
