// The per-key rate limiter on real PostgreSQL, two limiters on two pools standing for two hub
// nodes (gateway/ratelimit/lease-limiter.ts): they lease the window's allowance from one row, so
// together they admit exactly the limit; concurrent requests share one lease; allowance a node does
// not use goes back (idle, stop, window end) for the other node; the counts the alerts read,
// refused requests included, arrive in batches rather than one write per request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { silentLogger } from '../../runtime/log/index.js';
import {
  createAgent,
  createDb,
  createTenant,
  hashApiKey,
  migrate,
  rateLimitedKeys,
  type Db,
  type Principal,
} from '../../infra/db/index.js';
import {
  createRateLimiter,
  RATE_LIMIT_WINDOW_MS,
  type RateLimiter,
  type RateLimitLeaseSettings,
} from '../../gateway/ratelimit/index.js';

let db: TestDatabase;
let poolA: Db;
let poolB: Db;
let tenantId: string;
let principal: Principal;
/** One fake clock for both nodes, 1 s into a window, so no test straddles a minute. */
const WINDOW = Math.floor(Date.now() / RATE_LIMIT_WINDOW_MS) * RATE_LIMIT_WINDOW_MS;
let clock = WINDOW + 1_000;
let statements = 0;

/** The pool, counting each statement sent through it (a tagged-template call is one). */
function counted(sql: Db): Db {
  return new Proxy(sql, {
    apply(target, self, args: unknown[]) {
      statements += 1;
      return Reflect.apply(target, self, args) as unknown;
    },
  });
}

function node(sql: Db, lease: Partial<RateLimitLeaseSettings> = {}): RateLimiter {
  return createRateLimiter({
    sql: counted(sql),
    defaultLimit: 1_000_000,
    log: silentLogger,
    now: () => clock,
    lease,
  });
}

/** A fresh key of the tenant (each test its own row), limited to `limit` per window. */
async function freshKey(): Promise<string> {
  const { apiKey } = await createAgent(poolA, { tenantId, name: `a${Math.random()}` });
  return hashApiKey(apiKey);
}

async function row(keyHash: string, windowStartMs = WINDOW) {
  const [r] = await poolA<{ hits: number; leased: number }[]>`
    select hits, leased from rate_limit_windows
    where key_hash = ${keyHash} and window_start = ${new Date(windowStartMs)}`;
  return r;
}

/** `n` hits on `limiter` with `concurrency` callers; resolves with how many were admitted. */
async function hammer(limiter: RateLimiter, keyHash: string, n: number, concurrency = 25) {
  let next = 0;
  let admitted = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        next += 1;
        const s = await limiter.hit(keyHash, principal);
        if (s.retryAfter === undefined) admitted += 1;
      }
    })
  );
  return admitted;
}

const LIMIT = 300;

beforeAll(async () => {
  db = await createTestDatabase('burrow_rate_leases');
  poolA = createDb(db.url, { max: 4 });
  poolB = createDb(db.url, { max: 4 });
  await migrate(poolA);
  tenantId = (await createTenant(poolA, { name: 'Acme' })).id;
  await poolA`update tenants set rate_limit_per_minute = ${LIMIT} where id = ${tenantId}`;
  principal = { kind: 'admin', tenantId };
}, 60_000);

afterAll(async () => {
  await poolA?.end({ timeout: 5 });
  await poolB?.end({ timeout: 5 });
  await db?.drop();
});

