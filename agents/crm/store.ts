// The CRM's SQL (tables from migration 0011_crm.sql). Every statement filters by tenant_id; the
// tenant always comes from the hub-verified envelope, never from the request body.
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../infra/db/index.js';
import { pgVector } from '../../infra/embed/index.js';
import type { CompareClass, FilterOp, MetaFilter, MetaKind, TypedValue } from './values.js';

export const ENTITY_ID = /^crm_ent_[0-9a-f]{16}$/;

export function newId(prefix: 'crm_ent' | 'crm_lnk' | 'crm_int'): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}

export interface Entity {
  id: string;
  type: string;
  name: string;
  description: string;
  embedderId: string | null;
  createdBy: string;
  updatedBy: string;
  createdAt: Date;
  updatedAt: Date;
}

export type Metadata = Record<string, TypedValue>;

export interface LinkView {
  id: string;
  relation: string;
  direction: 'out' | 'in';
  /** The entity at the other end. */
  other: { id: string; type: string; name: string };
  createdAt: Date;
}

export interface Interaction {
  id: string;
  entityId: string;
  kind: string;
  text: string;
  occurredAt: Date;
  createdBy: string;
}

const ENTITY_COLUMNS = (sql: Queryable) =>
  sql`e.id, e.type, e.name, e.description, e.embedder_id, e.created_by, e.updated_by, e.created_at, e.updated_at`;

export async function entityById(
  sql: Queryable,
  tenantId: string,
  id: string
): Promise<Entity | undefined> {
  const rows = await sql<Entity[]>`
    select ${ENTITY_COLUMNS(sql)} from crm_entities e where e.tenant_id = ${tenantId} and e.id = ${id}`;
  return rows[0];
}

/** Entities whose name equals `name` ignoring case (one per type at most). */
export async function entitiesByName(
  sql: Queryable,
  tenantId: string,
  name: string,
  type?: string
): Promise<Entity[]> {
  return sql<Entity[]>`
    select ${ENTITY_COLUMNS(sql)} from crm_entities e
    where e.tenant_id = ${tenantId} and lower(e.name) = lower(${name})
      ${type ? sql`and e.type = ${type}` : sql``}
    order by e.type`;
}

export interface EntityWrite {
  type: string;
  name: string;
  description: string;
  /** Undefined keeps the stored vector (name and description did not change). */
  embedding?: { vector: Float32Array; embedderId: string };
}

/**
 * Insert an entity, or update the one with the same natural key (tenant, type, lower(name)) when
 * another request created it meanwhile. Resolves the row and whether it was created.
 */
export async function insertEntity(
  sql: Queryable,
  tenantId: string,
  by: string,
  w: EntityWrite & { embedding: { vector: Float32Array; embedderId: string } }
): Promise<{ entity: Entity; created: boolean }> {
  const rows = await sql<Array<Entity & { created: boolean }>>`
    insert into crm_entities as e
      (id, tenant_id, type, name, description, embedding, embedder_id, created_by, updated_by)
    values (${newId('crm_ent')}, ${tenantId}, ${w.type}, ${w.name}, ${w.description},
      ${pgVector(w.embedding.vector)}::real[], ${w.embedding.embedderId}, ${by}, ${by})
    on conflict (tenant_id, type, lower(name)) do update set
      name = excluded.name, description = excluded.description, embedding = excluded.embedding,
      embedder_id = excluded.embedder_id, updated_by = excluded.updated_by, updated_at = now()
    returning ${ENTITY_COLUMNS(sql)}, (xmax = 0) as created`;
  const { created, ...entity } = rows[0]!;
  return { entity, created };
}

