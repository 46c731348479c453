// Who may do what in a workspace. An agent acts through its seat: none (or another tenant's
// workspace it was never invited to) is WORKSPACE_NOT_FOUND, exactly as for an unknown id; an
// invited seat may only look, join or decline. A tenant admin key manages its tenant's workspaces
// (members, delete) but is no member: memories and secrets are for member agents only.
import { HubError } from '../../runtime/errors/index.js';
import {
  getWorkspace,
  workspaceSeat,
  type Principal,
  type Queryable,
  type Workspace,
  type WorkspaceSeat,
} from '../../infra/db/index.js';

export type Access =
  | { readonly kind: 'agent'; readonly seat: WorkspaceSeat; readonly agentId: string }
  | { readonly kind: 'admin'; readonly workspace: Workspace };

export function notFound(id: string): HubError {
  return new HubError('WORKSPACE_NOT_FOUND', `No workspace ${id}`, { data: { workspaceId: id } });
}

/** The caller's standing in the workspace, or WORKSPACE_NOT_FOUND. */
export async function accessTo(sql: Queryable, p: Principal, id: string): Promise<Access> {
  if (p.kind === 'admin') {
    const workspace = await getWorkspace(sql, id);
    if (workspace === null || workspace.tenantId !== p.tenantId) throw notFound(id);
    return { kind: 'admin', workspace };
  }
  const seat = await workspaceSeat(sql, id, p.agentId);
  if (seat === null) throw notFound(id);
  return { kind: 'agent', seat, agentId: p.agentId };
}

/** An active member agent (memories, secrets), or FORBIDDEN naming what is missing. */
export function requireActiveMember(a: Access): { seat: WorkspaceSeat; agentId: string } {
  if (a.kind === 'admin') {
    throw new HubError(
      'FORBIDDEN',
      "A workspace's memories and secrets are for its member agents; use a member agent's key"
    );
  }
  if (a.seat.status !== 'active') {
    throw new HubError(
      'FORBIDDEN',
      `Agent ${a.agentId} is invited to workspace ${a.seat.id}: join it first ` +
        '(members.add with its own agentId)'
    );
  }
  return a;
}

/** The owner agent or the owning tenant's admin (delete, remove others), or FORBIDDEN. */
export function requireManager(a: Access): void {
  if (a.kind === 'admin') return;
  if (a.seat.role !== 'owner' || a.seat.status !== 'active') {
    throw new HubError('FORBIDDEN', `Only the owner of workspace ${a.seat.id} may do this`);
  }
}

export function workspaceOf(a: Access): Workspace {
  return a.kind === 'admin' ? a.workspace : a.seat;
}
