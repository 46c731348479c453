// Push notification configs (0022): what a caller registered for a task, and how far its updates
// were delivered. The pusher claims due configs whose task (the `tasks` index, which holds every
// event) has moved past `delivered_rev`, with a lease on `next_at`, so one node at a time pushes a
// config's updates, in order.
import type { Task } from '../../../runtime/protocol/index.js';
import type { Queryable } from './sql.js';

export type PushDialect = 'hub' | 'v1' | 'v0.3';

export interface PushConfigRecord {
  readonly taskId: string;
  readonly id: string;
  readonly ownerAgentId: string;
  readonly ownerTenantId: string;
  readonly dialect: PushDialect;
  readonly url: string;
  readonly token: string | null;
  readonly authScheme: string | null;
  readonly authCredentials: string | null;
}

export interface NewPushConfig extends PushConfigRecord {
  /** Updates up to this rev are not pushed (those the caller already saw). */
  readonly deliveredRev: number;
}

/** At most this many configs per task and owner: each one is a POST per update. */
export const MAX_PUSH_CONFIGS_PER_TASK = 10;

const COLUMNS = `task_id, id, owner_agent_id, owner_tenant_id, dialect, url, token, auth_scheme,
  auth_credentials`;

/**
 * Creates or replaces the owner's config `id` for the task (A2A: setting a config with a known id
 * replaces it). Returns false, changing nothing, when the owner already has the maximum.
 */
export async function putPushConfig(sql: Queryable, c: NewPushConfig): Promise<boolean> {
  const rows = await sql.unsafe<{ id: string }[]>(
    `insert into push_configs (${COLUMNS}, delivered_rev)
     select $1, $2, $3, $4, $5, $6, $7, $8, $9, $10
     where (select count(*) from push_configs
            where task_id = $1 and owner_agent_id = $3 and id <> $2) < ${MAX_PUSH_CONFIGS_PER_TASK}
     on conflict (task_id, owner_agent_id, id) do update set url = excluded.url,
       token = excluded.token, auth_scheme = excluded.auth_scheme,
       auth_credentials = excluded.auth_credentials, dialect = excluded.dialect,
       status = 'active', attempts = 0, last_error = null, next_at = now(), updated_at = now()
     returning id`,
    [
      c.taskId,
      c.id,
      c.ownerAgentId,
      c.ownerTenantId,
      c.dialect,
      c.url,
      c.token,
      c.authScheme,
      c.authCredentials,
      c.deliveredRev,
    ]
  );
  return rows.length > 0;
}

export async function getPushConfig(
  sql: Queryable,
  taskId: string,
  ownerAgentId: string,
  id: string
): Promise<PushConfigRecord | undefined> {
  const [row] = await sql.unsafe<PushConfigRecord[]>(
    `select ${COLUMNS} from push_configs where task_id = $1 and owner_agent_id = $2 and id = $3`,
    [taskId, ownerAgentId, id]
  );
  return row;
}

export function listPushConfigs(
  sql: Queryable,
  taskId: string,
  ownerAgentId: string
): Promise<PushConfigRecord[]> {
  return sql.unsafe<PushConfigRecord[]>(
    `select ${COLUMNS} from push_configs where task_id = $1 and owner_agent_id = $2
     order by created_at, id`,
    [taskId, ownerAgentId]
  );
}

/** True when a config was there to delete. */
export async function deletePushConfig(
  sql: Queryable,
  taskId: string,
  ownerAgentId: string,
  id: string
): Promise<boolean> {
  const rows = await sql.unsafe<{ id: string }[]>(
    `delete from push_configs where task_id = $1 and owner_agent_id = $2 and id = $3 returning id`,
    [taskId, ownerAgentId, id]
  );
  return rows.length > 0;
}

/** A claimed config with its task as the index holds it (every event up to `task.rev`). */
export interface DuePush extends PushConfigRecord {
  readonly deliveredRev: number;
  readonly attempts: number;
  readonly task: Task;
}

/**
 * Claims configs that are due and whose task has updates past `delivered_rev` (skipping rows
 * another node holds), leasing them until `leaseUntil`.
 */
export function claimDuePushes(
  sql: Queryable,
  o: { now: Date; leaseUntil: Date; limit: number; exclude: readonly string[] }
): Promise<DuePush[]> {
  return sql.unsafe<DuePush[]>(
    `with due as (
       select c.task_id, c.owner_agent_id, c.id from push_configs c
       join tasks t on t.id = c.task_id
       where c.status = 'active' and c.next_at <= $1 and t.rev > c.delivered_rev
         and not (c.task_id || ' ' || c.owner_agent_id || ' ' || c.id = any($4::text[]))
       order by c.next_at limit $3
       for update of c skip locked)
     update push_configs p set next_at = $2, updated_at = $1
     from due, tasks t
     where p.task_id = due.task_id and p.owner_agent_id = due.owner_agent_id and p.id = due.id
       and t.id = p.task_id
     returning p.task_id, p.id, p.owner_agent_id, p.owner_tenant_id, p.dialect, p.url, p.token,
       p.auth_scheme, p.auth_credentials, p.delivered_rev, p.attempts, t.task`,
    [o.now, o.leaseUntil, o.limit, o.exclude as string[]]
  );
}

/**
 * The receiver took every update up to `rev`; a finished task's config is done. `next` is the
 * renewed lease while more of the backlog follows, or the moment it is free again.
 */
export async function recordPushed(
  sql: Queryable,
  c: Pick<PushConfigRecord, 'taskId' | 'ownerAgentId' | 'id'>,
  rev: number,
  finished: boolean,
  next: Date,
  now: Date
): Promise<void> {
  await sql.unsafe(
    `update push_configs set delivered_rev = greatest(delivered_rev, $4), attempts = 0,
       last_error = null, next_at = $6, status = case when $5 then 'done' else status end,
       updated_at = $7
     where task_id = $1 and owner_agent_id = $2 and id = $3`,
    [c.taskId, c.ownerAgentId, c.id, rev, finished, next, now]
  );
}

/** Frees a claimed config (its backlog was pushed): due again as soon as its task moves. */
export async function releasePush(
  sql: Queryable,
  c: Pick<PushConfigRecord, 'taskId' | 'ownerAgentId' | 'id'>,
  now: Date
): Promise<void> {
  await sql.unsafe(
    `update push_configs set next_at = $4 where task_id = $1 and owner_agent_id = $2 and id = $3
       and status = 'active'`,
    [c.taskId, c.ownerAgentId, c.id, now]
  );
}

/** A failed attempt: due again at `retryAt`, or failed for good when it is null. */
export async function recordPushFailure(
  sql: Queryable,
  c: Pick<PushConfigRecord, 'taskId' | 'ownerAgentId' | 'id'>,
  error: string,
  retryAt: Date | null,
  now: Date
): Promise<void> {
  await sql.unsafe(
    `update push_configs set attempts = attempts + 1, last_error = $4,
       next_at = coalesce($5, next_at), status = case when $5::timestamptz is null then 'failed'
       else status end, updated_at = $6
     where task_id = $1 and owner_agent_id = $2 and id = $3`,
    [c.taskId, c.ownerAgentId, c.id, error.slice(0, 500), retryAt, now]
  );
}
