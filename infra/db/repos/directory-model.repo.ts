// What a node's in-memory directory (actors/directory) is loaded from: the search fields of
// every live agent (directory_entries), what a listing shows of it, its locations, and the
// tenants' names. Read whole at start, then only the agents the generations since changed
// (0014 migration), always in one repeatable-read snapshot so rows and generation agree.
import { CARD_LINKS } from './discover-view.js';
import type { Queryable } from './sql.js';
import { inTransaction } from './sql.js';

export interface DirectoryModelAgentRow {
  id: string;
  tenantId: string;
  public: boolean;
  /** search_tsv as PostgreSQL prints it. */
  tsv: string;
  categoryKey: string | null;
  tagKeys: string[];
  skillTags: string[];
  contentModes: string[];
  tenantVerified: boolean;
  countries: string[];
  ratingAvg: number;
  ratingCount: number;
  usageCount: string;
  /** created_at in microseconds since the epoch, as text (exact; a Date keeps only ms). */
  createdUs: string;
  name: string;
  description: string;
  category: string | null;
  tags: string[];
  featured: boolean;
  websiteUrl: string | null;
  docsUrl: string | null;
}

export interface DirectoryModelLocationRow {
  agentId: string;
  tag: string;
  lat: number;
  lng: number;
  displayName: string;
  country: string;
  position: number;
  /** The stored earth() point (ll_to_earth), so distances are measured from the same numbers. */
  x: number;
  y: number;
  z: number;
}

export interface DirectoryModelTenantRow {
  id: string;
  name: string;
  /** lower(name), as the owner filter compares it. */
  nameLower: string;
  slug: string;
}

export interface DirectoryRead {
  generation: string;
  /** True: the changes are not all recorded, nothing was read (read the whole directory). */
  full: boolean;
  /** Agents to replace (false reads): those without a row below left the directory. */
  changedAgents: string[];
  agents: DirectoryModelAgentRow[];
  locations: DirectoryModelLocationRow[];
  tenants: DirectoryModelTenantRow[];
  /** The database's collation of text: ids sort in byte order only under C. */
  collation: string;
}

/** Above this many recorded changes a whole read is cheaper than the pieces. */
const MAX_CHANGES_READ = 20_000;

const AGENT_COLUMNS = `e.id, e.tenant_id, e.public, e.search_tsv::text as tsv, e.category_key,
  e.tag_keys, e.skill_tags, e.content_modes, e.tenant_verified, e.countries, e.rating_avg,
  e.rating_count, e.usage_count::text as usage_count,
  (extract(epoch from e.created_at) * 1000000)::bigint::text as created_us,
  a.name, a.description, a.category, a.tags, a.featured, ${CARD_LINKS}`;

const LOCATION_COLUMNS = `l.agent_id, l.tag, l.lat, l.lng, l.display_name, l.country, l.position,
  cube_ll_coord(l.pos, 1) as x, cube_ll_coord(l.pos, 2) as y, cube_ll_coord(l.pos, 3) as z`;

/**
 * What changed after generation `since`: with `full` true, the changes are no longer all recorded
 * (or too many to read one by one), and nothing is read; the caller reads the whole directory with
 * readDirectoryChunks instead.
 */
export async function readDirectory(sql: Queryable, since: string): Promise<DirectoryRead> {
  return inTransaction(sql, async (tx) => {
    await tx.unsafe('set transaction isolation level repeatable read, read only');
    const { generation, collation } = await readHead(tx);
    const unchanged = {
      generation,
      full: false,
      changedAgents: [],
      agents: [],
      locations: [],
      tenants: [],
      collation,
    };
    if (since === generation) return unchanged;
    if (BigInt(since) < BigInt(generation)) {
      const [span] = await tx<Array<{ complete: boolean; changes: number }>>`
        select exists(select 1 from directory_changes where gen = ${since}::bigint + 1) as complete,
          (select count(*)::int from directory_changes
            where gen > ${since}::bigint and gen <= ${generation}::bigint) as changes`;
      if (span?.complete === true && span.changes <= MAX_CHANGES_READ) {
        return { ...unchanged, ...(await readChanged(tx, since, generation)) };
      }
    }
    return { ...unchanged, full: true };
  });
}

/** A piece of the whole directory: tenants come first, then agents, then their locations. */
export interface DirectoryChunk {
  tenants: DirectoryModelTenantRow[];
  agents: DirectoryModelAgentRow[];
  locations: DirectoryModelLocationRow[];
}

/**
 * The whole directory as of one snapshot, handed to `onChunk` at most `rows` rows at a time (a
 * cursor: neither the rows nor their parsing are ever all in memory at once); the next chunk is
 * read once the promise `onChunk` returns settles, so the caller paces the read.
 */
