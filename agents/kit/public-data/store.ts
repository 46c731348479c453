// The SQL behind the public-data upstream client (migration 0018_public_data.sql): the answer cache
// and the token buckets, both in PostgreSQL so that every node of a cluster shares them.
import type { Db } from '../../../infra/db/index.js';

export interface CachedAnswer {
  body: string;
  retrievedAt: Date;
}

export async function readCached(sql: Db, key: string): Promise<CachedAnswer | undefined> {
  const rows = await sql<CachedAnswer[]>`
    select body, retrieved_at from public_data_cache
    where key = ${key} and expires_at > clock_timestamp()`;
  return rows[0];
}

/** Store an answer; expired rows are swept a bounded batch at a time, by whoever writes. */
export async function writeCached(
  sql: Db,
  e: { key: string; source: string; body: string; retrievedAt: Date; ttlMs: number }
): Promise<void> {
  await sql`
    insert into public_data_cache (key, source, body, retrieved_at, expires_at)
    values (${e.key}, ${e.source}, ${e.body}, ${e.retrievedAt},
            clock_timestamp() + ${e.ttlMs} * interval '1 millisecond')
    on conflict (key) do update set
      source = excluded.source, body = excluded.body,
      retrieved_at = excluded.retrieved_at, expires_at = excluded.expires_at`;
  await sql`
    delete from public_data_cache where key in (
      select key from public_data_cache where expires_at <= clock_timestamp() limit 100)`;
}

export async function forgetCached(sql: Db, key: string): Promise<void> {
  await sql`delete from public_data_cache where key = ${key}`;
}

export interface Bucket {
  /** Requests per second the bucket refills. */
  rate: number;
  /** Most requests it holds (the burst). */
  capacity: number;
}

/**
 * Take one token from `upstream`'s bucket. Resolves 0 when taken, else the milliseconds to wait
 * before trying again (a token's refill time, or what is left of the upstream's Retry-After).
 * The row is locked for the read-modify-write, so nodes taking at once each see the other's take.
 */
export async function takeToken(sql: Db, upstream: string, b: Bucket): Promise<number> {
  return sql.begin(async (tx) => {
    await tx`
      insert into public_data_buckets (upstream, tokens, refilled_at)
      values (${upstream}, ${b.capacity}, clock_timestamp())
      on conflict (upstream) do nothing`;
    const [row] = await tx<Array<{ tokens: number; elapsed: number; blocked: number }>>`
      select tokens,
             extract(epoch from clock_timestamp() - refilled_at)::float8 as elapsed,
             greatest(0, coalesce(extract(epoch from blocked_until - clock_timestamp()), 0))::float8
               as blocked
      from public_data_buckets where upstream = ${upstream} for update`;
    const available = Math.min(b.capacity, row!.tokens + Math.max(0, row!.elapsed) * b.rate);
    const take = row!.blocked <= 0 && available >= 1;
    await tx`
      update public_data_buckets
      set tokens = ${take ? available - 1 : available}, refilled_at = clock_timestamp()
      where upstream = ${upstream}`;
    if (take) return 0;
    if (row!.blocked > 0) return Math.ceil(row!.blocked * 1000);
    return Math.ceil(((1 - available) / b.rate) * 1000);
  });
}

/**
 * Reserve the next turn in `upstream`'s bucket: the token is taken now, even ahead of its refill
 * (the count goes below zero), and the answer is how long to wait for it. Turns are handed out
 * under the row lock, so callers on every node are served in the order they asked. A turn further
 * than `maxWaitMs` away is not reserved (`reserved: false`, `wait` says how far); while the
 * upstream's Retry-After holds, nothing is reserved and `wait` is what is left of it.
 */
export async function reserveToken(
  sql: Db,
  upstream: string,
  b: Bucket,
  maxWaitMs: number
): Promise<{ reserved: boolean; wait: number }> {
  return sql.begin(async (tx) => {
    await tx`
      insert into public_data_buckets (upstream, tokens, refilled_at)
      values (${upstream}, ${b.capacity}, clock_timestamp())
      on conflict (upstream) do nothing`;
    const [row] = await tx<Array<{ tokens: number; elapsed: number; blocked: number }>>`
      select tokens,
             extract(epoch from clock_timestamp() - refilled_at)::float8 as elapsed,
             greatest(0, coalesce(extract(epoch from blocked_until - clock_timestamp()), 0))::float8
               as blocked
      from public_data_buckets where upstream = ${upstream} for update`;
    if (row!.blocked > 0) return { reserved: false, wait: Math.ceil(row!.blocked * 1000) };
    const available = Math.min(b.capacity, row!.tokens + Math.max(0, row!.elapsed) * b.rate);
    const wait = available >= 1 ? 0 : Math.ceil(((1 - available) / b.rate) * 1000);
    const reserved = wait <= maxWaitMs;
    await tx`
      update public_data_buckets
      set tokens = ${reserved ? available - 1 : available}, refilled_at = clock_timestamp()
      where upstream = ${upstream}`;
    return { reserved, wait };
  });
}

/** The upstream said Retry-After: no node asks it again before `ms` from now. */
export async function blockUpstream(sql: Db, upstream: string, ms: number): Promise<void> {
  await sql`
    insert into public_data_buckets (upstream, tokens, refilled_at, blocked_until)
    values (${upstream}, 0, clock_timestamp(), clock_timestamp() + ${ms} * interval '1 millisecond')
    on conflict (upstream) do update set
      blocked_until = greatest(coalesce(public_data_buckets.blocked_until, clock_timestamp()),
                               excluded.blocked_until)`;
}
