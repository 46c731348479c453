// Throwaway PostgreSQL databases on the local server, one per test file, so files never see each
// other's tables. drop() uses WITH (FORCE); anything not dropped is dropped at process exit.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createDb, ensureDatabase } from '../../infra/db/index.js';
import { atExit } from './cleanup.js';

/** The server the test databases live on (no database in the path). */
export const TEST_DATABASE_BASE_URL =
  process.env.TEST_DATABASE_BASE_URL ?? 'postgres://postgres@127.0.0.1:5432';

export interface TestDatabase {
  /** postgres://…/<name>, ready for createDb. */
  readonly url: string;
  readonly name: string;
  /** Drop the database, closing whatever connections are still open on it. Idempotent. */
  drop(): Promise<void>;
}

/** Create an empty database named `<prefix>_<12 hex>` and return its URL. */
export async function createTestDatabase(prefix = 'burrow_test'): Promise<TestDatabase> {
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(prefix)) {
    throw new Error(`test database prefix must be lower_snake_case: ${prefix}`);
  }
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const url = databaseUrl(name);
  const adminUrl = databaseUrl('postgres');
  if (!(await ensureDatabase(url))) throw new Error(`test database ${name} already existed`);
  // A test that dies before its afterAll: psql at exit, because nothing asynchronous runs then.
  const forget = atExit(() => {
    spawnSync('psql', ['-X', '-q', adminUrl, '-c', dropStatement(name)], { stdio: 'ignore' });
  });
  let dropped = false;
  return {
    url,
    name,
    async drop() {
      if (dropped) return;
      const admin = createDb(adminUrl, { max: 1 });
      try {
        await admin.unsafe(dropStatement(name));
      } finally {
        await admin.end({ timeout: 5 });
      }
      dropped = true;
      forget();
    },
  };
}

/** The URL of database `name` on the test server. */
export function databaseUrl(name: string): string {
  const u = new URL(TEST_DATABASE_BASE_URL);
  u.pathname = `/${name}`;
  return u.href;
}

/** True if a database of that name exists on the test server. */
export async function databaseExists(name: string): Promise<boolean> {
  const admin = createDb(databaseUrl('postgres'), { max: 1 });
  try {
    const rows = await admin`select 1 from pg_database where datname = ${name}`;
    return rows.length > 0;
  } finally {
    await admin.end({ timeout: 5 });
  }
}

// Names reaching here match /^[a-z_][a-z0-9_]*$/ (or are ours), so quoting cannot be escaped.
function dropStatement(name: string): string {
  return `drop database if exists "${name}" with (force)`;
}
