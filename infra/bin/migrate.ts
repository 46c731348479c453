// `npm run db:migrate`: create the configured database if it is missing, apply pending
// migrations, log what was applied, exit. Exit 1 on a configuration or migration error.
import { ConfigError, loadConfig, type Config } from '../../runtime/config/index.js';
import { createLogger } from '../../runtime/log/index.js';
import { createDb, ensureDatabase, migrate } from '../db/index.js';

async function main(): Promise<number> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    // No logger yet: its level is part of the configuration that failed.
    process.stderr.write(`${err.message}\n`);
    return 1;
  }
  const log = createLogger({ level: config.logLevel, nodeId: config.nodeId }).child({
    component: 'migrate',
  });
  try {
    await ensureDatabase(config.databaseUrl, { log });
    const db = createDb(config.databaseUrl, { log, max: 1 });
    try {
      const { applied } = await migrate(db, { log });
      log.info({ applied }, applied.length > 0 ? 'migrations applied' : 'schema is up to date');
    } finally {
      await db.end({ timeout: 5 });
    }
    return 0;
  } catch (err) {
    log.error({ err }, 'migration failed');
    return 1;
  }
}

process.exitCode = await main();
