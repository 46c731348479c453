// Forward-only schema migrations: numbered plain SQL files in ./migrations (copied next to the
// compiled file by `npm run build`), applied in order, one transaction each, one node at a time.
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { silentLogger, type Logger } from '../../runtime/log/index.js';
import type { Db } from './client.js';

/** Where the migration files live, from source (tsx) and from dist alike. */
export const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);

/** Every node takes this advisory lock, so it is fixed forever ("burrow" in ASCII). */
export const MIGRATION_LOCK_KEY = 0x627572726f77n;

const FILE_NAME = /^(\d{4})_([a-z0-9_]+)\.sql$/;

export interface MigrationFile {
  readonly version: number;
  /** The part after the number, e.g. "extensions" for 0001_extensions.sql. */
  readonly name: string;
  readonly file: string;
}

export interface MigrateOptions {
  log?: Logger;
  /** Another migrations directory (tests). */
  dir?: URL;
}

/** The migrations on disk disagree with what the database recorded; a human must look. */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

/** The migration files of `dir`, sorted by version. Other files (e.g. a README) are ignored. */
export async function readMigrations(dir: URL = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const entries = await readdir(dir);
  const files: MigrationFile[] = [];
  for (const file of entries) {
    if (!file.endsWith('.sql')) continue;
    const m = FILE_NAME.exec(file);
    if (!m?.[1] || !m[2]) {
      throw new MigrationError(
        `${file}: migration files are named NNNN_lower_snake_name.sql (in ${fileURLToPath(dir)})`
      );
    }
    files.push({ version: Number(m[1]), name: m[2], file });
  }
  files.sort((a, b) => a.version - b.version);
  for (let i = 1; i < files.length; i++) {
    const prev = files[i - 1];
    const cur = files[i];
    if (prev && cur && prev.version === cur.version) {
      throw new MigrationError(`${prev.file} and ${cur.file} share version ${cur.version}`);
    }
  }
  return files;
}

/**
 * Apply the pending migrations and record them in schema_migrations. Two nodes starting at once
 * are serialized by an advisory lock held on one reserved connection for the whole run.
 * Throws MigrationError if an applied migration was renamed or removed, or if a new file sorts
 * below the highest applied version.
 */
export async function migrate(sql: Db, opts: MigrateOptions = {}): Promise<{ applied: string[] }> {
  const log = opts.log ?? silentLogger;
  const dir = opts.dir ?? MIGRATIONS_DIR;
  const files = await readMigrations(dir);
  const conn = await sql.reserve();
  try {
    await conn`select pg_advisory_lock(${MIGRATION_LOCK_KEY.toString()}::bigint)`;
    try {
      return { applied: await applyPending(conn, files, dir, log) };
    } finally {
      // If the connection broke, the server already dropped the lock with the session.
      await conn`select pg_advisory_unlock(${MIGRATION_LOCK_KEY.toString()}::bigint)`.catch(
        (err: unknown) => log.warn({ err }, 'could not release the migration lock')
      );
    }
  } finally {
    conn.release();
  }
}

async function applyPending(
  conn: Db,
  files: readonly MigrationFile[],
  dir: URL,
  log: Logger
): Promise<string[]> {
  await conn.unsafe(`create table if not exists schema_migrations (
    version int primary key,
    name text not null,
    applied_at timestamptz not null default now()
  )`);
  // Read under the lock: whatever another node applied before we got it counts.
  const recorded = await conn<{ version: number; name: string }[]>`
    select version, name from schema_migrations order by version`;
  checkHistory(files, recorded, dir);

  const done = new Set(recorded.map((r) => r.version));
  const applied: string[] = [];
  for (const m of files) {
    if (done.has(m.version)) continue;
    const label = m.file.replace(/\.sql$/, '');
    const text = await readFile(new URL(m.file, dir), 'utf8');
    await conn.unsafe('begin');
    try {
      await conn.unsafe(text);
      await conn`insert into schema_migrations (version, name) values (${m.version}, ${m.name})`;
      await conn.unsafe('commit');
    } catch (err) {
      await conn.unsafe('rollback').catch(() => undefined);
      const reason = err instanceof Error ? err.message : String(err);
      throw new MigrationError(`migration ${m.file} failed and was rolled back: ${reason}`, {
        cause: err,
      });
    }
    applied.push(label);
    log.debug({ migration: label }, 'migration applied');
  }
  return applied;
}

function checkHistory(
  files: readonly MigrationFile[],
  recorded: readonly { version: number; name: string }[],
  dir: URL
): void {
  const where = fileURLToPath(dir);
  const byVersion = new Map(files.map((f) => [f.version, f]));
  let highest = 0;
  for (const r of recorded) {
    const label = `${String(r.version).padStart(4, '0')}_${r.name}`;
    const f = byVersion.get(r.version);
    if (!f) {
      throw new MigrationError(
        `migration ${label} is recorded as applied but ${label}.sql is missing from ${where}; ` +
          'migrations are forward-only: restore the file'
      );
    }
    if (f.name !== r.name) {
      throw new MigrationError(
        `migration ${label} is recorded as applied but the file is now ${f.file}; ` +
          'an applied migration must keep its name: rename it back and add a new migration'
      );
    }
    highest = Math.max(highest, r.version);
  }
  const applied = new Set(recorded.map((r) => r.version));
  const late = files.filter((f) => f.version < highest && !applied.has(f.version));
  if (late.length > 0) {
    throw new MigrationError(
      `${late.map((f) => f.file).join(', ')} sorts below the highest applied migration ` +
        `(${highest}); renumber it above ${highest}`
    );
  }
}