export async function readDirectoryChunks(
  sql: Queryable,
  rows: number,
  onChunk: (chunk: DirectoryChunk) => Promise<void>,
  /** Told how many agents the snapshot holds before any is handed over (to size arrays once). */
  onCount?: (agents: number) => void
): Promise<{ generation: string; collation: string }> {
  return inTransaction(sql, async (tx) => {
    await tx.unsafe('set transaction isolation level repeatable read, read only');
    const head = await readHead(tx);
    // Under another collation the caller answers with SQL: nothing more to read.
    if (!BYTE_ORDER_COLLATIONS.has(head.collation)) return head;
    for await (const tenants of tenantRows(tx).cursor(rows)) {
      await onChunk({ tenants, agents: [], locations: [] });
    }
    if (onCount !== undefined) onCount(await entryCount(tx));
    const agentRows = tx.unsafe<DirectoryModelAgentRow[]>(
      `select ${AGENT_COLUMNS} from directory_entries e join agents a on a.id = e.id`
    );
    for await (const agents of agentRows.cursor(rows)) {
      await onChunk({ tenants: [], agents, locations: [] });
    }
    const locationRows = tx.unsafe<DirectoryModelLocationRow[]>(
      `select ${LOCATION_COLUMNS} from agent_locations l where l.live`
    );
    for await (const locations of locationRows.cursor(rows)) {
      await onChunk({ tenants: [], agents: [], locations });
    }
    return head;
  });
}

// Tagged queries are run from these functions, not from the closure over onChunk: postgres.js
// keeps for good the stack of each tagged template's first run (see inTransaction), and with it
// the calling function's closure, here the model being read.
function tenantRows(tx: Queryable) {
  return tx<DirectoryModelTenantRow[]>`
    select id, name, lower(name) as name_lower, slug from tenants`;
}

async function entryCount(tx: Queryable): Promise<number> {
  const [counted] = await tx<Array<{ n: number }>>`
    select count(*)::int as n from directory_entries`;
  return counted?.n ?? 0;
}

/** Collations under which PostgreSQL orders ASCII text by bytes, as the model orders ids. */
export const BYTE_ORDER_COLLATIONS: ReadonlySet<string> = new Set([
  'C',
  'POSIX',
  'C.UTF-8',
  'C.utf8',
]);

async function readHead(tx: Queryable): Promise<{ generation: string; collation: string }> {
  const [head] = await tx<Array<{ gen: string; collation: string }>>`
    select gen::text,
      (select datcollate from pg_database where datname = current_database()) as collation
    from directory_generation`;
  return { generation: head?.gen ?? '0', collation: head?.collation ?? '' };
}

async function readChanged(
  tx: Queryable,
  since: string,
  generation: string
): Promise<Pick<DirectoryRead, 'changedAgents' | 'agents' | 'locations' | 'tenants'>> {
  const changes = await tx<Array<{ kind: string; key: string }>>`
    select distinct kind, key from directory_changes
    where gen > ${since}::bigint and gen <= ${generation}::bigint`;
  const tenantIds = changes.filter((c) => c.kind === 't').map((c) => c.key);
  const ids = new Set(changes.filter((c) => c.kind === 'a').map((c) => c.key));
  if (tenantIds.length > 0) {
    // A tenant's name or verified flag is shown with, and filters, every agent of it.
    const members = await tx<Array<{ id: string }>>`
      select id from agents where tenant_id = any(${tx.array(tenantIds)}::text[])`;
    for (const m of members) ids.add(m.id);
  }
  const changedAgents = [...ids];
  const list = tx.array(changedAgents);
  const agents = await tx.unsafe<DirectoryModelAgentRow[]>(
    `select ${AGENT_COLUMNS} from directory_entries e join agents a on a.id = e.id
     where e.id = any($1::text[])`,
    [list] as never[]
  );
  const locations = await tx.unsafe<DirectoryModelLocationRow[]>(
    `select ${LOCATION_COLUMNS} from agent_locations l where l.live and l.agent_id = any($1::text[])`,
    [list] as never[]
  );
  const tenants = await tx<DirectoryModelTenantRow[]>`
    select id, name, lower(name) as name_lower, slug from tenants
    where id = any(${tx.array(tenantIds)}::text[])
      or id in (select tenant_id from agents where id = any(${list}::text[]))`;
  return { changedAgents, agents, locations, tenants };
}

/** Forget recorded changes older than the newest `keep` generations (nodes behind reload whole). */
export async function pruneDirectoryChanges(sql: Queryable, keep: number): Promise<number> {
  const [row] = await sql<Array<{ n: number }>>`
    with gone as (
      delete from directory_changes
      where gen < (select gen from directory_generation) - ${keep}::bigint
      returning 1)
    select count(*)::int as n from gone`;
  return row?.n ?? 0;
}

/** burrow_fold() and lower() of each value, as the directory's SQL applies them to parameters. */
export async function foldValues(
  sql: Queryable,
  values: readonly string[]
): Promise<Array<{ value: string; folded: string; lower: string }>> {
  return sql<Array<{ value: string; folded: string; lower: string }>>`
    select v as value, burrow_fold(v) as folded, lower(v) as lower
    from unnest(${sql.array([...values])}::text[]) v`;
}

/** directory_query(words, true|false) as text (null: no searchable word). */
export async function expandQuery(
  sql: Queryable,
  words: readonly string[]
): Promise<{ tq: string | null; tx: string | null; generation: string }> {
  const [row] = await sql<Array<{ tq: string | null; tx: string | null; generation: string }>>`
    select directory_query(${sql.array([...words])}::text[], true)::text as tq,
      directory_query(${sql.array([...words])}::text[], false)::text as tx,
      (select gen::text from directory_generation) as generation`;
  return row ?? { tq: null, tx: null, generation: '0' };
}
