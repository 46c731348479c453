// Writing a batch into the entity graph (migration 0020): each node is resolved to an existing one
// by identifier, then by exact normalised name, else created, and a new company is tied to the
// companies whose names are alike (pg_trgm similarity ≥ the threshold) by `same_as` edges that keep
// the score. Every sighting is a mention with its provenance; edges keep theirs.
import type postgres from 'postgres';
import type { Db } from '../../../../infra/db/index.js';
import type { EdgeFact, EntityBatch, Kind, NodeFact } from './batch.js';
import { normName } from './names.js';

type Tx = postgres.TransactionSql;

/** Graph writes are serialized cluster-wide ("entgraph" in ASCII), so two agents seeing a new name
 * at once cannot create it twice; a batch is small (one answer's records). */
export const GRAPH_LOCK_KEY = 0x656e746772617068n;

/** Kinds whose equal normalised names are one entity; titles of trials or patents are not. */
const NAME_KINDS: ReadonlySet<Kind> = new Set(['company', 'person', 'product', 'facility']);
/** Kinds tied to look-alike names by scored same_as edges. */
const FUZZY_KINDS: ReadonlySet<Kind> = new Set(['company']);

export interface WriteResult {
  nodes: number;
  created: number;
  edges: number;
  nameLinks: number;
}

