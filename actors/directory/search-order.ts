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

/** Each order's first key, by slot: a slot whose key is below another's sorts after it. */
export const FIRST_KEYS: Record<ColumnOrder, (c: SlotColumns) => ArrayLike<number>> = {
  rating: (c) => c.rating,
  popular: (c) => c.usage,
  recent: (c) => c.created,
};

/**
 * The first `n` of `slots` in order: a bounded insertion when n is small, else a full sort.
 * `key`, when given, is the order's first key (descending), indexed like `before`'s arguments: a
 * slot whose key is below the last kept one's is passed over without a comparison, which is most
 * of them in a long list. (`slots` may be any numbers `before` and `key` are indexed by.)
 */
export function firstN(
  slots: Int32Array,
  n: number,
  before: Before,
  key?: ArrayLike<number>
): number[] {
  if (n >= slots.length || n > 256) {
    slots.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
    return Array.from(slots.subarray(0, n));
  }
  const top: number[] = [];
  let floor = -Infinity;
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i] as number;
    if (key !== undefined && (key[slot] as number) < floor) continue;
    if (top.length === n && !before(slot, top[n - 1] as number)) continue;
    let at = top.length;
    while (at > 0 && before(slot, top[at - 1] as number)) at--;
    top.splice(at, 0, slot);
    if (top.length > n) top.pop();
    if (key !== undefined && top.length === n) floor = key[top[n - 1] as number] as number;
  }
  return top;
}
