// Rate-limit windows (decisions.md §7): one row per API key and one-minute window in PostgreSQL,
// shared by every hub node. Nodes lease blocks of the window's allowance from the row (never more
// than the limit in all), admit from their lease without I/O, and write back in batches what they
// counted and what they did not use (gateway/ratelimit/lease-limiter.ts).
import { firstRow, type Queryable } from './sql.js';

export interface RateLimitLease {
  /** Allowance granted by this lease: min(asked, limit − leased before it), so possibly 0. */
  readonly granted: number;
  /** Allowance leased in this window by all nodes so far, this grant included. */
  readonly leased: number;
  /** The key's limit per window: the tenant's own, else the default. */
  readonly limit: number;
}

/**
 * Lease up to `want` requests of a key's window and read its limit, in one statement. The row
 * lock of the upsert makes grants from any number of nodes add up to at most the limit.
 */
export async function leaseRateLimit(
  sql: Queryable,
  lease: {
    keyHash: string;
    tenantId: string;
    windowStart: Date;
    want: number;
    defaultLimit: number;
  }
): Promise<RateLimitLease> {
  const rows = await sql<RateLimitLease[]>`
    with lim as (
      select coalesce((select rate_limit_per_minute from tenants where id = ${lease.tenantId}),
                      ${lease.defaultLimit}::int) as n)
    insert into rate_limit_windows as w (key_hash, window_start, tenant_id, leased, granted)
    select ${lease.keyHash}, ${lease.windowStart}, ${lease.tenantId},
      least(${lease.want}::int, n), least(${lease.want}::int, n)
    from lim
    on conflict (key_hash, window_start) do update set
      granted = least(${lease.want}::int, greatest(0, (select n from lim) - w.leased)),
      leased = w.leased + least(${lease.want}::int, greatest(0, (select n from lim) - w.leased))
    returning granted, leased, (select n from lim) as limit`;
  return firstRow(rows, 'rate limit lease');
}

/** What one node counted in one window since its last report, and the allowance it gives back. */
export interface RateLimitUsage {
  readonly keyHash: string;
  readonly windowStart: Date;
  /** Requests counted, admitted and refused. */
  readonly hits: number;
  /** Leased allowance the node no longer holds unused. */
  readonly returned: number;
}

/**
 * Add a batch of counts and returns, one statement for any number of windows. Each (key, window)
 * must appear once. A window swept meanwhile (older than the alerts read) is skipped.
 */
export async function recordRateLimitUsage(
  sql: Queryable,
  usage: readonly RateLimitUsage[]
): Promise<void> {
  if (usage.length === 0) return;
  await sql`
    update rate_limit_windows w
    set hits = w.hits + u.hits, leased = greatest(0, w.leased - u.returned)
    from unnest(${sql.array(usage.map((u) => u.keyHash))}::text[],
                ${sql.array(usage.map((u) => u.windowStart.toISOString()))}::timestamptz[],
                ${sql.array(usage.map((u) => u.hits))}::int[],
                ${sql.array(usage.map((u) => u.returned))}::int[])
      as u(key_hash, window_start, hits, returned)
    where w.key_hash = u.key_hash and w.window_start = u.window_start`;
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
