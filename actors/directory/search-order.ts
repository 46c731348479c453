// The orders a directory search sorts its matches in (the SQL's ORDER BY, ties by id), and picking
// a page's first slots from thousands of matches without sorting them all.
import type { DirectorySearch } from '../../infra/db/index.js';
import type { DirectoryModel } from './directory-model.js';
import type { SlotColumns } from './slot-columns.js';

/** True when slot a sorts before slot b. */
export type Before = (a: number, b: number) => boolean;

/** Ids in byte order, as PostgreSQL sorts text under the C collation (checked at load). */
const idBefore = (model: DirectoryModel, a: number, b: number): boolean => model.idBefore(a, b);

/** The orders of columns the model holds; relevance is ranked per search (RELEVANCE_TIES). */
type ColumnOrder = Exclude<DirectorySearch['sort'], 'relevance'>;

export const ORDERS: Record<ColumnOrder, (m: DirectoryModel, c: SlotColumns) => Before> = {
  rating:
    (m, { rating, ratingCount }) =>
    (a, b) =>
      rating[a] !== rating[b]
        ? (rating[a] as number) > (rating[b] as number)
        : ratingCount[a] !== ratingCount[b]
          ? (ratingCount[a] as number) > (ratingCount[b] as number)
          : idBefore(m, a, b),
  popular:
    (m, { usage }) =>
    (a, b) =>
      usage[a] !== usage[b] ? (usage[a] as number) > (usage[b] as number) : idBefore(m, a, b),
  recent:
    (m, { created }) =>
    (a, b) =>
      created[a] !== created[b]
        ? (created[a] as number) > (created[b] as number)
        : idBefore(m, a, b),
};

/** Relevance's order between two equal ranks: rating, then id (the SQL's `rating_avg desc, id`). */
export const RELEVANCE_TIES =
  (m: DirectoryModel, { rating }: SlotColumns): Before =>
  (a, b) =>
    rating[a] !== rating[b] ? (rating[a] as number) > (rating[b] as number) : idBefore(m, a, b);

/** Relevance's order of match numbers: rank (`scores`) descending, then RELEVANCE_TIES. */
export function relevanceBefore(
  model: DirectoryModel,
  matches: Int32Array,
  scores: Float64Array
): Before {
  const ties = RELEVANCE_TIES(model, model.cols);
  return (i, j) =>
    scores[i] !== scores[j]
      ? (scores[i] as number) > (scores[j] as number)
      : ties(matches[i] as number, matches[j] as number);
}

/**
 * An order's keys, for passing over entries that cannot enter a page: `first` is the order's
 * first key (descending), `second` the next one where the order has one (descending), then the
 * place in id order (ascending; 0: not placed yet, compared by id string instead). `first` is
 * indexed by the entry; the others by its slot, `slotOf[entry]` when the entries are match
 * numbers (relevance), else the entry itself.
 */
export interface OrderKeys {
  first: ArrayLike<number>;
  second?: ArrayLike<number>;
  idOrder: ArrayLike<number>;
  slotOf?: Int32Array;
}

export const ORDER_KEYS: Record<ColumnOrder, (c: SlotColumns) => OrderKeys> = {
  rating: (c) => ({ first: c.rating, second: c.ratingCount, idOrder: c.idOrder }),
  popular: (c) => ({ first: c.usage, idOrder: c.idOrder }),
  recent: (c) => ({ first: c.created, idOrder: c.idOrder }),
};

/** Relevance's keys over match numbers: rank (`scores`), then rating, then id (RELEVANCE_TIES). */
export const relevanceKeys = (
  { rating, idOrder }: SlotColumns,
  matches: Int32Array,
  scores: Float64Array
): OrderKeys => ({ first: scores, second: rating, idOrder, slotOf: matches });

/**
 * The first `n` of `slots` in order: a bounded insertion when n is small, else a full sort.
 * `keys`, when given, are the order's keys (ORDER_KEYS), indexed like `before`'s arguments: the
 * last kept slot's keys are kept beside it, and a slot they show sorts after it is passed over
 * without a comparison, which is most of them in a long list, also when most tie on the first key
 * (a young directory's ratings are all 0, so most matches tie on rank and rating). (`slots` may be
 * any numbers `before` and the keys are indexed by: slots, or match numbers.)
 */
export function firstN(slots: Int32Array, n: number, before: Before, keys?: OrderKeys): number[] {
  if (n >= slots.length || n > 256) {
    slots.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
    return Array.from(slots.subarray(0, n));
  }
  const top: number[] = [];
  const first = keys?.first;
  const second = keys?.second;
  const idOrder = keys?.idOrder;
  const slotOf = keys?.slotOf;
  let floor = -Infinity;
  let floorSecond = 0;
  /** The last entry's place in id order; 0: not placed yet (idBefore then reads the ids). */
  let floorOrder = 0;
  for (let i = 0; i < slots.length; i++) {
    const entry = slots[i] as number;
    if (first !== undefined) {
      const k = first[entry] as number;
      if (k < floor) continue;
      if (k === floor) {
        const slot = slotOf === undefined ? entry : (slotOf[entry] as number);
        const k2 = second === undefined ? 0 : (second[slot] as number);
        if (k2 < floorSecond) continue;
        if (k2 === floorSecond && floorOrder !== 0 && (idOrder![slot] as number) > floorOrder) {
          continue;
        }
      }
    }
    if (top.length === n && !before(entry, top[n - 1] as number)) continue;
    let at = top.length;
    while (at > 0 && before(entry, top[at - 1] as number)) at--;
    top.splice(at, 0, entry);
    if (top.length > n) top.pop();
    if (first !== undefined && top.length === n) {
      const last = top[n - 1] as number;
      const slot = slotOf === undefined ? last : (slotOf[last] as number);
      floor = first[last] as number;
      floorSecond = second === undefined ? 0 : (second[slot] as number);
      floorOrder = idOrder![slot] as number;
    }
  }
  return top;
}
