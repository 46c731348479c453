// The database package's public surface: the client, first-start database creation, migrations.
export { createDb, ensureDatabase, isPgError, type Db, type DbOptions } from './client.js';
export {
  migrate,
  readMigrations,
  MigrationError,
  MIGRATIONS_DIR,
  MIGRATION_LOCK_KEY,
  type MigrateOptions,
  type MigrationFile,
} from './migrate.js';
export * from './repos/index.js';
export { upsertTasks, listTasksFor, contextPeer, type TaskListQuery } from './repos/tasks.repo.js';
export { loadSigningKeys } from './repos/signing-keys.repo.js';
