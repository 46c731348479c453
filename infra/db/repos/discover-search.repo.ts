// Directory search and categories (interface-spec "Discovery (REST)"): every filter of the spec,
// combinable, over the fields the 0005 migration derives from each agent. Relevance is full-text
// rank; typo tolerance comes from the lexicon inside directory_query (see the migration).
import {
  toDirectoryAgent,
  visibleFor,
  visibleTo,
  type DirectoryAgent,
  type DirectoryRow,
  type Viewer,
} from './discover-view.js';
import { inTransaction, type Queryable } from './sql.js';

export const DirectorySorts = ['relevance', 'rating', 'popular', 'recent'] as const;
export type DirectorySort = (typeof DirectorySorts)[number];

export interface DirectorySearch {
  /** Query words (already split on anything but letters and digits); empty means no text query. */
  words: readonly string[];
  category?: string;
  tag?: string;
  skillTag?: string;
  /** A media type (`image/png`) or a family (`image/*`). */
  contentMode?: string;
  /** Tenant (organization) name or slug. */
  owner?: string;
  verified?: boolean;
  /** ISO 3166-1 alpha-2, upper case. */
  country?: string;
  sort: DirectorySort;
  /** Every agent of the viewer's tenant (public and private) and nothing else. */
  tenantOnly: boolean;
  /** Undefined: no limit (scope=tenant). */
  limit: number | undefined;
  offset: number;
}

export interface DirectoryPage {
  agents: DirectoryAgent[];
  /** All matches, not only this page. */
  count: number;
}

// Ties always end on the id, so pages never overlap or skip an agent.
const ORDER: Record<DirectorySort, string> = {
  relevance:
    '(ts_rank(a.search_tsv, query.tq) + ts_rank(a.search_tsv, query.tx)) desc, ' +
    'a.rating_avg desc, a.id',
  rating: 'a.rating_avg desc, a.rating_count desc, a.id',
  popular: 'a.usage_count desc, a.id',
  recent: 'a.created_at desc, a.id',
};

/** One page of the agents `viewer` may see that match `s`, and the number of all matches. */
export async function searchAgents(
  sql: Queryable,
  viewer: Viewer,
  s: DirectorySearch
): Promise<DirectoryPage> {
  const params: unknown[] = [];
  const p = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const where: string[] = [];
  if (s.tenantOnly) {
    where.push(`a.deleted_at is null and a.tenant_id = ${p(viewer.tenantId ?? null)}::text`);
  } else if (viewer.tenantId === undefined) {
    where.push(visibleFor(viewer, 0));
  } else {
    params.push(viewer.tenantId);
    where.push(visibleTo(params.length));
  }
  let from = 'agents a';
  let cte = '';
  if (s.words.length > 0) {
    const words = p(s.words);
    // Materialized: otherwise the planner inlines the call into every row's filter.
    cte = `query as materialized (
      select directory_query(${words}::text[], true) as tq,
             directory_query(${words}::text[], false) as tx),`;
    from += ', query';
    where.push('a.search_tsv @@ query.tq');
  }
  if (s.category !== undefined) where.push(`a.category_key = burrow_fold(${p(s.category)})`);
  if (s.tag !== undefined) where.push(`a.tag_keys @> array[burrow_fold(${p(s.tag)})]`);
  if (s.skillTag !== undefined) {
    where.push(`a.skill_tags @> array[burrow_fold(${p(s.skillTag)})]`);
  }
  if (s.contentMode !== undefined) {
    where.push(`a.content_modes @> array[lower(${p(s.contentMode)})]`);
  }
  if (s.owner !== undefined) {
    // One tenant (names and slugs are unique), as a value the directory index can use.
    const owner = p(s.owner);
    where.push(`a.tenant_id = (select o.id from tenants o
      where lower(o.name) = lower(${owner}) or o.slug = lower(${owner})
      order by (lower(o.name) = lower(${owner})) desc limit 1)`);
  }
  if (s.verified !== undefined) where.push(`a.tenant_verified = ${p(s.verified)}`);
  if (s.country !== undefined) where.push(`a.countries @> array[${p(s.country)}::text]`);
  const sort = s.sort === 'relevance' && s.words.length === 0 ? 'rating' : s.sort;
  const filter = where.join('\n  and ');
  const page =
    (s.limit === undefined ? '' : ` limit ${p(s.limit)}`) +
    (s.offset > 0 ? ` offset ${p(s.offset)}` : '');

  // The tenant's name is joined to the page only, not to every match.
  const rows = await sql.unsafe<Array<DirectoryRow & { total: string }>>(
    `with ${cte} page as (
       select a.id, a.tenant_id, a.name, a.description, a.category, a.tags, a.rating_avg,
         a.rating_count, count(*) over () as total,
         row_number() over (order by ${ORDER[sort]}) as n
       from ${from}
       where ${filter}
       order by ${ORDER[sort]}${page})
     select page.*, t.name as tenant_name
     from page join tenants t on t.id = page.tenant_id
     order by page.n`,
    params as never[],
    { prepare: true }
  );
  const first = rows[0];
  if (first !== undefined || s.offset === 0) {
    return { agents: rows.map(toDirectoryAgent), count: Number(first?.total ?? 0) };
  }
  // A page past the end has no row to carry the total: count on its own.
  const [counted] = await sql.unsafe<Array<{ total: string }>>(
    `${cte === '' ? '' : `with ${cte.replace(/,\s*$/, '')}`}
     select count(*) as total from ${from} where ${filter}`,
    params.slice(0, params.length - (s.limit === undefined ? 1 : 2)) as never[],
    { prepare: true }
  );
  return { agents: [], count: Number(counted?.total ?? 0) };
}

