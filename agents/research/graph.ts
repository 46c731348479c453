// Reading the shared entity graph (migration 0020; written through kit/public-data/entities):
// finding entities by identifier or name, a company's same_as cluster, where each node was seen,
// its relations, and what lies within two links of it.
import type { Db } from '../../infra/db/index.js';
import { SCHEMES, normIdentifier, normName, type Kind } from '../kit/public-data/index.js';

export interface GraphNode {
  id: number;
  kind: Kind;
  name: string;
  normName: string;
  attrs: Record<string, unknown>;
  ids: Record<string, string>;
}

export interface Found extends GraphNode {
  score: number;
  /** How the request found it: an identifier (`nct=NCT…`) or the name. */
  how: string;
}

export interface Mention {
  nodeId: number;
  agentId: string;
  dataset: string;
  record: string;
  name: string;
  matchedBy: 'new' | 'identifier' | 'name';
  matchKey: string | null;
  url: string;
  fetchedAt: Date;
}

export interface Edge {
  src: number;
  dst: number;
  relation: string;
  dataset: string;
  method: 'record' | 'identifier' | 'name';
  score: number | null;
  detail: string | null;
  agentId: string;
  record: string;
  url: string;
  fetchedAt: Date;
}

const NODE_COLUMNS = 'n.id::int8 as id, n.kind, n.name, n.norm_name, n.attrs';

type Row = Omit<GraphNode, 'id' | 'ids'> & { id: string; ids: Record<string, string> | null };

function node(r: Row): GraphNode {
  return { ...r, id: Number(r.id), ids: r.ids ?? {} };
}

/**
 * Entities the text names: by identifier when it is one (an NCT id, a CIK…), else by name: equal
 * normalised names, trigram similarity or the text found as words of the name, at or above
 * `threshold`, best first.
 */
