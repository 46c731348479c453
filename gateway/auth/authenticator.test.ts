import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newApiKey, type Principal, type Queryable } from '../../infra/db/index.js';
import { HubError } from '../../runtime/errors/index.js';
import { silentLogger } from '../../runtime/log/index.js';
import { createAuthenticator } from './authenticator.js';

interface Row {
  tenantId: string;
  agentId: string | null;
}

/** A stand-in for postgres.js that answers the principal query from `rows` (by key hash). */
function fakeSql(rows: Map<string, Row>) {
  const calls: string[] = [];
  let gate: Promise<void> = Promise.resolve();
  let failWith: Error | undefined;
  const sql = (_strings: TemplateStringsArray, ...values: unknown[]) => {
    const hash = values[0] as string;
    calls.push(hash);
    return gate.then(() => {
      if (failWith !== undefined) throw failWith;
      const row = rows.get(hash);
      return row ? [row] : [];
    });
  };
  return {
    sql: sql as unknown as Queryable,
    calls,
    /** Hold every query until the returned function is called. */
    hold(): () => void {
      let release!: () => void;
      gate = new Promise((r) => (release = r));
      return () => {
        release();
        gate = Promise.resolve();
      };
    },
    fail(err: Error | undefined) {
      failWith = err;
    },
  };
}

async function rejection(p: Promise<unknown>): Promise<HubError> {
  const err: unknown = await p.then(
    () => undefined,
    (e: unknown) => e
  );
  expect(err).toBeInstanceOf(HubError);
  return err as HubError;
}

