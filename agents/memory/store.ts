// The memory agent's SQL (table memory_items, migration 0009_memory.sql). Every statement is scoped
// to one owner: the tenant and agent of the hub-verified sender, never a caller's field.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../infra/db/index.js';
import { pgVector, type Embedder } from '../../infra/embed/index.js';

/** Whose memories: the verified sender. */
export interface Owner {
  tenantId: string;
  agentId: string;
}

export interface Memory {
  id: string;
  content: string;
  tags: string[];
  createdAt: Date;
}

export interface ScoredMemory extends Memory {
  /** Cosine similarity to the query, -1..1. */
  score: number;
}

/** mem_ and 24 hex digits. */
export const MEMORY_ID = /^mem_[0-9a-f]{24}$/;

export function newMemoryId(): string {
  return `mem_${randomBytes(12).toString('hex')}`;
}

interface MemoryRow {
  id: string;
  content: string;
  tags: string[];
  createdAt: Date;
}

/**
 * Insert a memory, or, when the owner already has this exact content, keep that one: its tags gain
 * the new ones and its vector is refreshed to the current embedder.
 */
export async function insertMemory(
  sql: Db,
  owner: Owner,
  m: { content: string; tags: string[]; embedderId: string; vector: Float32Array; at: Date }
): Promise<{ memory: Memory; duplicate: boolean }> {
  const rows = await sql<Array<MemoryRow & { inserted: boolean }>>`
    insert into memory_items
      (id, tenant_id, owner_agent_id, content, tags, embedder_id, embedding, created_at)
    values (${newMemoryId()}, ${owner.tenantId}, ${owner.agentId}, ${m.content}, ${m.tags},
            ${m.embedderId}, ${pgVector(m.vector)}::real[], ${m.at})
    on conflict (tenant_id, owner_agent_id, content_hash) do update set
      tags = array(
        select t from unnest(memory_items.tags || excluded.tags) with ordinality as u(t, n)
        group by t order by min(n)),
      embedder_id = excluded.embedder_id,
      embedding = excluded.embedding
    returning id, content, tags, created_at, (xmax = 0) as inserted`;
  const row = rows[0]!;
  return { memory: toMemory(row), duplicate: !row.inserted };
}

/** The owner's memories at least `minScore` similar to `vector`, best first. */
export async function searchMemories(
  sql: Db,
  owner: Owner,
  q: { embedderId: string; vector: Float32Array; minScore: number; limit: number }
): Promise<ScoredMemory[]> {
  const rows = await sql<Array<MemoryRow & { score: number }>>`
    select id, content, tags, created_at, score from (
      select id, seq, content, tags, created_at,
             vec_dot(embedding, ${pgVector(q.vector)}::real[])::float8 as score
      from memory_items
      where tenant_id = ${owner.tenantId} and owner_agent_id = ${owner.agentId}
        and embedder_id = ${q.embedderId}
    ) scored
    where score >= ${q.minScore}
    order by score desc, seq desc
    limit ${q.limit}`;
  return rows.map((r) => ({ ...toMemory(r), score: r.score }));
}

/** Delete the owner's memories at least `minScore` similar to `vector`; the deleted ones, best first. */
export async function deleteMatching(
  sql: Db,
  owner: Owner,
  q: { embedderId: string; vector: Float32Array; minScore: number }
): Promise<ScoredMemory[]> {
  const rows = await sql<Array<MemoryRow & { score: number }>>`
    with scored as (
      select id, vec_dot(embedding, ${pgVector(q.vector)}::real[])::float8 as score
      from memory_items
      where tenant_id = ${owner.tenantId} and owner_agent_id = ${owner.agentId}
        and embedder_id = ${q.embedderId}
    )
    delete from memory_items m using scored s
    where m.id = s.id and s.score >= ${q.minScore}
      and m.tenant_id = ${owner.tenantId} and m.owner_agent_id = ${owner.agentId}
    returning m.id, m.content, m.tags, m.created_at, s.score`;
  return rows.map((r) => ({ ...toMemory(r), score: r.score })).sort((a, b) => b.score - a.score);
}

/** Delete one of the owner's memories; undefined when the owner has none with that id. */
export async function deleteById(sql: Db, owner: Owner, id: string): Promise<Memory | undefined> {
  const rows = await sql<MemoryRow[]>`
    delete from memory_items
    where id = ${id} and tenant_id = ${owner.tenantId} and owner_agent_id = ${owner.agentId}
    returning id, content, tags, created_at`;
  return rows[0] ? toMemory(rows[0]) : undefined;
}

/** A page of the owner's memories, newest first, and how many the owner has in all. */
export async function listMemories(
  sql: Db,
  owner: Owner,
  page: { limit: number; offset: number }
): Promise<{ memories: Memory[]; total: number }> {
  const [rows, counted] = await Promise.all([
    sql<MemoryRow[]>`
      select id, content, tags, created_at from memory_items
      where tenant_id = ${owner.tenantId} and owner_agent_id = ${owner.agentId}
      order by seq desc
      limit ${page.limit} offset ${page.offset}`,
    sql<Array<{ total: number }>>`
      select count(*)::int as total from memory_items
      where tenant_id = ${owner.tenantId} and owner_agent_id = ${owner.agentId}`,
  ]);
  return { memories: rows.map(toMemory), total: counted[0]?.total ?? 0 };
}

/** At most this many vectors are recomputed per request, so one call never stalls on a backlog. */
const REEMBED_BATCH = 100;

/**
 * Re-embed the owner's memories whose vectors come from another embedder (the hub was configured
 * with a different one since they were stored): vectors of two embedders cannot be compared, and
 * without this those memories could never be recalled again.
 */
export async function reembedStale(
  sql: Db,
  owner: Owner,
  embedder: Embedder,
  signal: AbortSignal
): Promise<number> {
  const stale = await sql<Array<{ id: string; content: string }>>`
    select id, content from memory_items
    where tenant_id = ${owner.tenantId} and owner_agent_id = ${owner.agentId}
      and embedder_id <> ${embedder.id}
    order by seq desc
    limit ${REEMBED_BATCH}`;
  if (stale.length === 0) return 0;
  const vectors = await embedder.embed(
    stale.map((s) => s.content),
    signal
  );
  await sql.begin(async (tx) => {
    for (const [i, s] of stale.entries()) {
      await tx`
        update memory_items
        set embedder_id = ${embedder.id}, embedding = ${pgVector(vectors[i]!)}::real[]
        where id = ${s.id} and tenant_id = ${owner.tenantId} and owner_agent_id = ${owner.agentId}`;
    }
  });
  return stale.length;
}

function toMemory(r: MemoryRow): Memory {
  return { id: r.id, content: r.content, tags: r.tags, createdAt: r.createdAt };
}
