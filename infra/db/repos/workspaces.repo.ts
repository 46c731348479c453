// Workspaces and their members (issue 28 item 1, migration 0023). Every function takes ids the
// gateway already checked against the caller's membership; none decides who may do what.
import { randomBytes } from 'node:crypto';
import { firstRow, inTransaction, type Queryable } from './sql.js';

export type WorkspaceRole = 'owner' | 'member';
export type MemberStatus = 'active' | 'invited';
export const WORKSPACE_ID = /^ws_[0-9a-f]{24}$/;

export interface Workspace {
  readonly id: string;
  readonly tenantId: string;
  readonly name: string;
  readonly description: string;
  readonly createdBy: string;
  readonly createdAt: Date;
}

export interface WorkspaceMember {
  readonly workspaceId: string;
  readonly agentId: string;
  readonly tenantId: string;
  readonly role: WorkspaceRole;
  readonly status: MemberStatus;
  readonly addedBy: string;
  readonly addedAt: Date;
  /** The agent's display name, for lists. */
  readonly name: string;
}

/** A workspace as one agent sees it: with its own role and status in it. */
export interface WorkspaceSeat extends Workspace {
  readonly role: WorkspaceRole;
  readonly status: MemberStatus;
  readonly memberCount: number;
}

const WS_COLUMNS = 'w.id, w.tenant_id, w.name, w.description, w.created_by, w.created_at';

/** Create a workspace with its creator as the active owner. */
export async function createWorkspace(
  sql: Queryable,
  input: { creator: { agentId: string; tenantId: string }; name: string; description: string }
): Promise<Workspace> {
  const id = `ws_${randomBytes(12).toString('hex')}`;
  return inTransaction(sql, async (tx) => {
    const rows = await tx<Workspace[]>`
      insert into workspaces (id, tenant_id, name, description, created_by)
      values (${id}, ${input.creator.tenantId}, ${input.name}, ${input.description},
              ${input.creator.agentId})
      returning id, tenant_id, name, description, created_by, created_at`;
    await tx`
      insert into workspace_members (workspace_id, agent_id, tenant_id, role, status, added_by)
      values (${id}, ${input.creator.agentId}, ${input.creator.tenantId}, 'owner', 'active',
              ${input.creator.agentId})`;
    return firstRow(rows, 'createWorkspace');
  });
}

export async function getWorkspace(sql: Queryable, id: string): Promise<Workspace | null> {
  const rows = await sql<Workspace[]>`
    select ${sql.unsafe(WS_COLUMNS)} from workspaces w where w.id = ${id}`;
  return rows[0] ?? null;
}

/** The agent's seat in the workspace (any status), or null when it has none. */
export async function workspaceSeat(
  sql: Queryable,
  workspaceId: string,
  agentId: string
): Promise<WorkspaceSeat | null> {
  const rows = await sql<WorkspaceSeat[]>`
    select ${sql.unsafe(WS_COLUMNS)}, m.role, m.status,
           (select count(*)::int from workspace_members c
            where c.workspace_id = w.id and c.status = 'active') as member_count
    from workspaces w join workspace_members m on m.workspace_id = w.id
    where w.id = ${workspaceId} and m.agent_id = ${agentId}`;
  return rows[0] ?? null;
}

/** Every workspace the agent is in or invited to, newest first. */
export async function listAgentWorkspaces(
  sql: Queryable,
  agentId: string
): Promise<WorkspaceSeat[]> {
  return sql<WorkspaceSeat[]>`
    select ${sql.unsafe(WS_COLUMNS)}, m.role, m.status,
           (select count(*)::int from workspace_members c
            where c.workspace_id = w.id and c.status = 'active') as member_count
    from workspaces w join workspace_members m on m.workspace_id = w.id
    where m.agent_id = ${agentId}
    order by w.created_at desc, w.id`;
}

/** Every workspace a tenant owns (for its admin key), newest first. */
export async function listTenantWorkspaces(
  sql: Queryable,
  tenantId: string
): Promise<Array<Workspace & { memberCount: number }>> {
  return sql<Array<Workspace & { memberCount: number }>>`
    select ${sql.unsafe(WS_COLUMNS)},
           (select count(*)::int from workspace_members c
            where c.workspace_id = w.id and c.status = 'active') as member_count
    from workspaces w where w.tenant_id = ${tenantId}
    order by w.created_at desc, w.id`;
}

/** Delete a workspace with its members, memories and secrets; false when there was none. */
export async function deleteWorkspace(sql: Queryable, id: string): Promise<boolean> {
  const r = await sql`delete from workspaces where id = ${id}`;
  return r.count > 0;
}

/**
 * Seat an agent. A new seat takes `status`; an invited agent seated again as active (it joins)
 * becomes active; an existing seat is otherwise left as it is.
 */
export async function addWorkspaceMember(
  sql: Queryable,
  input: {
    workspaceId: string;
    agent: { agentId: string; tenantId: string };
    status: MemberStatus;
    addedBy: string;
  }
): Promise<WorkspaceMember> {
  await sql`
    insert into workspace_members (workspace_id, agent_id, tenant_id, role, status, added_by)
    values (${input.workspaceId}, ${input.agent.agentId}, ${input.agent.tenantId}, 'member',
            ${input.status}, ${input.addedBy})
    on conflict (workspace_id, agent_id) do update set
      status = case when excluded.status = 'active' then 'active'
                    else workspace_members.status end`;
  const members = await listWorkspaceMembers(sql, input.workspaceId, input.agent.agentId);
  return firstRow(members, 'addWorkspaceMember');
}

/** Remove a seat; false when the agent had none. */
export async function removeWorkspaceMember(
  sql: Queryable,
  workspaceId: string,
  agentId: string
): Promise<boolean> {
  const r = await sql`
    delete from workspace_members where workspace_id = ${workspaceId} and agent_id = ${agentId}`;
  return r.count > 0;
}

/** The workspace's seats (or one agent's), owners first, then by when they were added. */
export async function listWorkspaceMembers(
  sql: Queryable,
  workspaceId: string,
  agentId?: string
): Promise<WorkspaceMember[]> {
  return sql<WorkspaceMember[]>`
    select m.workspace_id, m.agent_id, m.tenant_id, m.role, m.status, m.added_by, m.added_at,
           a.name
    from workspace_members m join agents a on a.id = m.agent_id
    where m.workspace_id = ${workspaceId}
      ${agentId === undefined ? sql`` : sql`and m.agent_id = ${agentId}`}
    order by (m.role = 'owner') desc, m.added_at, m.agent_id`;
}
