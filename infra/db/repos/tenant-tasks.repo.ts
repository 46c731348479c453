// A tenant's tasks as its administrator sees them (the dashboard's task feed): every task one of
// the tenant's agents sent or received, read from the tasks index (0003_tasks.sql). A task whose
// sender and recipient belong to other tenants is never returned.
import type { Task, TaskStateName } from '../../../runtime/protocol/index.js';
import type { Queryable } from './sql.js';

export interface TenantTaskQuery {
  readonly tenantId: string;
  /** One of the tenant's agents, as sender or recipient. */
  readonly agentId?: string;
  readonly contextId?: string;
  readonly state?: TaskStateName;
  readonly limit: number;
  /** Only rows the index wrote at or after this time (the live feed's look-back window). */
  readonly updatedSince?: Date;
}

export async function listTenantTasks(sql: Queryable, q: TenantTaskQuery): Promise<Task[]> {
  const params: unknown[] = [q.tenantId];
  let where = '(sender_tenant_id = $1 or recipient_tenant_id = $1)';
  if (q.agentId !== undefined) {
    params.push(q.agentId);
    where += ` and (sender_id = $${params.length} or recipient_id = $${params.length})`;
  }
  if (q.contextId !== undefined) {
    params.push(q.contextId);
    where += ` and context_id = $${params.length}`;
  }
  if (q.state !== undefined) {
    params.push(q.state);
    where += ` and state = $${params.length}`;
  }
  let order = 'created_at desc, id desc';
  if (q.updatedSince !== undefined) {
    params.push(q.updatedSince);
    where += ` and updated_at >= $${params.length}`;
    order = 'updated_at asc, id asc';
  }
  params.push(q.limit);
  const rows = await sql.unsafe<Array<{ task: Task }>>(
    `select task from tasks where ${where} order by ${order} limit $${params.length}`,
    params as never[]
  );
  return rows.map((r) => r.task);
}

/** The task if one of the tenant's agents is a party to it, else null. */
export async function getTenantTask(
  sql: Queryable,
  tenantId: string,
  taskId: string
): Promise<Task | null> {
  const [row] = await sql.unsafe<Array<{ task: Task }>>(
    `select task from tasks where id = $1 and (sender_tenant_id = $2 or recipient_tenant_id = $2)`,
    [taskId, tenantId]
  );
  return row?.task ?? null;
}
