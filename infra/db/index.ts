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
