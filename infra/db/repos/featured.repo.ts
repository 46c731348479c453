// Featured agents (issue 20 point 3): an operator's mark (`burrow agents feature`), listed by
// GET /api/discover/featured under the same visibility as search: public agents, plus the
// viewer's own tenant's private ones.
import { GENERATION_COLUMN, type AtGeneration } from './discover-search.repo.js';
import {
  DIRECTORY_COLUMNS,
  toDirectoryAgent,
  type DirectoryAgent,
  type DirectoryRow,
  type Viewer,
} from './discover-view.js';
import type { Queryable } from './sql.js';

/** At most this many featured agents are listed: the list is a curated shelf, not a search. */
export const MAX_FEATURED = 50;

/** Mark or unmark a live agent; false when there is no live agent of that id. */
export async function setAgentFeatured(
  sql: Queryable,
  agentId: string,
  featured: boolean
): Promise<boolean> {
  const rows = await sql`
    update agents set featured = ${featured}
    where id = ${agentId} and deleted_at is null
    returning id`;
  return rows.length === 1;
}

/** The featured agents `viewer` may see, best rated first, and the directory generation. */
export async function listFeaturedAt(
  sql: Queryable,
  viewer: Viewer
): Promise<AtGeneration<DirectoryAgent[]>> {
  const rows = await sql.unsafe<Array<Partial<DirectoryRow> & { generation: string }>>(
    `with featured as (
       select ${DIRECTORY_COLUMNS}
       from agents a join tenants t on t.id = a.tenant_id
       where a.featured and a.deleted_at is null
         and (a.visibility = 'public' or a.tenant_id = $1::text)
       order by a.rating_avg desc, a.rating_count desc, a.id
       limit ${MAX_FEATURED})
     select ${GENERATION_COLUMN}, f.*
     from (select 1) one left join featured f on true
     order by f.rating_avg desc, f.rating_count desc, f.id`,
    [viewer.tenantId ?? null],
    { prepare: true }
  );
  return {
    result: rows
      .filter((r) => typeof r.id === 'string')
      .map((r) => toDirectoryAgent(r as DirectoryRow)),
    generation: rows[0]?.generation ?? '0',
  };
}
