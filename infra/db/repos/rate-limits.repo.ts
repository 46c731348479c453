// Rate-limit counters (decisions.md §7): one row per API key and window in PostgreSQL, so every
// hub node counts into the same row and two nodes never double a key's limit.
import { firstRow, type Queryable } from './sql.js';

export interface RateLimitHit {
  /** Requests of this key in this window, this one included. */
  readonly hits: number;
  /** The key's limit per window: the tenant's own, else the default. */
  readonly limit: number;
}

/**
 * Count one request of a key in a window and read its limit, in one statement: the upsert is
 * atomic, so concurrent requests on any number of nodes each see a distinct count.
 */
export async function hitRateLimit(
  sql: Queryable,
  hit: { keyHash: string; tenantId: string; windowStart: Date; defaultLimit: number }
): Promise<RateLimitHit> {
  const rows = await sql<{ hits: number; limit: number }[]>`
    insert into rate_limit_windows (key_hash, window_start, tenant_id)
    values (${hit.keyHash}, ${hit.windowStart}, ${hit.tenantId})
    on conflict (key_hash, window_start) do update set hits = rate_limit_windows.hits + 1
    returning hits,
      coalesce((select rate_limit_per_minute from tenants where id = ${hit.tenantId}),
               ${hit.defaultLimit}::int) as limit`;
  return firstRow(rows, 'rate limit upsert');
}

/** Delete windows that started before `before`; resolves with how many went. */
export async function sweepRateLimitWindows(sql: Queryable, before: Date): Promise<number> {
  const rows = await sql`delete from rate_limit_windows where window_start < ${before}`;
  return rows.count;
}

/** Set (or with null, clear) a tenant's own limit. Resolves false for an unknown tenant. */
export async function setTenantRateLimit(
  sql: Queryable,
  tenantId: string,
  perMinute: number | null
): Promise<boolean> {
  const rows = await sql`
    update tenants set rate_limit_per_minute = ${perMinute} where id = ${tenantId}`;
  return rows.count === 1;
}
