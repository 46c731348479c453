// Usage and message statistics (interface-spec "Monitoring"), computed from the task index (the
// `tasks` table every hub node writes): one task is one message sent by its sender and received
// by its recipient, counted on its creation day (UTC). An admin key sees its whole tenant.
import type { Queryable } from './sql.js';

/** Whose traffic: one agent, or every agent of a tenant. */
export type UsageScope = { kind: 'agent'; agentId: string } | { kind: 'tenant'; tenantId: string };

export interface UsageDay {
  date: string;
  messages_sent: number;
  messages_received: number;
  bytes_transferred: number;
}

export interface StatsDay {
  date: string;
  sent: number;
  received: number;
  delivered: number;
  failed: number;
}

export interface TopAgent {
  agentId: string;
  name: string | null;
  messages: number;
}

export interface MessageStats {
  summary: { total: number; sent: number; received: number; delivered: number; failed: number };
  daily: StatsDay[];
  topAgents: TopAgent[];
}

/** States reached only after the recipient got the message. */
const DELIVERED = ['working', 'input-required', 'completed'];
const FAILED = ['failed', 'rejected'];

/** The caller's tasks of the last `days` days (today included), each with its direction. */
function scoped(sql: Queryable, scope: UsageScope, days: number) {
  const sentCol = scope.kind === 'agent' ? sql`sender_id` : sql`sender_tenant_id`;
  const recvCol = scope.kind === 'agent' ? sql`recipient_id` : sql`recipient_tenant_id`;
  const who = scope.kind === 'agent' ? scope.agentId : scope.tenantId;
  return sql`
    select t.*, (${sentCol} = ${who}) as is_sent, (${recvCol} = ${who}) as is_received,
      (created_at at time zone 'UTC')::date as day
    from tasks t
    where (${sentCol} = ${who} or ${recvCol} = ${who})
      and (created_at at time zone 'UTC')::date >= (now() at time zone 'UTC')::date - ${days - 1}::int`;
}

function daysSeries(sql: Queryable, days: number) {
  return sql`
    select d::date as day from generate_series(
      ((now() at time zone 'UTC')::date - ${days - 1}::int)::timestamp,
      (now() at time zone 'UTC')::date::timestamp, interval '1 day') d`;
}

export async function usageByDay(
  sql: Queryable,
  scope: UsageScope,
  days: number
): Promise<UsageDay[]> {
  const rows = await sql<UsageDay[]>`
    with s as (${scoped(sql, scope, days)}), d as (${daysSeries(sql, days)})
    select to_char(d.day, 'YYYY-MM-DD') as date,
      count(s.id) filter (where s.is_sent)::int as messages_sent,
      count(s.id) filter (where s.is_received)::int as messages_received,
      -- A day without tasks still has one joined row, all null: counting a '[]' default for it
      -- reported 4 bytes on empty days. Absent messages or artifacts weigh nothing.
      coalesce(sum(coalesce(octet_length(s.task->>'messages'), 0)
        + coalesce(octet_length(s.task->>'artifacts'), 0)), 0)::float8 as bytes_transferred
    from d left join s on s.day = d.day
    group by d.day order by d.day`;
  // The pool's camelCase transform renamed the columns; the spec wants snake_case names.
  return rows.map((r) => {
    const c = r as unknown as {
      date: string;
      messagesSent: number;
      messagesReceived: number;
      bytesTransferred: number;
    };
    return {
      date: c.date,
      messages_sent: c.messagesSent,
      messages_received: c.messagesReceived,
      bytes_transferred: c.bytesTransferred,
    };
  });
}

export async function messageStats(
  sql: Queryable,
  scope: UsageScope,
  days: number
): Promise<MessageStats> {
  const daily = await sql<StatsDay[]>`
    with s as (${scoped(sql, scope, days)}), d as (${daysSeries(sql, days)})
    select to_char(d.day, 'YYYY-MM-DD') as date,
      count(s.id) filter (where s.is_sent)::int as sent,
      count(s.id) filter (where s.is_received)::int as received,
      count(s.id) filter (where s.state = any(${DELIVERED}))::int as delivered,
      count(s.id) filter (where s.state = any(${FAILED}))::int as failed
    from d left join s on s.day = d.day
    group by d.day order by d.day`;
  const [totals] = await sql<{ total: number }[]>`
    select count(*)::int as total from (${scoped(sql, scope, days)}) s`;
  // For an agent: the other parties it exchanged messages with. For a tenant: its own agents,
  // counting each message once for its sender and once for its recipient when they are the tenant's.
  const parties =
    scope.kind === 'agent'
      ? sql`select case when is_sent then recipient_id else sender_id end as agent_id from s`
      : sql`select sender_id as agent_id from s where is_sent
            union all select recipient_id from s where is_received`;
  const top = await sql<TopAgent[]>`
    with s as (${scoped(sql, scope, days)}), p as (${parties})
    select p.agent_id, a.name, count(*)::int as messages
    from p left join agents a on a.id = p.agent_id
    group by p.agent_id, a.name order by messages desc, p.agent_id limit 10`;
  const sum = (k: keyof Omit<StatsDay, 'date'>) => daily.reduce((n, d) => n + d[k], 0);
  return {
    summary: {
      total: totals?.total ?? 0,
      sent: sum('sent'),
      received: sum('received'),
      delivered: sum('delivered'),
      failed: sum('failed'),
    },
    daily,
    topAgents: top,
  };
}
