// Directory search and categories (interface-spec "Discovery (REST)"): every filter of the spec,
// combinable, over the fields the 0005 migration derives from each agent, read from their narrow
// copy in directory_entries (0013). Relevance is full-text rank; typo tolerance comes from the
// lexicon inside directory_query (see 0005).
import {
  DIRECTORY_COLUMNS,
  toDirectoryAgent,
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
  /** Every agent is free (PRICING) until the hub prices anything: `paid` matches none. */
  pricing?: 'paid';
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

/**
 * A directory answer and the directory generation it was read at (0013 migration): the same
 * generation later means no directory write has committed since, so the answer still holds.
 */
export interface AtGeneration<T> {
  result: T;
  generation: string;
}

/**
 * Per sort: the keys each match carries to the page's top-N sort, and that order. Only these
 * narrow keys are sorted, never whole rows; ties always end on the id, so pages never overlap or
 * skip an agent.
 */
const ORDER: Record<DirectorySort, { keys: string; by: string }> = {
  relevance: {
    keys: 'ts_rank(a.search_tsv, query.tq) + ts_rank(a.search_tsv, query.tx) as rank, a.rating_avg',
    by: 'm.rank desc, m.rating_avg desc, m.id',
  },
  rating: {
    keys: 'a.rating_avg, a.rating_count',
    by: 'm.rating_avg desc, m.rating_count desc, m.id',
  },
  popular: { keys: 'a.usage_count', by: 'm.usage_count desc, m.id' },
  recent: { keys: 'a.created_at', by: 'm.created_at desc, m.id' },
};

/** The generation row, read in the statement's own snapshot. */
export const GENERATION_COLUMN = '(select g.gen from directory_generation g)::text as generation';

/** One page of the agents `viewer` may see that match `s`, and the number of all matches. */
export async function searchAgents(
  sql: Queryable,
  viewer: Viewer,
  s: DirectorySearch
): Promise<DirectoryPage> {
  return (await searchAgentsAt(sql, viewer, s)).result;
}

interface Expansion {
  generation: string;
  /** directory_query(words, true) and (words, false) as text; null when no word is searchable. */
  tq: string | null;
  tx: string | null;
}

/**
 * The tsqueries of recent query words (their typo expansions from the lexicon cost a trigram
 * look-up per word), each with the directory generation it was computed at. The lexicon only
 * changes in a transaction that writes agents, which moves the generation, so the search statement
 * reuses an expansion only when the generation it reads is still that one, and otherwise expands
 * the words afresh.
 */
export class QueryExpansions {
  private readonly entries = new Map<string, Expansion>();

  constructor(private readonly maxEntries: number) {}

  get(words: readonly string[]): Expansion | undefined {
    return this.entries.get(JSON.stringify(words));
  }

  set(words: readonly string[], expansion: Expansion): void {
    const key = JSON.stringify(words);
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(key, expansion);
  }
}

/**
 * searchAgents and the directory generation, in one statement: the matches are collected once
 * (their ids and sort keys only), counted, and only the page's agents are read in full.
 * `expansions` lets the statement skip the lexicon look-ups of words it expanded before.
 */
export async function searchAgentsAt(
  sql: Queryable,
  viewer: Viewer,
  s: DirectorySearch,
  expansions?: QueryExpansions
): Promise<AtGeneration<DirectoryPage>> {
  const params: unknown[] = [];
  const p = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  // directory_entries holds live agents only (0013 migration).
  const where: string[] = [];
  if (s.tenantOnly) {
    where.push(`a.tenant_id = ${p(viewer.tenantId ?? null)}::text`);
  } else if (viewer.tenantId === undefined) {
    // Said plainly, so an anonymous caller's cached plan can rely on it.
    where.push('a.public');
  } else {
    where.push(`(a.public or a.tenant_id = ${p(viewer.tenantId)}::text)`);
  }
  let from = 'directory_entries a';
  let cte = '';
  let queryColumns = 'null::text as tq, null::text as tx';
  if (s.words.length > 0) {
    const words = p(s.words);
    const known = expansions?.get(s.words);
    const current = `${p(known?.generation ?? null)}::bigint = (select g.gen from directory_generation g)`;
    // Materialized: otherwise the planner inlines the call into every row's filter.
    cte = `query as materialized (
      select case when ${current} then ${p(known?.tq ?? null)}::tsquery
                  else directory_query(${words}::text[], true) end as tq,
             case when ${current} then ${p(known?.tx ?? null)}::tsquery
                  else directory_query(${words}::text[], false) end as tx),`;
    from += ', query';
    where.push('a.search_tsv @@ query.tq');
    queryColumns = '(select q.tq::text from query q) as tq, (select q.tx::text from query q) as tx';
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
  // A literal, not a parameter: a cached generic plan would otherwise intersect the index with the
  // posting list of `false` (most agents) instead of checking the rows the other conditions left.
  if (s.verified !== undefined) where.push(`a.tenant_verified = ${s.verified ? 'true' : 'false'}`);
  if (s.country !== undefined) where.push(`a.countries @> array[${p(s.country)}::text]`);
  if (s.pricing === 'paid') where.push('false');
  const order = ORDER[s.sort === 'relevance' && s.words.length === 0 ? 'rating' : s.sort];
  const page =
    (s.limit === undefined ? '' : ` limit ${p(s.limit)}`) +
    (s.offset > 0 ? ` offset ${p(s.offset)}` : '');

  // The count row is always there (left joins), so a page past the end still carries the total.
  const rows = await sql.unsafe<
    Array<
      Partial<DirectoryRow> & {
        total: string;
        generation: string;
        tq: string | null;
        tx: string | null;
      }
    >
  >(
    `with ${cte}
     matches as materialized (
       select a.id, ${order.keys}
       from ${from}
       where ${where.join('\n  and ')}),
     page as (select m.* from matches m order by ${order.by}${page})
     select counted.total, ${GENERATION_COLUMN}, ${queryColumns}, ${DIRECTORY_COLUMNS}
     from (select count(*) as total from matches) counted
       left join page m on true
       left join agents a on a.id = m.id
       left join tenants t on t.id = a.tenant_id
     order by ${order.by}`,
    params as never[],
    { prepare: true }
  );
  const first = rows[0];
  if (first !== undefined && s.words.length > 0) {
    expansions?.set(s.words, { generation: first.generation, tq: first.tq, tx: first.tx });
  }
  return {
    result: {
      agents: rows
        .filter((r) => typeof r.id === 'string')
        .map((r) => toDirectoryAgent(r as DirectoryRow)),
      count: Number(first?.total ?? 0),
    },
    generation: first?.generation ?? '0',
  };
}

export interface DirectoryCategory {
  name: string;
  count: number;
}

/** Categories of the agents `viewer` may see, with how many agents each holds; largest first. */
export async function listCategories(sql: Queryable, viewer: Viewer): Promise<DirectoryCategory[]> {
  return (await listCategoriesAt(sql, viewer)).result;
}

/** listCategories and the directory generation, in one statement. */
export async function listCategoriesAt(
  sql: Queryable,
  viewer: Viewer
): Promise<AtGeneration<DirectoryCategory[]>> {
  const rows = await sql.unsafe<Array<{ name: string | null; count: string; generation: string }>>(
    `with categories as (
       select min(a.category) as name, count(*) as count
       from directory_entries a
       where (a.public or a.tenant_id = $1::text) and a.category_key is not null
       group by a.category_key)
     select c.name, c.count, ${GENERATION_COLUMN}
     from (select 1) one left join categories c on true
     order by c.count desc, c.name`,
    [viewer.tenantId ?? null],
    { prepare: true }
  );
  return {
    result: rows
      .filter((r) => r.name !== null)
      .map((r) => ({ name: r.name as string, count: Number(r.count) })),
    generation: rows[0]?.generation ?? '0',
  };
}

/** The current directory generation (see AtGeneration). */
export async function directoryGeneration(sql: Queryable): Promise<string> {
  const [row] = await sql<Array<{ gen: string }>>`select gen::text from directory_generation`;
  return row?.gen ?? '0';
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