describe('createAuthenticator', () => {
  const agentKey = newApiKey();
  const adminKey = newApiKey();
  const rows = new Map<string, Row>([
    [agentKey.hash, { tenantId: 'ten-1', agentId: 'agent-1' }],
    [adminKey.hash, { tenantId: 'ten-1', agentId: null }],
  ]);
  const agent: Principal = { kind: 'agent', agentId: 'agent-1', tenantId: 'ten-1' };

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shares one query among concurrent look-ups of a key, then answers from the cache', async () => {
    const db = fakeSql(rows);
    const auth = createAuthenticator({ sql: db.sql, log: silentLogger });
    const release = db.hold();
    const pending = Array.from({ length: 10 }, () => auth.authenticate(`Bearer ${agentKey.key}`));
    release();
    for (const p of await Promise.all(pending)) expect(p).toEqual(agent);
    await auth.authenticate(`Bearer ${agentKey.key}`);
    expect(db.calls).toEqual([agentKey.hash]);
    await expect(auth.authenticate(`Bearer ${adminKey.key}`)).resolves.toEqual({
      kind: 'admin',
      tenantId: 'ten-1',
    });
  });

  it('tells the key hash of each principal it returned, and of no other object', async () => {
    const db = fakeSql(rows);
    const auth = createAuthenticator({ sql: db.sql, log: silentLogger });
    const first = await auth.authenticate(`Bearer ${agentKey.key}`);
    const cached = await auth.authenticate(`Bearer ${agentKey.key}`);
    const admin = await auth.authenticate(`Bearer ${adminKey.key}`);
    expect(auth.keyHashOf?.(first)).toBe(agentKey.hash);
    expect(auth.keyHashOf?.(cached)).toBe(agentKey.hash);
    expect(auth.keyHashOf?.(admin)).toBe(adminKey.hash);
    // An equal object it did not hand out (a caller's copy) has no hash: the caller hashes.
    expect(auth.keyHashOf?.({ ...first })).toBeUndefined();
  });

  it('asks again once the TTL has passed', async () => {
    const db = fakeSql(rows);
    const auth = createAuthenticator({ sql: db.sql, log: silentLogger, cacheTtlMs: 1000 });
    await auth.authenticate(`Bearer ${agentKey.key}`);
    vi.advanceTimersByTime(999);
    await auth.authenticate(`Bearer ${agentKey.key}`);
    expect(db.calls).toHaveLength(1);
    vi.advanceTimersByTime(2);
    await auth.authenticate(`Bearer ${agentKey.key}`);
    expect(db.calls).toHaveLength(2);
  });

  it('remembers unknown keys for the negative TTL only', async () => {
    const db = fakeSql(rows);
    const auth = createAuthenticator({ sql: db.sql, log: silentLogger, negativeTtlMs: 5000 });
    const unknown = `Bearer ${newApiKey().key}`;
    expect((await rejection(auth.authenticate(unknown))).message).toBe('unknown API key');
    expect((await rejection(auth.authenticate(unknown))).code).toBe('UNAUTHENTICATED');
    expect(db.calls).toHaveLength(1);
    vi.advanceTimersByTime(5001);
    await rejection(auth.authenticate(unknown));
    expect(db.calls).toHaveLength(2);
  });

  it('known(): what the caches alone say, never a query', async () => {
    const db = fakeSql(rows);
    const auth = createAuthenticator({ sql: db.sql, log: silentLogger });
    const unknown = `Bearer ${newApiKey().key}`;
    expect(auth.known(`Bearer ${agentKey.key}`)).toBeUndefined();
    expect(auth.known(unknown)).toBeUndefined();
    for (const bad of [undefined, '', 'Basic abc', 'Bearer not-a-key']) {
      expect(auth.known(bad)).toBeNull();
    }
    expect(db.calls).toEqual([]);
    await auth.authenticate(`Bearer ${agentKey.key}`);
    await rejection(auth.authenticate(unknown));
    expect(auth.known(`Bearer ${agentKey.key}`)).toEqual(agent);
    expect(auth.known(unknown)).toBeNull();
    expect(db.calls).toHaveLength(2);
  });

  it('never queries for a header or key that cannot be one of ours', async () => {
    const db = fakeSql(rows);
    const auth = createAuthenticator({ sql: db.sql, log: silentLogger });
    for (const h of [undefined, 'Basic x', 'Bearer short', `Bearer ${agentKey.key}x`]) {
      expect((await rejection(auth.authenticate(h))).code).toBe('UNAUTHENTICATED');
    }
    expect(db.calls).toEqual([]);
  });

  it('keeps at most maxEntries principals, dropping the oldest', async () => {
    const db = fakeSql(rows);
    const auth = createAuthenticator({ sql: db.sql, log: silentLogger, maxEntries: 1 });
    await auth.authenticate(`Bearer ${agentKey.key}`);
    await auth.authenticate(`Bearer ${adminKey.key}`);
    await auth.authenticate(`Bearer ${agentKey.key}`);
    expect(db.calls).toEqual([agentKey.hash, adminKey.hash, agentKey.hash]);
  });

  it('does not cache an answer read before an invalidation', async () => {
    const db = fakeSql(rows);
    const auth = createAuthenticator({ sql: db.sql, log: silentLogger });
    const release = db.hold();
    const first = auth.authenticate(`Bearer ${agentKey.key}`);
    auth.invalidateKeyHash(agentKey.hash);
    release();
    await first;
    await auth.authenticate(`Bearer ${agentKey.key}`);
    expect(db.calls).toHaveLength(2);
  });

  it('drops an agent’s cached principals on invalidateAgent, and everything on close', async () => {
    const db = fakeSql(rows);
    const auth = createAuthenticator({ sql: db.sql, log: silentLogger });
    await auth.authenticate(`Bearer ${agentKey.key}`);
    await auth.authenticate(`Bearer ${adminKey.key}`);
    auth.invalidateAgent('agent-1');
    await auth.authenticate(`Bearer ${agentKey.key}`);
    await auth.authenticate(`Bearer ${adminKey.key}`);
    expect(db.calls).toEqual([agentKey.hash, adminKey.hash, agentKey.hash]);
    auth.close();
    await auth.authenticate(`Bearer ${adminKey.key}`);
    expect(db.calls).toHaveLength(4);
  });

  it('reports a database failure as UNAVAILABLE (503), not as a bad key, and caches nothing', async () => {
    const db = fakeSql(rows);
    const auth = createAuthenticator({ sql: db.sql, log: silentLogger });
    db.fail(new Error('connection refused'));
    const err = await rejection(auth.authenticate(`Bearer ${agentKey.key}`));
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.httpStatus).toBe(503);
    db.fail(undefined);
    await expect(auth.authenticate(`Bearer ${agentKey.key}`)).resolves.toEqual(agent);
  });
});
