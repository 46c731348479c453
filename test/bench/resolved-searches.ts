// The bench's searches (directory-search-queries.ts) as the model receives them: words expanded
// and filter values folded by the given database, as LiveDirectory has them done per request.
import type { ResolvedSearch } from '../../actors/directory/model-search.js';
import { parseTsQuery } from '../../actors/directory/text-search.js';
import { parseSearch } from '../../gateway/discover/params.js';
import { expandQuery, foldValues, type Db } from '../../infra/db/index.js';
import { searchQuery } from './directory-search-queries.js';

/** The i-th bench search resolved, with the time PostgreSQL's typo expansion took (ms). */
export async function resolveSearch(
  sql: Db,
  i: number
): Promise<{ resolved: ResolvedSearch; expansionMs: number }> {
  const { search } = parseSearch(searchQuery(i));
  const e0 = performance.now();
  const read = await expandQuery(sql, search.words);
  const expansionMs = performance.now() - e0;
  const values = [search.category, search.tag, search.skillTag, search.contentMode];
  const folded = new Map(
    (
      await foldValues(
        sql,
        values.filter((v) => v !== undefined)
      )
    ).map((r) => [r.value, r])
  );
  const key = (v: string | undefined) => (v === undefined ? undefined : folded.get(v));
  const resolved: ResolvedSearch = {
    search,
    tq: read.tq === null ? null : parseTsQuery(read.tq),
    tx: read.tx === null ? null : parseTsQuery(read.tx),
    categoryKey: key(search.category)?.folded,
    tagKey: key(search.tag)?.folded,
    skillTagKey: key(search.skillTag)?.folded,
    contentMode: key(search.contentMode)?.lower,
  };
  return { resolved, expansionMs };
}

export async function resolvedSearches(sql: Db, count: number): Promise<ResolvedSearch[]> {
  const searches: ResolvedSearch[] = [];
  for (let i = 0; i < count; i++) searches.push((await resolveSearch(sql, i)).resolved);
  return searches;
}