describe('rate limit leases across two nodes', () => {
  it('admits exactly the limit when both nodes hammer one key at once', async () => {
    const key = await freshKey();
    const a = node(poolA);
    const b = node(poolB);
    statements = 0;
    const [byA, byB] = await Promise.all([hammer(a, key, 4 * LIMIT), hammer(b, key, 4 * LIMIT)]);
    expect(byA + byB).toBe(LIMIT);
    // Nothing written per request: leases and a final write-back per node, not 2,400 upserts.
    await Promise.all([a.stop(), b.stop()]);
    expect(statements).toBeLessThan(100);
    // Every request counted, refused ones too, and the leased total is what was admitted.
    expect(await row(key)).toEqual({ hits: 8 * LIMIT, leased: LIMIT });
  });

  it('shares one lease in flight among the requests waiting on a key', async () => {
    const key = await freshKey();
    const a = node(poolA);
    statements = 0;
    const states = await Promise.all(Array.from({ length: 100 }, () => a.hit(key, principal)));
    expect(states.every((s) => s.retryAfter === undefined)).toBe(true);
    // The first request's lease (1), then one lease for the 99 that waited on it.
    expect(statements).toBe(2);
    // Every admitted request saw its own count of what is left.
    const remaining = states.map((s) => s.remaining).sort((x, y) => x - y);
    expect(remaining).toEqual(Array.from({ length: 100 }, (_, i) => LIMIT - 100 + i));
    await a.stop();
  });

  it('gives back what a stopping node holds, so the other node can admit the rest', async () => {
    const key = await freshKey();
    // A busy key: each lease asks for more than the request waiting on it.
    const a = node(poolA, { busyMs: RATE_LIMIT_WINDOW_MS });
    expect(await hammer(a, key, 100, 1)).toBe(100);
    const held = (await row(key))!.leased - 100;
    expect(held).toBeGreaterThan(0);
    await a.stop();
    expect(await row(key)).toEqual({ hits: 100, leased: 100 });
    const b = node(poolB);
    expect(await hammer(b, key, LIMIT, 5)).toBe(LIMIT - 100);
    await b.stop();
    expect(await row(key)).toEqual({ hits: 100 + LIMIT, leased: LIMIT });
  });

  it('gives back allowance a running node has not touched for idleMs', async () => {
    const key = await freshKey();
    const a = node(poolA, { busyMs: RATE_LIMIT_WINDOW_MS, idleMs: 2_000 });
    expect(await hammer(a, key, 50, 1)).toBe(50);
    expect((await row(key))!.leased).toBeGreaterThan(50);
    await a.flush(); // not idle yet: counts only
    expect((await row(key))!.hits).toBe(50);
    expect((await row(key))!.leased).toBeGreaterThan(50);
    clock += 2_000;
    await a.flush();
    expect(await row(key)).toEqual({ hits: 50, leased: 50 });
    const b = node(poolB);
    expect(await hammer(b, key, LIMIT, 5)).toBe(LIMIT - 50);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('lets the alerts see refused requests from both nodes', async () => {
    const key = await freshKey();
    const a = node(poolA);
    const b = node(poolB);
    await Promise.all([hammer(a, key, LIMIT), hammer(b, key, 70)]);
    // Refused requests are counted locally, then written back with the next batch.
    expect(await row(key)).toMatchObject({ hits: 0 });
    await Promise.all([a.flush(), b.flush()]);
    const since = new Date(WINDOW);
    const over = (await rateLimitedKeys(poolA, tenantId, since, 1_000_000)).filter(
      (w) => w.windowStart.getTime() === WINDOW && w.hits === LIMIT + 70
    );
    expect(over).toHaveLength(1);
    expect(over[0]).toMatchObject({ limit: LIMIT });
    await Promise.all([a.stop(), b.stop()]);
  });

  it('starts each window afresh and gives back what the ended window left', async () => {
    const key = await freshKey();
    const a = node(poolA, { busyMs: RATE_LIMIT_WINDOW_MS });
    expect(await hammer(a, key, LIMIT + 10, 1)).toBe(LIMIT);
    const refused = await a.hit(key, principal);
    expect(refused.retryAfter).toBe(Math.ceil((WINDOW + RATE_LIMIT_WINDOW_MS - clock) / 1000));
    const saved = clock;
    clock = WINDOW + RATE_LIMIT_WINDOW_MS + 1;
    try {
      expect(await hammer(a, key, 10, 1)).toBe(10);
      await a.stop();
      expect(await row(key)).toEqual({ hits: LIMIT + 11, leased: LIMIT });
      expect(await row(key, WINDOW + RATE_LIMIT_WINDOW_MS)).toEqual({ hits: 10, leased: 10 });
    } finally {
      clock = saved;
    }
  });
});