export async function findEntities(
  sql: Db,
  text: string,
  o: { kinds: readonly Kind[]; threshold: number; limit: number }
): Promise<Found[]> {
  const byId: Found[] = [];
  for (const scheme of Object.values(SCHEMES)) {
    const v = normIdentifier(scheme, text.replace(/^(?:cik|lei|uei|nct|ticker)[\s:#]+/i, ''));
    if (v === undefined) continue;
    const rows = await sql<Row[]>`
      select ${sql.unsafe(NODE_COLUMNS)},
        (select jsonb_object_agg(scheme, value) from entity_identifiers where node_id = n.id) as ids
      from entity_identifiers i join entity_nodes n on n.id = i.node_id
      where i.scheme = ${scheme} and i.value = ${v}`;
    for (const r of rows) byId.push({ ...node(r), score: 1, how: `${scheme}=${v}` });
  }
  if (byId.length > 0) return byId.slice(0, o.limit);
  const norm = normName(text);
  if (norm === '') return [];
  return sql.begin(async (tx) => {
    await tx`select set_config('pg_trgm.similarity_threshold', ${String(o.threshold)}, true),
                    set_config('pg_trgm.word_similarity_threshold', ${String(o.threshold)}, true)`;
    const rows = await tx<Array<Row & { score: number }>>`
      select ${tx.unsafe(NODE_COLUMNS)},
        (select jsonb_object_agg(scheme, value) from entity_identifiers where node_id = n.id) as ids,
        greatest(similarity(n.norm_name, ${norm}), word_similarity(${norm}, n.norm_name))::float8
          as score
      from entity_nodes n
      where n.kind = any(${tx.array([...o.kinds])}::text[])
        and (n.norm_name = ${norm} or n.norm_name % ${norm} or ${norm} <% n.norm_name)
      order by score desc, n.id limit ${o.limit}`;
    return rows.map((r) => ({ ...node(r), score: r.score, how: `name ${norm}` }));
  });
}

export async function nodesById(sql: Db, ids: readonly number[]): Promise<Map<number, GraphNode>> {
  if (ids.length === 0) return new Map();
  const rows = await sql<Row[]>`
    select ${sql.unsafe(NODE_COLUMNS)},
      (select jsonb_object_agg(scheme, value) from entity_identifiers where node_id = n.id) as ids
    from entity_nodes n where n.id = any(${sql.array(ids.map(String))}::int8[])`;
  return new Map(rows.map((r) => [Number(r.id), node(r)]));
}

/** The same_as edges touching `ids`: names alike enough to be one entity, with their scores. */
export async function sameAs(sql: Db, ids: readonly number[]): Promise<Edge[]> {
  return edges(sql, ids, true);
}

/** Every other edge touching `ids`, newest first within a relation. */
export async function relations(sql: Db, ids: readonly number[], limit = 500): Promise<Edge[]> {
  return edges(sql, ids, false, limit);
}

async function edges(sql: Db, ids: readonly number[], same: boolean, limit = 500): Promise<Edge[]> {
  if (ids.length === 0) return [];
  const a = sql.array(ids.map(String));
  const rows = await sql<Array<Omit<Edge, 'src' | 'dst'> & { src: string; dst: string }>>`
    select src, dst, relation, dataset, method, score::float8 as score, detail, agent_id, record,
      url, fetched_at
    from entity_edges
    where (src = any(${a}::int8[]) or dst = any(${a}::int8[]))
      and ${same ? sql`relation = 'same_as'` : sql`relation <> 'same_as'`}
    order by relation, dataset, fetched_at desc
    limit ${limit}`;
  return rows.map((r) => ({ ...r, src: Number(r.src), dst: Number(r.dst) }));
}

export async function mentions(sql: Db, ids: readonly number[]): Promise<Mention[]> {
  if (ids.length === 0) return [];
  const rows = await sql<Array<Omit<Mention, 'nodeId'> & { nodeId: string }>>`
    select node_id, agent_id, dataset, record, name, matched_by, match_key, url, fetched_at
    from entity_mentions where node_id = any(${sql.array(ids.map(String))}::int8[])
    order by fetched_at, dataset, record
    limit 1000`;
  return rows.map((r) => ({ ...r, nodeId: Number(r.nodeId) }));
}

/** Datasets and the agents that wrote them, for reading dataset names out of a request. */
export async function datasets(sql: Db): Promise<Array<{ agentId: string; dataset: string }>> {
  return sql<Array<{ agentId: string; dataset: string }>>`
    select distinct agent_id, dataset from entity_mentions order by dataset`;
}

/**
 * Nodes of `kinds` seen by every one of `required` datasets, counting what their same_as
 * neighbours were seen by; with `nameIds`, only among those nodes.
 */
export async function seenByAll(
  sql: Db,
  o: { kinds: readonly Kind[]; required: readonly string[]; nameIds?: readonly number[] },
  limit: number
): Promise<Array<{ id: number; datasets: string[] }>> {
  const only = o.nameIds === undefined ? null : o.nameIds.map(String);
  const rows = await sql<Array<{ id: string; datasets: string[] }>>`
    with cand as (
      select n.id from entity_nodes n
      where n.kind = any(${sql.array([...o.kinds])}::text[])
        and (${only === null} or n.id = any(${sql.array(only ?? [])}::int8[]))
    ),
    seen as (
      select c.id, m.dataset from cand c join entity_mentions m on m.node_id = c.id
      union
      select c.id, m.dataset from cand c
      join entity_edges e on e.relation = 'same_as' and (e.src = c.id or e.dst = c.id)
      join entity_mentions m on m.node_id = case when e.src = c.id then e.dst else e.src end
    )
    select id, array_agg(distinct dataset order by dataset) as datasets from seen
    group by id
    having array_agg(distinct dataset) @> ${sql.array([...o.required])}::text[]
    order by count(distinct dataset) desc, id
    limit ${limit}`;
  return rows.map((r) => ({ id: Number(r.id), datasets: r.datasets }));
}
