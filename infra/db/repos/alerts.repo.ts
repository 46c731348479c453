// The figures behind a tenant's alerts (interface-spec "dashboard alerts"), read from what the hub
// records anyway: the task index (error rate, traffic) and the rate-limit windows.
import type { Queryable } from './sql.js';

export interface TenantTraffic {
  /** Tasks the tenant's agents sent in the last hour that ended, and how many of them failed. */
  finishedLastHour: number;
  failedLastHour: number;
  /** Messages the tenant's agents sent in the last hour, and per hour over the 7 days before. */
  sentLastHour: number;
  hourlyBaseline: number;
}

export async function tenantTraffic(sql: Queryable, tenantId: string): Promise<TenantTraffic> {
  const [row] = await sql<TenantTraffic[]>`
    select
      count(*) filter (where created_at >= now() - interval '1 hour'
        and state in ('completed', 'failed', 'rejected'))::int as finished_last_hour,
      count(*) filter (where created_at >= now() - interval '1 hour'
        and state in ('failed', 'rejected'))::int as failed_last_hour,
      count(*) filter (where created_at >= now() - interval '1 hour')::int as sent_last_hour,
      (count(*) filter (where created_at < now() - interval '1 hour') / 168.0)::float8
        as hourly_baseline
    from tasks
    where sender_tenant_id = ${tenantId} and created_at >= now() - interval '169 hours'`;
  return row ?? { finishedLastHour: 0, failedLastHour: 0, sentLastHour: 0, hourlyBaseline: 0 };
}

/** Keys of the tenant that went over their limit in the windows since `since`. */
export async function rateLimitedKeys(
  sql: Queryable,
  tenantId: string,
  since: Date,
  defaultLimit: number
): Promise<Array<{ keyPrefix: string; windowStart: Date; hits: number; limit: number }>> {
  return sql`
    select coalesce(k.prefix, '?') as key_prefix, w.window_start, w.hits,
      coalesce(t.rate_limit_per_minute, ${defaultLimit}::int) as limit
    from rate_limit_windows w
    join tenants t on t.id = w.tenant_id
    left join api_keys k on k.key_hash = w.key_hash
    where w.tenant_id = ${tenantId} and w.window_start >= ${since}
      and w.hits > coalesce(t.rate_limit_per_minute, ${defaultLimit}::int)
    order by w.window_start desc`;
}
