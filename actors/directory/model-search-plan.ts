// Where a directory search's candidates come from (model-search.ts). Each required text group of
// the query and each filter narrows the search to the slots of an index; the plan picks the
// smallest as the driver and intersects the others that are cheap to test, and says which filters
// the candidates are then guaranteed to pass. With bitsets (slot-bits.ts), a large driver's
// intersection is taken 32 slots at a time and its bits are the candidates ("dense"); without,
// the driver's slots are walked, marked against the next smallest source.
import { type DirectorySearch, type Viewer } from '../../infra/db/index.js';
import { type DirectoryModel, type SlotIndex } from './directory-model.js';
import { requiredTermGroups, type QueryTerm } from './query-terms.js';
import { PLAN_SCRATCH } from './scratch-array.js';
import { orSlots, scratchBits, wordsFor } from './slot-bits.js';
import { SlotList } from './slot-list.js';
import { type TsQuery } from './text-search.js';

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
export type Covers =
  'text' | 'category' | 'tag' | 'skillTag' | 'contentMode' | 'country' | 'tenant';

/** One list of a source, with its bitset when the index keeps one (slot-bits.ts). */
interface Part {
  readonly list: ArrayLike<number>;
  readonly bits: Uint32Array | undefined;
}

/** Slots every match is among: the union of its parts. */
export interface Source {
  readonly parts: readonly Part[];
  readonly size: number;
  readonly covers: Covers;
}

/**
 * Where candidates come from: the required text groups of the query (each match holds one of the
 * group's terms) and the filter indexes, smallest first. Every agent when nothing narrows the
 * search. A text group covers the text query only when it is the whole query (isTermGroup
 * decides); 'tenant' sources are checked again by ordinal anyway.
 */
export function candidateSources(
  model: DirectoryModel,
  viewer: Viewer,
  r: ResolvedSearch
): Source[] {
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
export interface Plan {
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
export function walkPlan(options: readonly Source[], marked: Uint32Array, stamp: number): Plan {
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

/** Every agent's slot, for a search that nothing narrows (candidateSources). */
const everyList = new SlotList();

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
export function bitsetPlan(model: DirectoryModel, options: readonly Source[]): Plan {
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
export function isTermGroup(q: TsQuery): boolean {
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