export async function writeBatch(sql: Db, b: EntityBatch, threshold: number): Promise<WriteResult> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${GRAPH_LOCK_KEY.toString()}::bigint)`;
    await tx`select set_config('pg_trgm.similarity_threshold', ${String(threshold)}, true)`;
    const result: WriteResult = { nodes: 0, created: 0, edges: 0, nameLinks: 0 };
    const ids: number[] = [];
    for (const n of b.nodes) {
      const r = await resolve(tx, n);
      ids.push(r.id);
      result.nodes += 1;
      await mention(tx, b.agentId, n, r);
      if (r.matchedBy === 'new') {
        result.created += 1;
        if (FUZZY_KINDS.has(n.kind)) result.nameLinks += await linkAlike(tx, b.agentId, n, r.id);
      }
    }
    for (const e of b.edges) {
      if (await edge(tx, b.agentId, e, ids[e.src]!, ids[e.dst]!, threshold)) result.edges += 1;
    }
    return result;
  });
}

interface Resolved {
  id: number;
  matchedBy: 'new' | 'identifier' | 'name';
  matchKey: string | null;
}

async function resolve(tx: Tx, n: NodeFact): Promise<Resolved> {
  const schemes = Object.keys(n.ids);
  if (schemes.length > 0) {
    const values = schemes.map((s) => n.ids[s]!);
    const found = await tx<Array<{ scheme: string; value: string; nodeId: string }>>`
      select i.scheme, i.value, i.node_id from entity_identifiers i
      join unnest(${tx.array(schemes)}::text[], ${tx.array(values)}::text[]) as k(scheme, value)
        on k.scheme = i.scheme and k.value = i.value
      join entity_nodes n on n.id = i.node_id and n.kind = ${n.kind}
      order by i.node_id limit 1`;
    const hit = found[0];
    if (hit !== undefined) {
      await touch(tx, Number(hit.nodeId), n);
      return {
        id: Number(hit.nodeId),
        matchedBy: 'identifier',
        matchKey: `${hit.scheme}=${hit.value}`,
      };
    }
  }
  if (NAME_KINDS.has(n.kind)) {
    // Never onto a node that holds another value of one of this record's identifier schemes.
    const same = await tx<Array<{ id: string }>>`
      select n.id from entity_nodes n
      where n.kind = ${n.kind} and n.norm_name = ${n.norm}
        and not exists (select 1 from entity_identifiers i
                        where i.node_id = n.id and i.scheme = any(${tx.array(schemes)}::text[]))
      order by n.id limit 1`;
    if (same[0] !== undefined) {
      const id = Number(same[0].id);
      await touch(tx, id, n);
      return { id, matchedBy: 'name', matchKey: n.norm };
    }
  }
  const [row] = await tx<Array<{ id: string }>>`
    insert into entity_nodes (kind, name, norm_name, attrs)
    values (${n.kind}, ${n.name}, ${n.norm}, ${JSON.stringify(n.attrs)}::jsonb)
    returning id`;
  const id = Number(row!.id);
  await addIdentifiers(tx, id, n);
  return { id, matchedBy: 'new', matchKey: null };
}

async function touch(tx: Tx, id: number, n: NodeFact): Promise<void> {
  await tx`
    update entity_nodes set attrs = attrs || ${JSON.stringify(n.attrs)}::jsonb, last_seen = now()
    where id = ${id}`;
  await addIdentifiers(tx, id, n);
}

async function addIdentifiers(tx: Tx, id: number, n: NodeFact): Promise<void> {
  const schemes = Object.keys(n.ids);
  if (schemes.length === 0) return;
  // An identifier already on another node stays there: the first dataset to give it wins.
  await tx`
    insert into entity_identifiers (scheme, value, node_id)
    select scheme, value, ${id} from unnest(${tx.array(schemes)}::text[],
      ${tx.array(schemes.map((s) => n.ids[s]!))}::text[]) as k(scheme, value)
    on conflict (scheme, value) do nothing`;
}

async function mention(tx: Tx, agentId: string, n: NodeFact, r: Resolved): Promise<void> {
  // The first sighting keeps how it was tied to the node; later ones refresh the provenance.
  await tx`
    insert into entity_mentions (node_id, agent_id, dataset, record, name, matched_by, match_key,
      url, fetched_at)
    values (${r.id}, ${agentId}, ${n.origin.dataset}, ${n.record}, ${n.name}, ${r.matchedBy},
      ${r.matchKey}, ${n.origin.url}, ${n.origin.fetchedAt})
    on conflict (node_id, dataset, record, name) do update set
      agent_id = excluded.agent_id, url = excluded.url, fetched_at = excluded.fetched_at,
      recorded_at = now()`;
}

/** same_as edges from a new node to every look-alike of its kind; the count written. */
async function linkAlike(tx: Tx, agentId: string, n: NodeFact, id: number): Promise<number> {
  const alike = await tx<Array<{ id: string; normName: string; score: number }>>`
    select id, norm_name, similarity(norm_name, ${n.norm})::float8 as score from entity_nodes
    where kind = ${n.kind} and id <> ${id} and norm_name % ${n.norm}
    order by score desc, id limit 20`;
  for (const a of alike) {
    const other = Number(a.id);
    // One direction per pair, the older node first, so a pair is one row.
    const [src, dst] = other < id ? [other, id] : [id, other];
    await tx`
      insert into entity_edges (src, dst, relation, dataset, method, score, detail, agent_id,
        record, url, fetched_at)
      values (${src}, ${dst}, 'same_as', ${n.origin.dataset}, 'name', ${a.score},
        ${[a.normName, n.norm].sort().join(' ~ ')}, ${agentId}, ${n.record}, ${n.origin.url},
        ${n.origin.fetchedAt})
      on conflict (src, dst, relation, dataset) do update set
        score = excluded.score, detail = excluded.detail, url = excluded.url,
        fetched_at = excluded.fetched_at, recorded_at = now()`;
  }
  return alike.length;
}

async function edge(
  tx: Tx,
  agentId: string,
  e: EdgeFact,
  src: number,
  dst: number,
  threshold: number
): Promise<boolean> {
  if (src === dst) return false;
  let method = 'record';
  let score: number | null = null;
  let detail: string | null = null;
  if (e.byName !== undefined) {
    const of = normName(e.byName.of);
    const within = normName(e.byName.in);
    const [row] = await tx<Array<{ score: number }>>`
      select word_similarity(${of}, ${within})::float8 as score`;
    score = row!.score;
    if (score < threshold) return false;
    method = 'name';
    detail = `${of} in ${within}`;
  }
  await tx`
    insert into entity_edges (src, dst, relation, dataset, method, score, detail, agent_id, record,
      url, fetched_at)
    values (${src}, ${dst}, ${e.relation}, ${e.origin.dataset}, ${method}, ${score}, ${detail},
      ${agentId}, ${e.record}, ${e.origin.url}, ${e.origin.fetchedAt})
    on conflict (src, dst, relation, dataset) do update set
      method = excluded.method, score = excluded.score, detail = excluded.detail,
      agent_id = excluded.agent_id, record = excluded.record, url = excluded.url,
      fetched_at = excluded.fetched_at, recorded_at = now()`;
  return true;
}
