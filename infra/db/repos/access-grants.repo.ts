// Access grants (issue 28 item 2, migration 0023): an agent asks to message another tenant's
// private agent; the owner's tenant approves or denies (or the agent approves every request at once,
// `auto_approve`). An approved request lets exactly that pair message each other, either way.
import { randomBytes } from 'node:crypto';
import { InvalidParamsError } from '../../../runtime/errors/index.js';
import { firstRow, type Queryable } from './sql.js';

export type AccessStatus = 'pending' | 'approved' | 'denied';
export const ACCESS_STATUSES: readonly AccessStatus[] = ['pending', 'approved', 'denied'];
export const ACCESS_REQUEST_ID = /^acr_[0-9a-f]{24}$/;
const MESSAGE_MAX = 500;

export interface AccessRequest {
  readonly id: string;
  readonly requesterAgentId: string;
  readonly requesterTenantId: string;
  readonly targetAgentId: string;
  readonly targetTenantId: string;
  readonly status: AccessStatus;
  readonly message: string;
  readonly createdAt: Date;
  readonly decidedAt: Date | null;
}

const COLUMNS = `id, requester_agent_id, requester_tenant_id, target_agent_id, target_tenant_id,
  status, message, created_at, decided_at`;

/** The note a requester attaches, or INVALID_PARAMS naming `message`. */
export function accessMessage(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string' || value.length > MESSAGE_MAX) {
    throw new InvalidParamsError(
      'message',
      `must be a string of at most ${MESSAGE_MAX} characters`
    );
  }
  return value;
}

/**
 * Ask for access (or ask again). A pending or denied request is reopened as pending; an approved
 * one stays approved; when the target auto-approves, the request is approved at once.
 */
export async function requestAccess(
  sql: Queryable,
  input: {
    requester: { agentId: string; tenantId: string };
    target: { agentId: string; tenantId: string };
    message: string;
  }
): Promise<AccessRequest> {
  const id = `acr_${randomBytes(12).toString('hex')}`;
  const rows = await sql<AccessRequest[]>`
    with auto as (
      select coalesce((select auto_approve from agent_access_settings
                       where agent_id = ${input.target.agentId}), false) as yes
    )
    insert into access_requests
      (id, requester_agent_id, requester_tenant_id, target_agent_id, target_tenant_id, status,
       message, decided_at)
    select ${id}, ${input.requester.agentId}, ${input.requester.tenantId}, ${input.target.agentId},
           ${input.target.tenantId},
           case when auto.yes then 'approved' else 'pending' end, ${input.message},
           case when auto.yes then now() end
    from auto
    on conflict (requester_agent_id, target_agent_id) do update set
      status = case when access_requests.status = 'approved' then 'approved' else excluded.status end,
      message = excluded.message,
      decided_at = case when access_requests.status = 'approved' then access_requests.decided_at
                        else excluded.decided_at end
    returning ${sql.unsafe(COLUMNS)}`;
  return firstRow(rows, 'requestAccess');
}

/** Requests to the tenant's agents, newest first; optionally one status or one target agent. */
export async function listAccessRequests(
  sql: Queryable,
  tenantId: string,
  filter: { status?: AccessStatus; agentId?: string } = {}
): Promise<AccessRequest[]> {
  return sql<AccessRequest[]>`
    select ${sql.unsafe(COLUMNS)} from access_requests
    where target_tenant_id = ${tenantId}
      ${filter.status ? sql`and status = ${filter.status}` : sql``}
      ${filter.agentId ? sql`and target_agent_id = ${filter.agentId}` : sql``}
    order by created_at desc, id
    limit 1000`;
}

/** Approve or deny a request to one of the tenant's agents; null when it has no such request. */
export async function decideAccessRequest(
  sql: Queryable,
  tenantId: string,
  requestId: string,
  status: 'approved' | 'denied'
): Promise<AccessRequest | null> {
  const rows = await sql<AccessRequest[]>`
    update access_requests set status = ${status}, decided_at = now()
    where id = ${requestId} and target_tenant_id = ${tenantId}
    returning ${sql.unsafe(COLUMNS)}`;
  return rows[0] ?? null;
}

/** May these two agents message each other by a grant (either one asked, the other approved)? */
export async function hasAccessGrant(sql: Queryable, a: string, b: string): Promise<boolean> {
  const rows = await sql<Array<{ yes: boolean }>>`
    select exists (
      select 1 from access_requests
      where status = 'approved'
        and ((requester_agent_id = ${a} and target_agent_id = ${b})
          or (requester_agent_id = ${b} and target_agent_id = ${a}))
    ) as yes`;
  return rows[0]?.yes === true;
}

/** The live agents `agentId` holds a grant with, in either direction. */
export async function grantedPeers(sql: Queryable, agentId: string): Promise<string[]> {
  const rows = await sql<Array<{ peer: string }>>`
    select case when r.requester_agent_id = ${agentId} then r.target_agent_id
                else r.requester_agent_id end as peer
    from access_requests r
    where r.status = 'approved'
      and (r.requester_agent_id = ${agentId} or r.target_agent_id = ${agentId})`;
  const peers = rows.map((r) => r.peer);
  if (peers.length === 0) return [];
  const live = await sql<Array<{ id: string }>>`
    select id from agents where id = any(${peers}) and deleted_at is null order by id`;
  return live.map((r) => r.id);
}

export async function getAutoApprove(sql: Queryable, agentId: string): Promise<boolean> {
  const rows = await sql<Array<{ autoApprove: boolean }>>`
    select auto_approve from agent_access_settings where agent_id = ${agentId}`;
  return rows[0]?.autoApprove === true;
}

/** Set the agent's auto-approve; turning it on approves the requests already pending. */
export async function setAutoApprove(
  sql: Queryable,
  agentId: string,
  on: boolean
): Promise<{ autoApprove: boolean; approved: number }> {
  await sql`
    insert into agent_access_settings (agent_id, auto_approve) values (${agentId}, ${on})
    on conflict (agent_id) do update set auto_approve = excluded.auto_approve, updated_at = now()`;
  if (!on) return { autoApprove: false, approved: 0 };
  const approved = await sql`
    update access_requests set status = 'approved', decided_at = now()
    where target_agent_id = ${agentId} and status = 'pending'`;
  return { autoApprove: true, approved: approved.count };
}