/** Update an entity by id; undefined when a different entity already has the new natural key. */
export async function updateEntity(
  sql: Queryable,
  tenantId: string,
  id: string,
  by: string,
  w: EntityWrite
): Promise<Entity | undefined> {
  const vector = w.embedding
    ? sql`, embedding = ${pgVector(w.embedding.vector)}::real[], embedder_id = ${w.embedding.embedderId}`
    : sql``;
  try {
    const rows = await sql<Entity[]>`
      update crm_entities e set type = ${w.type}, name = ${w.name}, description = ${w.description},
        updated_by = ${by}, updated_at = now() ${vector}
      where e.tenant_id = ${tenantId} and e.id = ${id}
      returning ${ENTITY_COLUMNS(sql)}`;
    return rows[0];
  } catch (err) {
    if (isUniqueViolation(err)) return undefined;
    throw err;
  }
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

export async function setMeta(
  sql: Queryable,
  tenantId: string,
  entityId: string,
  key: string,
  v: TypedValue,
  by: string
): Promise<void> {
  const num = v.kind === 'number' ? v.value : null;
  const time = v.kind === 'date' ? `${v.value}T00:00:00Z` : v.kind === 'datetime' ? v.value : null;
  const text = v.kind === 'string' ? v.value : null;
  const bool = v.kind === 'boolean' ? v.value : null;
  await sql`
    insert into crm_meta (tenant_id, entity_id, key, kind, value_num, value_time, value_text, value_bool, updated_by)
    values (${tenantId}, ${entityId}, ${key}, ${v.kind}, ${num}, ${time}::timestamptz, ${text}, ${bool}, ${by})
    on conflict (tenant_id, entity_id, key) do update set
      kind = excluded.kind, value_num = excluded.value_num, value_time = excluded.value_time,
      value_text = excluded.value_text, value_bool = excluded.value_bool,
      updated_by = excluded.updated_by, updated_at = now()`;
}

/** Resolves whether the key was there. */
export async function deleteMeta(
  sql: Queryable,
  tenantId: string,
  entityId: string,
  key: string
): Promise<boolean> {
  const rows = await sql`
    delete from crm_meta where tenant_id = ${tenantId} and entity_id = ${entityId} and key = ${key}
    returning key`;
  return rows.length > 0;
}

interface MetaRow {
  entityId: string;
  key: string;
  kind: MetaKind;
  valueNum: number | null;
  valueTime: Date | null;
  valueText: string | null;
  valueBool: boolean | null;
}

function toTyped(r: MetaRow): TypedValue {
  switch (r.kind) {
    case 'number':
      return { kind: 'number', value: Number(r.valueNum) };
    case 'date':
      return { kind: 'date', value: r.valueTime!.toISOString().slice(0, 10) };
    case 'datetime':
      return { kind: 'datetime', value: r.valueTime!.toISOString() };
    case 'string':
      return { kind: 'string', value: r.valueText! };
    case 'boolean':
      return { kind: 'boolean', value: r.valueBool! };
    default: {
      const never: never = r.kind;
      return never;
    }
  }
}

/** Metadata of several entities, keyed by entity id, keys sorted. */
export async function metadataOf(
  sql: Queryable,
  tenantId: string,
  entityIds: readonly string[]
): Promise<Map<string, Metadata>> {
  const out = new Map<string, Metadata>();
  if (entityIds.length === 0) return out;
  const rows = await sql<MetaRow[]>`
    select entity_id, key, kind, value_num, value_time, value_text, value_bool from crm_meta
    where tenant_id = ${tenantId} and entity_id = any(${entityIds as string[]}::text[])
    order by entity_id, key`;
  for (const r of rows) {
    const m = out.get(r.entityId) ?? {};
    m[r.key] = toTyped(r);
    out.set(r.entityId, m);
  }
  return out;
}

/** Creates the link unless it exists; resolves its id and whether it is new. */
export async function createLink(
  sql: Queryable,
  tenantId: string,
  fromId: string,
  toId: string,
  relation: string,
  by: string
): Promise<{ id: string; created: boolean }> {
  const inserted = await sql<Array<{ id: string }>>`
    insert into crm_links (id, tenant_id, from_id, to_id, relation, created_by)
    values (${newId('crm_lnk')}, ${tenantId}, ${fromId}, ${toId}, ${relation}, ${by})
    on conflict (tenant_id, from_id, to_id, relation) do nothing
    returning id`;
  if (inserted[0]) return { id: inserted[0].id, created: true };
  const existing = await sql<Array<{ id: string }>>`
    select id from crm_links where tenant_id = ${tenantId} and from_id = ${fromId}
      and to_id = ${toId} and relation = ${relation}`;
  return { id: existing[0]!.id, created: false };
}

export async function linksOf(
  sql: Queryable,
  tenantId: string,
  entityId: string
): Promise<LinkView[]> {
  const rows = await sql<
    Array<{
      id: string;
      relation: string;
      direction: 'out' | 'in';
      otherId: string;
      otherType: string;
      otherName: string;
      createdAt: Date;
    }>
  >`
    select l.id, l.relation, 'out' as direction, o.id as other_id, o.type as other_type,
      o.name as other_name, l.created_at
    from crm_links l join crm_entities o on o.tenant_id = l.tenant_id and o.id = l.to_id
    where l.tenant_id = ${tenantId} and l.from_id = ${entityId}
    union all
    select l.id, l.relation, 'in', o.id, o.type, o.name, l.created_at
    from crm_links l join crm_entities o on o.tenant_id = l.tenant_id and o.id = l.from_id
    where l.tenant_id = ${tenantId} and l.to_id = ${entityId}
    order by direction desc, relation, other_name`;
  return rows.map((r) => ({
    id: r.id,
    relation: r.relation,
    direction: r.direction,
    other: { id: r.otherId, type: r.otherType, name: r.otherName },
    createdAt: r.createdAt,
  }));
}

export async function logInteraction(
  sql: Queryable,
  tenantId: string,
  entityId: string,
  kind: string,
  text: string,
  occurredAt: Date,
  by: string
): Promise<Interaction> {
  const rows = await sql<Interaction[]>`
    insert into crm_interactions (id, tenant_id, entity_id, kind, text, occurred_at, created_by)
    values (${newId('crm_int')}, ${tenantId}, ${entityId}, ${kind}, ${text}, ${occurredAt}, ${by})
    returning id, entity_id, kind, text, occurred_at, created_by`;
  return rows[0]!;
}

/** The newest `limit` interactions and how many there are in all. */
export async function interactionsOf(
  sql: Queryable,
  tenantId: string,
  entityId: string,
  limit: number
): Promise<{ items: Interaction[]; total: number }> {
  const items = await sql<Interaction[]>`
    select id, entity_id, kind, text, occurred_at, created_by from crm_interactions
    where tenant_id = ${tenantId} and entity_id = ${entityId}
    order by occurred_at desc, created_at desc limit ${limit}`;
  const [count] = await sql<Array<{ n: number }>>`
    select count(*)::int as n from crm_interactions
    where tenant_id = ${tenantId} and entity_id = ${entityId}`;
  return { items, total: count?.n ?? 0 };
}

/** Entities whose vector was made by another embedder (or none): search re-embeds them first. */
export async function staleEntities(
  sql: Queryable,
  tenantId: string,
  embedderId: string,
  limit: number
): Promise<Entity[]> {
  return sql<Entity[]>`
    select ${ENTITY_COLUMNS(sql)} from crm_entities e
    where e.tenant_id = ${tenantId} and e.embedder_id is distinct from ${embedderId}
    limit ${limit}`;
}

export async function setEmbedding(
  sql: Queryable,
  tenantId: string,
  id: string,
  vector: Float32Array,
  embedderId: string
): Promise<void> {
  await sql`
    update crm_entities set embedding = ${pgVector(vector)}::real[], embedder_id = ${embedderId}
    where tenant_id = ${tenantId} and id = ${id}`;
}

/**
 * Below this cosine a match is noise: with the local embedder, texts that share no word or topic
 * still reach ~0.1 through hashed trigram collisions (memory measured p99 0.16 on unrelated pairs).
 */
export const MIN_SEARCH_SCORE = 0.1;

/** Entities ranked by cosine to `vector` (unit vectors: the dot product), from MIN_SEARCH_SCORE up. */
export async function searchEntities(
  sql: Queryable,
  tenantId: string,
  vector: Float32Array,
  embedderId: string,
  type: string | undefined,
  limit: number
): Promise<Array<Entity & { score: number }>> {
  return sql<Array<Entity & { score: number }>>`
    select * from (
      select ${ENTITY_COLUMNS(sql)}, vec_dot(e.embedding, ${pgVector(vector)}::real[]) as score
      from crm_entities e
      where e.tenant_id = ${tenantId} and e.embedder_id = ${embedderId}
        ${type ? sql`and e.type = ${type}` : sql``}
    ) ranked
    where score >= ${MIN_SEARCH_SCORE}
    order by score desc, name
    limit ${limit}`;
}

/** The classes of value `key` holds among the tenant's entities of `type`. */
export async function storedClasses(
  sql: Queryable,
  tenantId: string,
  type: string,
  key: string
): Promise<Set<CompareClass>> {
  const rows = await sql<Array<{ kind: MetaKind }>>`
    select distinct m.kind from crm_meta m
    join crm_entities e on e.tenant_id = m.tenant_id and e.id = m.entity_id
    where m.tenant_id = ${tenantId} and m.key = ${key} and e.type = ${type}`;
  const out = new Set<CompareClass>();
  for (const r of rows) {
    out.add(
      r.kind === 'number'
        ? 'number'
        : r.kind === 'string'
          ? 'string'
          : r.kind === 'boolean'
            ? 'boolean'
            : 'time'
    );
  }
  return out;
}

function compare(
  sql: Queryable,
  column: ReturnType<Queryable>,
  op: FilterOp,
  value: ReturnType<Queryable>
) {
  switch (op) {
    case 'eq':
      return sql`${column} = ${value}`;
    case 'gt':
      return sql`${column} > ${value}`;
    case 'gte':
      return sql`${column} >= ${value}`;
    case 'lt':
      return sql`${column} < ${value}`;
    case 'lte':
      return sql`${column} <= ${value}`;
    default: {
      const never: never = op;
      return never;
    }
  }
}

function filterCondition(sql: Queryable, f: MetaFilter) {
  switch (f.cls) {
    case 'number':
      return sql`m.kind = 'number' and ${compare(sql, sql`m.value_num`, f.op, sql`${f.value}::double precision`)}`;
    case 'time':
      return sql`m.kind in ('date', 'datetime') and ${compare(sql, sql`m.value_time`, f.op, sql`${f.value}::timestamptz`)}`;
    case 'string':
      return sql`m.kind = 'string' and ${compare(sql, sql`lower(m.value_text)`, f.op, sql`lower(${f.value}::text)`)}`;
    case 'boolean':
      return sql`m.kind = 'boolean' and m.value_bool = ${f.value}`;
    default: {
      const never: never = f;
      return never;
    }
  }
}

/** Entities of `type` matching every filter, by name. */
export async function metaSearch(
  sql: Queryable,
  tenantId: string,
  type: string,
  filters: readonly MetaFilter[],
  limit: number
): Promise<Entity[]> {
  let where = sql`e.tenant_id = ${tenantId} and e.type = ${type}`;
  for (const f of filters) {
    where = sql`${where} and exists (
      select 1 from crm_meta m
      where m.tenant_id = e.tenant_id and m.entity_id = e.id and m.key = ${f.key}
        and ${filterCondition(sql, f)})`;
  }
  return sql<Entity[]>`
    select ${ENTITY_COLUMNS(sql)} from crm_entities e where ${where}
    order by lower(e.name), e.id limit ${limit}`;
}