export interface DirectoryCategory {
  name: string;
  count: number;
}

/** Categories of the agents `viewer` may see, with how many agents each holds; largest first. */
export async function listCategories(sql: Queryable, viewer: Viewer): Promise<DirectoryCategory[]> {
  const rows = await sql.unsafe<Array<{ name: string; count: string }>>(
    `select min(a.category) as name, count(*) as count
     from agents a
     where ${visibleTo(1)} and a.category_key is not null
     group by a.category_key
     order by count(*) desc, min(a.category)`,
    [viewer.tenantId ?? null],
    { prepare: true }
  );
  return rows.map((r) => ({ name: r.name, count: Number(r.count) }));
}

/** Serializes usage recounts across nodes ("burrow-u" in ASCII). */
export const USAGE_REFRESH_LOCK_KEY = 0x627572726f772d75n;

/**
 * Recount agents.usage_count (tasks received, from the tasks table) unless another node did within
 * `maxAgeMs` or is doing it now. Resolves true if this call recounted. Only changed rows are
 * written, so a quiet directory costs one aggregate over the tasks index.
 */
export async function refreshAgentUsage(sql: Queryable, maxAgeMs: number): Promise<boolean> {
  return inTransaction(sql, async (tx) => {
    const [state] = await tx<Array<{ locked: boolean; fresh: boolean }>>`
      select pg_try_advisory_xact_lock(${USAGE_REFRESH_LOCK_KEY.toString()}::bigint) as locked,
        (select refreshed_at from agent_usage_refresh)
          > now() - make_interval(secs => ${maxAgeMs / 1000}) as fresh`;
    if (!state?.locked || state.fresh) return false;
    await tx`
      with counts as (
        select recipient_id as id, count(*) as n from tasks group by recipient_id
      ), changed as (
        select a.id, coalesce(c.n, 0) as n
        from agents a left join counts c on c.id = a.id
        where a.usage_count <> coalesce(c.n, 0)
      )
      update agents a set usage_count = changed.n from changed where a.id = changed.id`;
    await tx`update agent_usage_refresh set refreshed_at = now()`;
    return true;
  });
}
