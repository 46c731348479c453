// Reading an upstream page by page, shared by the public-data agents' clients: every upstream
// pages differently (a token, an offset, a page number, the last item's key), but each reads
// until it has `want` items, the upstream says there is no more, or the hub's page bound
// (PUBLIC_DATA_MAX_PAGES) is met, and cites every request it made.
import type { Provenance } from './upstream.js';

/** One page as a client read it. */
export interface PageRead<T> {
  /** What the page held that the client keeps (unreadable rows already left out). */
  items: readonly T[];
  provenance: Provenance;
  /** The upstream has more after this page (and the client can ask for it). */
  more: boolean;
}

export interface Pages<T> {
  /** Every item read, in order; more than `want` when the last page held more. */
  items: T[];
  /** One entry a request, in order. */
  provenance: Provenance[];
}

/**
 * Calls `read` for page 0, 1, … while fewer than `want` items are held, the last page said there
 * is `more`, and fewer than `maxPages` pages were read. `have` is the count held before the page
 * (for a page size of `want - have`). The client keeps its own cursor and total in its closure:
 * they differ by upstream and the caller wants them in its own shape.
 */
export async function readPages<T>(
  want: number,
  maxPages: number,
  read: (page: number, have: number) => Promise<PageRead<T>>
): Promise<Pages<T>> {
  const items: T[] = [];
  const provenance: Provenance[] = [];
  for (let page = 0; page < maxPages && items.length < want; page++) {
    const p = await read(page, items.length);
    provenance.push(p.provenance);
    items.push(...p.items);
    if (!p.more) break;
  }
  return { items, provenance };
}

/** The rows `read` makes sense of, in order: a row it cannot read (undefined) is left out. */
export function readRows<R, T>(rows: readonly R[], read: (row: R) => T | undefined): T[] {
  const out: T[] = [];
  for (const r of rows) {
    const t = read(r);
    if (t !== undefined) out.push(t);
  }
  return out;
}
