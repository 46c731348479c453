// A workspace's shared memories (issue 28 item 1, migration 0023): typed texts any active member
// stores, recalls by meaning (the hub's embedder; vectors ranked by vec_dot, as the memory agent
// does), updates and forgets. Scoped to one workspace id the gateway checked membership of.
import { randomBytes } from 'node:crypto';
import { type Queryable } from './sql.js';

export const WORKSPACE_MEMORY_ID = /^wsm_[0-9a-f]{24}$/;

export interface WorkspaceMemory {
  readonly id: string;
  readonly type: string;
  readonly content: string;
  readonly tags: string[];
  readonly authorAgentId: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface ScoredWorkspaceMemory extends WorkspaceMemory {
  /** Cosine similarity to the query, -1..1. */
  readonly score: number;
}

export interface EmbeddedText {
  readonly embedderId: string;
  readonly vector: Float32Array;
}

const COLUMNS = 'id, type, content, tags, author_agent_id, created_at, updated_at';

/** A PostgreSQL real[] literal (infra/embed's pgVector, which infra/db may not import). */
function vectorLiteral(v: Float32Array): string {
  let s = '{';
  for (let i = 0; i < v.length; i++)
    s += (i === 0 ? '' : ',') + (v[i] === 0 ? '0' : v[i]!.toPrecision(6));
  return s + '}';
}

export async function insertWorkspaceMemory(
  sql: Queryable,
  workspaceId: string,
  m: { type: string; content: string; tags: string[]; author: string } & EmbeddedText
): Promise<WorkspaceMemory> {
  const rows = await sql<WorkspaceMemory[]>`
    insert into workspace_memories
      (id, workspace_id, type, content, tags, author_agent_id, embedder_id, embedding)
    values (${`wsm_${randomBytes(12).toString('hex')}`}, ${workspaceId}, ${m.type}, ${m.content},
            ${m.tags}, ${m.author}, ${m.embedderId}, ${vectorLiteral(m.vector)}::real[])
    returning ${sql.unsafe(COLUMNS)}`;
  return rows[0]!;
}

/** Change a memory's type, tags or content (re-embedded); null when the workspace has no such id. */
export async function updateWorkspaceMemory(
  sql: Queryable,
  workspaceId: string,
  id: string,
  patch: { type?: string; tags?: string[]; content?: { text: string } & EmbeddedText }
): Promise<WorkspaceMemory | null> {
  const c = patch.content;
  const rows = await sql<WorkspaceMemory[]>`
    update workspace_memories set
      type = coalesce(${patch.type ?? null}, type),
      tags = coalesce(${patch.tags ?? null}::text[], tags),
      content = coalesce(${c?.text ?? null}, content),
      embedder_id = coalesce(${c?.embedderId ?? null}, embedder_id),
      embedding = coalesce(${c ? vectorLiteral(c.vector) : null}::real[], embedding),
      updated_at = now()
    where id = ${id} and workspace_id = ${workspaceId}
    returning ${sql.unsafe(COLUMNS)}`;
  return rows[0] ?? null;
}

export async function deleteWorkspaceMemory(
  sql: Queryable,
  workspaceId: string,
  id: string
): Promise<WorkspaceMemory | null> {
  const rows = await sql<WorkspaceMemory[]>`
    delete from workspace_memories where id = ${id} and workspace_id = ${workspaceId}
    returning ${sql.unsafe(COLUMNS)}`;
  return rows[0] ?? null;
}

/** The workspace's memories at least `minScore` similar to the query, best first. */
export async function searchWorkspaceMemories(
  sql: Queryable,
  workspaceId: string,
  q: EmbeddedText & { minScore: number; limit: number; type?: string }
): Promise<ScoredWorkspaceMemory[]> {
  return sql<ScoredWorkspaceMemory[]>`
    select ${sql.unsafe(COLUMNS)}, score from (
      select ${sql.unsafe(COLUMNS)}, seq,
             vec_dot(embedding, ${vectorLiteral(q.vector)}::real[])::float8 as score
      from workspace_memories
      where workspace_id = ${workspaceId} and embedder_id = ${q.embedderId}
        ${q.type === undefined ? sql`` : sql`and type = ${q.type}`}
    ) scored
    where score >= ${q.minScore}
    order by score desc, seq desc
    limit ${q.limit}`;
}

/** A page of the workspace's memories, newest first, and how many match in all. */
export async function listWorkspaceMemories(
  sql: Queryable,
  workspaceId: string,
  page: { limit: number; offset: number; type?: string }
): Promise<{ memories: WorkspaceMemory[]; total: number }> {
  const typed = page.type === undefined ? sql`` : sql`and type = ${page.type}`;
  const [memories, counted] = await Promise.all([
    sql<WorkspaceMemory[]>`
      select ${sql.unsafe(COLUMNS)} from workspace_memories
      where workspace_id = ${workspaceId} ${typed}
      order by seq desc limit ${page.limit} offset ${page.offset}`,
    sql<Array<{ total: number }>>`
      select count(*)::int as total from workspace_memories
      where workspace_id = ${workspaceId} ${typed}`,
  ]);
  return { memories, total: counted[0]?.total ?? 0 };
}

/** The memory types in use in the workspace, with how many memories each has. */
export async function workspaceMemoryTypes(
  sql: Queryable,
  workspaceId: string
): Promise<Array<{ type: string; count: number }>> {
  return sql<Array<{ type: string; count: number }>>`
    select type, count(*)::int as count from workspace_memories
    where workspace_id = ${workspaceId} group by type order by count desc, type`;
}

/** Memories whose vectors come from another embedder than `embedderId` (re-embedded on read). */
export async function staleWorkspaceMemories(
  sql: Queryable,
  workspaceId: string,
  embedderId: string,
  limit: number
): Promise<Array<{ id: string; content: string }>> {
  return sql<Array<{ id: string; content: string }>>`
    select id, content from workspace_memories
    where workspace_id = ${workspaceId} and embedder_id <> ${embedderId}
    order by seq desc limit ${limit}`;
}

export async function setWorkspaceMemoryVector(
  sql: Queryable,
  workspaceId: string,
  id: string,
  v: EmbeddedText
): Promise<void> {
  await sql`
    update workspace_memories
    set embedder_id = ${v.embedderId}, embedding = ${vectorLiteral(v.vector)}::real[]
    where id = ${id} and workspace_id = ${workspaceId}`;
}
