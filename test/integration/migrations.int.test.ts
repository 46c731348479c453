// infra/db against the real PostgreSQL: migrations apply once, in order, one transaction each,
// even when two nodes start together; history mismatches stop the run; ensureDatabase races.
import { mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createDb,
  ensureDatabase,
  migrate,
  MigrationError,
  readMigrations,
  type Db,
} from '../../infra/db/index.js';
import {
  createTestDatabase,
  databaseExists,
  databaseUrl,
  type TestDatabase,
} from '../support/postgres.js';

const pools: Db[] = [];
function pool(url: string, max = 2): Db {
  const db = createDb(url, { max });
  pools.push(db);
  return db;
}

let testDb: TestDatabase | undefined;
beforeEach(async () => {
  testDb = await createTestDatabase('burrow_test_migrations');
});
afterEach(async () => {
  await Promise.all(pools.splice(0).map((db) => db.end({ timeout: 5 })));
  await testDb?.drop();
});

function current(): TestDatabase {
  if (!testDb) throw new Error('no test database');
  return testDb;
}

async function recorded(db: Db): Promise<{ version: number; name: string }[]> {
  return db<{ version: number; name: string }[]>`
    select version, name from schema_migrations order by version`;
}

describe('migrate with the project migrations', () => {
  it('applies every file in order, then nothing on a second run', async () => {
    const files = await readMigrations();
    expect(files.map((f) => f.file)).toContain('0001_extensions.sql');
    const db = pool(current().url);

    const first = await migrate(db);
    expect(first.applied).toEqual(files.map((f) => f.file.replace(/\.sql$/, '')));
    expect(await recorded(db)).toEqual(files.map((f) => ({ version: f.version, name: f.name })));
    const ext = await db<{ extname: string }[]>`select extname from pg_extension`;
    expect(ext.map((e) => e.extname)).toEqual(
      expect.arrayContaining(['pg_trgm', 'unaccent', 'cube', 'earthdistance'])
    );

    const second = await migrate(db);
    expect(second.applied).toEqual([]);
    expect(await recorded(db)).toHaveLength(files.length);
  });

  it('returns schema_migrations rows with camelCase columns', async () => {
    const db = pool(current().url);
    await migrate(db);
    const [row] = await db`select * from schema_migrations where version = 1`;
    expect(row).toMatchObject({ version: 1, name: 'extensions' });
    expect(row?.appliedAt).toBeInstanceOf(Date);
  });

  it('applies each migration exactly once when two nodes migrate at the same moment', async () => {
    const files = await readMigrations();
    // Separate pools, as two hub processes would have.
    const a = pool(current().url);
    const b = pool(current().url);
    const [ra, rb] = await Promise.all([migrate(a), migrate(b)]);
    const all = [...ra.applied, ...rb.applied].sort();
    expect(all).toEqual(files.map((f) => f.file.replace(/\.sql$/, '')));
    expect(await recorded(a)).toHaveLength(files.length);
  });

  it('works on a pool of one connection', async () => {
    const db = pool(current().url, 1);
    const { applied } = await migrate(db);
    expect(applied.length).toBeGreaterThan(0);
    expect(await db`select 1 as one`).toEqual([{ one: 1 }]);
  });
});

describe('migrate with a scratch migrations directory', () => {
  let dir: string;
  let dirUrl: URL;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'burrow-migrations-'));
    dirUrl = pathToFileURL(`${dir}/`);
    writeFileSync(join(dir, '0001_first.sql'), 'create table first (id int primary key);');
    writeFileSync(join(dir, '0002_second.sql'), 'create table second (id int primary key);');
    writeFileSync(join(dir, 'README.md'), 'not a migration');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs several statements of one file and applies new files later', async () => {
    writeFileSync(
      join(dir, '0003_rows.sql'),
      'insert into first values (1);\ninsert into first values (2);\n-- a comment\n'
    );
    const db = pool(current().url);
    expect((await migrate(db, { dir: dirUrl })).applied).toEqual([
      '0001_first',
      '0002_second',
      '0003_rows',
    ]);
    writeFileSync(join(dir, '0004_more.sql'), 'insert into first values (3);');
    expect((await migrate(db, { dir: dirUrl })).applied).toEqual(['0004_more']);
    expect(await db`select id from first order by id`).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it('rolls a failing migration back entirely and records nothing for it', async () => {
    writeFileSync(
      join(dir, '0003_broken.sql'),
      'create table third (id int);\ninsert into nowhere values (1);'
    );
    const db = pool(current().url);
    const err = await migrate(db, { dir: dirUrl }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MigrationError);
    expect(String(err)).toMatch(/0003_broken\.sql.*nowhere/);
    expect((await recorded(db)).map((r) => r.version)).toEqual([1, 2]);
    const third = await db`select to_regclass('third') as t`;
    expect(third).toEqual([{ t: null }]);
    // The lock was released: a fixed file applies on the next run.
    writeFileSync(join(dir, '0003_broken.sql'), 'create table third (id int);');
    expect((await migrate(db, { dir: dirUrl })).applied).toEqual(['0003_broken']);
  });

  it('refuses to run when an applied migration was renamed', async () => {
    const db = pool(current().url);
    await migrate(db, { dir: dirUrl });
    renameSync(join(dir, '0002_second.sql'), join(dir, '0002_renamed.sql'));
    writeFileSync(join(dir, '0003_third.sql'), 'create table third (id int);');
    await expect(migrate(db, { dir: dirUrl })).rejects.toThrow(
      /0002_second is recorded as applied but the file is now 0002_renamed\.sql/
    );
    expect(await recorded(db)).toHaveLength(2);
  });

  it('refuses to run when an applied migration file is missing', async () => {
    const db = pool(current().url);
    await migrate(db, { dir: dirUrl });
    unlinkSync(join(dir, '0001_first.sql'));
    await expect(migrate(db, { dir: dirUrl })).rejects.toThrow(/0001_first.sql is missing/);
  });

  it('refuses a new file numbered below the highest applied migration', async () => {
    writeFileSync(join(dir, '0005_fifth.sql'), 'select 1;');
    const db = pool(current().url);
    await migrate(db, { dir: dirUrl });
    writeFileSync(join(dir, '0003_late.sql'), 'select 1;');
    await expect(migrate(db, { dir: dirUrl })).rejects.toThrow(
      /0003_late\.sql sorts below the highest applied migration \(5\)/
    );
  });

  it('rejects badly named and duplicate-numbered files before touching the database', async () => {
    writeFileSync(join(dir, '3_bad.sql'), 'select 1;');
    await expect(readMigrations(dirUrl)).rejects.toThrow(/3_bad\.sql: migration files are named/);
    rmSync(join(dir, '3_bad.sql'));
    writeFileSync(join(dir, '0002_again.sql'), 'select 1;');
    await expect(readMigrations(dirUrl)).rejects.toThrow(/share version 2/);
  });
});

describe('ensureDatabase', () => {
  const created: string[] = [];
  afterAll(async () => {
    const admin = createDb(databaseUrl('postgres'), { max: 1 });
    for (const name of created)
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end({ timeout: 5 });
  });

  it('leaves an existing database alone', async () => {
    expect(await ensureDatabase(current().url)).toBe(false);
  });

  it('creates a missing database exactly once when several processes race', async () => {
    const name = `burrow_test_ensure_${Date.now().toString(36)}`;
    created.push(name);
    const url = databaseUrl(name);
    const results = await Promise.all(Array.from({ length: 4 }, () => ensureDatabase(url)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await databaseExists(name)).toBe(true);
    const db = pool(url);
    expect(await db`select current_database() as name`).toEqual([{ name }]);
  });
});
