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
  type Viewer,
} from '../../infra/db/index.js';
import { type AgentKeys, type DirectoryModel, type ModelTenant } from './directory-model.js';
import {
  bitsetPlan,
  candidateSources,
  isTermGroup,
  walkPlan,
  type Covers,
  type ResolvedSearch,
} from './model-search-plan.js';
import { rank } from './model-rank.js';
import { DENSE_SCRATCH, OWN_SCRATCH, ScratchArray } from './scratch-array.js';
import { orSlots, scratchBits, wordsFor } from './slot-bits.js';
import { PUBLIC, VERIFIED } from './slot-columns.js';
import { SlotList } from './slot-list.js';
import { firstN, ORDER_KEYS, ORDERS, relevanceBefore, relevanceKeys } from './search-order.js';
import { tsMatch } from './text-search.js';

export type { ResolvedSearch } from './model-search-plan.js';

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
    const below = acceptAll ? denseCounts.of(plan.words) : undefined;
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
    const scores = rank(model, matches, r.tq, r.tx, matchBits, matchesBelow, bitsetSearch);
    const before = relevanceBefore(model, matches, scores);
    const keys = bitsetSearch ? relevanceKeys(cols, matches, scores) : undefined;
    const numbers = firstN(matchNumbers(matches.length), end, before, keys);
    page = numbers.slice(s.offset, end).map((i) => matches[i] as number);
  } else {
    const order = s.sort === 'relevance' ? 'rating' : s.sort;
    const before = ORDERS[order](model, cols);
    const keys = bitsetSearch ? ORDER_KEYS[order](cols) : undefined;
    page = firstN(matches, end, before, keys).slice(s.offset, end);
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

/** The matches of the search running (searchModel never yields: one list serves every search). */
const matchList = new SlotList();
/** Per word of a dense search's match bitset, the matches before it (rank's match numbers). */
const denseCounts = new ScratchArray((n) => new Int32Array(n));
/** 0, 1, ... m - 1: the match numbers a ranked page is chosen among (firstN may sort them). */
const numberList = new ScratchArray((n) => new Int32Array(n));

function matchNumbers(length: number): Int32Array {
  const out = numberList.of(length).subarray(0, length);
  for (let i = 0; i < length; i++) out[i] = i;
  return out;
}

/**
 * Whether searches use bitsets (candidates, ranking) and the top's floor; off: the walk they
 * replaced, which gives the same answers (the synthetic bench times and compares the two).
 */
let bitsetSearch = true;

export function setBitsetSearch(on: boolean): void {
  bitsetSearch = on;
}
