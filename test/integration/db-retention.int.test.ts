// postgres.js keeps, for the life of the process, an Error made at the first run of each tagged
// template, and that Error's stack holds the functions it ran through and so their closures. A
// transaction's callback, or the directory's whole read closing over the model it builds (750 MB
// at 1,000,000 agents), must not be kept that way. The first commit and the first run of each of
// the read's queries in a process are the ones kept: this file runs in a process of its own.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, migrate, type Db } from '../../infra/db/index.js';
import { inTransaction, readDirectoryChunks } from '../../infra/db/repos/index.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** True when nothing but the WeakRef holds its target any more. */
async function collected(ref: WeakRef<object>): Promise<boolean> {
  for (let i = 0; i < 3; i++) {
    gc();
    // A WeakRef read in this job keeps its target until the job ends.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return ref.deref() === undefined;
}

let tdb: TestDatabase;
let sql: Db;

beforeAll(async () => {
  tdb = await createTestDatabase('burrow_retention');
  sql = createDb(tdb.url, { max: 2 });
});

afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await tdb?.drop();
});

// Each helper holds its object only in the closure it hands over, and returns a weak reference.
async function commitClosingOver(db: Db): Promise<WeakRef<object>> {
  const held = { bytes: new Uint8Array(1 << 20) };
  const n = await inTransaction(db, () => Promise.resolve(held.bytes.length));
  expect(n).toBe(1 << 20);
  return new WeakRef(held);
}

async function readClosingOver(db: Db): Promise<WeakRef<object>> {
  const held = { bytes: new Uint8Array(1 << 20), tenants: 0, counted: -1 };
  await readDirectoryChunks(
    db,
    100,
    (chunk) => {
      held.tenants += chunk.tenants.length;
      return Promise.resolve();
    },
    (agents) => {
      held.counted = agents;
    }
  );
  expect(held.counted).toBe(0);
  return new WeakRef(held);
}

describe('what a finished transaction leaves reachable', () => {
  it('keeps nothing of the callback of the first transaction the process commits', async () => {
    const ref = await commitClosingOver(sql);
    expect(await collected(ref)).toBe(true);
  });

  it("keeps nothing of what the directory's whole read hands its rows to", async () => {
    await migrate(sql);
    const ref = await readClosingOver(sql);
    expect(await collected(ref)).toBe(true);
  });
});
