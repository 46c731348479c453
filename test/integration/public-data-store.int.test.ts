// The public-data agents' shared cache and token buckets (agents/kit/public-data/store.ts) on a
// real PostgreSQL: two clients (as two nodes) share one bucket, a Retry-After blocks every node,
// and cached answers expire and are swept.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb, migrate, type Db } from '../../infra/db/index.js';
import {
  blockUpstream,
  readCached,
  takeToken,
  writeCached,
} from '../../agents/kit/public-data/store.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';

let tdb: TestDatabase;
let nodeA: Db;
let nodeB: Db;

beforeAll(async () => {
  tdb = await createTestDatabase();
  nodeA = createDb(tdb.url, { max: 2 });
  nodeB = createDb(tdb.url, { max: 2 });
  await migrate(nodeA);
});
afterAll(async () => {
  await nodeA?.end();
  await nodeB?.end();
  await tdb?.drop();
});

describe('token buckets', () => {
  it('gives a burst of `capacity`, then a wait of one token’s refill, across nodes', async () => {
    const bucket = { rate: 2, capacity: 3 };
    const waits = await Promise.all([
      takeToken(nodeA, 'burst', bucket),
      takeToken(nodeB, 'burst', bucket),
      takeToken(nodeA, 'burst', bucket),
    ]);
    expect(waits).toEqual([0, 0, 0]);
    // At most one token's refill (500 ms); less by however long the takes above took.
    const wait = await takeToken(nodeB, 'burst', bucket);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(500);
    // Must stay: the bucket refills on PostgreSQL's clock, and the wait it named is the contract.
    await sleep(wait + 20);
    expect(await takeToken(nodeA, 'burst', bucket)).toBe(0);
  });

  it('never lets concurrent takers exceed the bucket', async () => {
    const bucket = { rate: 0.01, capacity: 5 };
    const waits = await Promise.all(
      Array.from({ length: 12 }, (_, i) => takeToken(i % 2 ? nodeA : nodeB, 'race', bucket))
    );
    expect(waits.filter((w) => w === 0)).toHaveLength(5);
  });

  it('holds every node back until a Retry-After has passed', async () => {
    const bucket = { rate: 100, capacity: 100 };
    expect(await takeToken(nodeA, 'blocked', bucket)).toBe(0);
    await blockUpstream(nodeA, 'blocked', 800);
    // What is left of the 800 ms block, less however long the calls above took.
    const wait = await takeToken(nodeB, 'blocked', bucket);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(800);
    // Must stay: the block ends on PostgreSQL's clock, and the wait it named is the contract.
    await sleep(wait + 20);
    expect(await takeToken(nodeB, 'blocked', bucket)).toBe(0);
  });
});

describe('the answer cache', () => {
  it('serves an answer to every node until it expires, then sweeps it', async () => {
    const retrievedAt = new Date('2026-11-01T10:00:00Z');
    await writeCached(nodeA, { key: 'k1', source: 'S', body: '{"a":1}', retrievedAt, ttlMs: 1000 });
    expect(await readCached(nodeB, 'k1')).toEqual({ body: '{"a":1}', retrievedAt });
    // It expires on PostgreSQL's clock: wait until node B no longer reads it.
    await vi.waitFor(async () => expect(await readCached(nodeB, 'k1')).toBeUndefined(), {
      timeout: 10_000,
      interval: 50,
    });
    await writeCached(nodeB, { key: 'k2', source: 'S', body: 'null', retrievedAt, ttlMs: 60_000 });
    const left = await nodeA`select key from public_data_cache order by key`;
    expect(left.map((r) => r.key as string)).toEqual(['k2']);
  });
});
