// The tasks index (0003_tasks.sql): projector upserts and the queries behind ListTasks and
// "reply by contextId". Rows only move forward: an older snapshot never overwrites a newer one.
import type { Task, TaskStateName } from '../../../runtime/protocol/index.js';
import { storableJson, type Queryable } from './sql.js';

const j = JSON.stringify;

/**
 * A task as the index writes it: the columns, and the task's JSON (usually the text its log record
 * was built around, so it is not encoded again). Flat on purpose: a writer holds rows for a batch
 * and the PostgreSQL round trip (its commit included), long enough for the young generation's
 * collector to promote what they keep; a task's object graph kept that long cost more to collect
 * than the task's JSON as one string.
 */
export interface TaskRow {
  readonly id: string;
  readonly contextId: string;
  readonly senderId: string;
  readonly recipientId: string;
  readonly senderTenantId: string;
  readonly recipientTenantId: string;
  readonly state: TaskStateName;
  readonly rev: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** JSON.stringify(task). */
  readonly json: string;
}

/** The index row of a task; `json`, when given, is JSON.stringify(task) made already. */
export function taskRow(t: Task, json?: string): TaskRow {
  return {
    id: t.id,
    contextId: t.contextId,
    senderId: t.senderId,
    recipientId: t.recipientId,
    senderTenantId: t.senderTenantId,
    recipientTenantId: t.recipientTenantId,
    state: t.status.state,
    rev: t.rev,
    createdAt: t.createdAt,
    updatedAt: t.status.timestamp,
    json: json ?? j(t),
  };
}

/**
 * Rows for jsonb_to_recordset, written as text around each task's JSON (not encoded again). Times
 * go as epoch milliseconds, made timestamps by PostgreSQL (exact to the millisecond), not as ISO
 * text made here: a Date and its text per time per row were a share of the hot path.
 */
function rowsJson(rows: readonly TaskRow[], full: boolean): string {
  let out = '[';
  for (let i = 0; i < rows.length; i++) {
    const t = rows[i]!;
    out +=
      (i === 0 ? '{"id":' : ',{"id":') +
      j(t.id) +
      (full
        ? `,"context_id":${j(t.contextId)},"sender_id":${j(t.senderId)},` +
          `"recipient_id":${j(t.recipientId)},"sender_tenant_id":${j(t.senderTenantId)},` +
          `"recipient_tenant_id":${j(t.recipientTenantId)}`
        : '') +
      `,"state":${j(t.state)},"rev":${j(t.rev)}` +
      (full ? `,"created_at":${j(t.createdAt)}` : '') +
      `,"updated_at":${j(t.updatedAt)},"task":${t.json}}`;
  }
  return storableJson(out + ']');
}

export async function upsertTasks(sql: Queryable, rows: readonly TaskRow[]): Promise<void> {
  if (rows.length === 0) return;
  await sql.unsafe(
    `insert into tasks (id, context_id, sender_id, recipient_id, sender_tenant_id,
       recipient_tenant_id, state, rev, created_at, updated_at, task)
     select id, context_id, sender_id, recipient_id, sender_tenant_id, recipient_tenant_id, state,
       rev, to_timestamp(created_at / 1000), to_timestamp(updated_at / 1000), task
     from jsonb_to_recordset($1::text::jsonb) as r(id text, context_id text, sender_id text,
       recipient_id text, sender_tenant_id text, recipient_tenant_id text, state text, rev int,
       created_at float8, updated_at float8, task jsonb)
     on conflict (id) do update set state = excluded.state, rev = excluded.rev,
       updated_at = excluded.updated_at, task = excluded.task
     where tasks.rev < excluded.rev`,
    [rowsJson(rows, true)]
  );
}

/**
 * Rows already in the index: only the columns a task's change can touch (state, rev, updated_at,
 * task), and only forward. Cheaper than an upsert, which tries an insert first.
 */
export async function updateTasks(sql: Queryable, rows: readonly TaskRow[]): Promise<void> {
  if (rows.length === 0) return;
  await sql.unsafe(
    `update tasks set state = r.state, rev = r.rev, updated_at = to_timestamp(r.updated_at / 1000),
       task = r.task
     from jsonb_to_recordset($1::text::jsonb) as r(id text, state text, rev int,
       updated_at float8, task jsonb)
     where tasks.id = r.id and tasks.rev < r.rev`,
    [rowsJson(rows, false)]
  );
}

export interface TaskListQuery {
  agentId: string;
  contextId?: string;
  state?: TaskStateName;
  pageSize: number;
  /** Keyset cursor: created_at (epoch ms) and id of the last row of the previous page. */
  after?: { createdAt: number; id: string };
}

export async function listTasksFor(
  sql: Queryable,
  q: TaskListQuery
): Promise<{ tasks: Task[]; total: number }> {
  const params: unknown[] = [q.agentId];
  let where = '(sender_id = $1 or recipient_id = $1)';
  if (q.contextId !== undefined) {
    params.push(q.contextId);
    where += ` and context_id = $${params.length}`;
  }
  if (q.state !== undefined) {
    params.push(q.state);
    where += ` and state = $${params.length}`;
  }
  let page = where;
  if (q.after) {
    params.push(new Date(q.after.createdAt), q.after.id);
    page += ` and (created_at, id) < ($${params.length - 1}, $${params.length})`;
  }
  params.push(q.pageSize);
  // One statement, one snapshot: as two, run side by side, a row committed between them was listed
  // with a total of 0 (messaging.e2e, on a loaded machine).
  const rows = await sql.unsafe<Array<{ task: Task | null; n: string }>>(
    `select p.task, c.n
       from (select count(*) as n from tasks where ${where}) c
       left join lateral (
         select task, created_at, id from tasks where ${page}
         order by created_at desc, id desc limit $${params.length}
       ) p on true
      order by p.created_at desc, p.id desc`,
    params as never[]
  );
  const tasks: Task[] = [];
  for (const r of rows) if (r.task !== null) tasks.push(r.task);
  return { tasks, total: Number(rows[0]?.n ?? 0) };
}

/** The other party of the caller's latest task in a conversation, if the caller is in it. */
export async function contextPeer(
  sql: Queryable,
  contextId: string,
  agentId: string
): Promise<string | undefined> {
  const [row] = await sql.unsafe<Array<{ senderId: string; recipientId: string }>>(
    `select sender_id, recipient_id from tasks
     where context_id = $1 and (sender_id = $2 or recipient_id = $2)
     order by created_at desc limit 1`,
    [contextId, agentId]
  );
  if (!row) return undefined;
  return row.senderId === agentId ? row.recipientId : row.senderId;
}
