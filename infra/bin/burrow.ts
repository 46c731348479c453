// `burrow`: the operator CLI's composition root. Reads the configuration (DATABASE_URL, NATS_URL),
// creates and migrates the database on first use, runs the command, closes everything, and exits
// 1 with one line on stderr when anything fails.
import { readFileSync } from 'node:fs';
import { CommanderError } from 'commander';
import { ConfigError, loadConfig, type Config } from '../../runtime/config/index.js';
import { UnavailableError, isHubError } from '../../runtime/errors/index.js';
import { createDb, ensureDatabase, migrate, type Db } from '../db/index.js';
import { createGeocoder } from '../geo/index.js';
import { runMcpStdio } from '../mcp/index.js';
import {
  buildProgram,
  createNatsNotifier,
  fetchAgentCard,
  type CliContext,
  type CliIo,
} from '../cli/index.js';

const CARD_TIMEOUT_MS = 5_000;
const NOTIFY_TIMEOUT_MS = 2_000;

const io: CliIo = {
  out: (line) => void process.stdout.write(`${line}\n`),
  err: (line) => void process.stderr.write(`${line}\n`),
};

async function main(argv: readonly string[]): Promise<number> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.err(`burrow: ${err.message}`);
    return 1;
  }

  let db: Promise<Db> | undefined;
  const openDb = async (): Promise<Db> => {
    const url = config.databaseUrl;
    try {
      await ensureDatabase(url);
      const pool = createDb(url, { max: 2 });
      try {
        await migrate(pool);
      } catch (err) {
        await pool.end({ timeout: 5 });
        throw err;
      }
      return pool;
    } catch (err) {
      if (isHubError(err)) throw err;
      const reason = err instanceof Error ? err.message : String(err);
      throw new UnavailableError(`cannot use the database: ${reason}`, err);
    }
  };
  const ctx: CliContext = {
    db: () => (db ??= openDb()),
    notify: createNatsNotifier({ servers: config.natsServers, timeoutMs: NOTIFY_TIMEOUT_MS, io }),
    fetchCard: (url) => fetchAgentCard(url, { timeoutMs: CARD_TIMEOUT_MS }),
    geocoder: createGeocoder(config.geocoder),
    io,
    hub: { defaultUrl: config.mcp.hubUrl, defaultKey: config.mcp.apiKey },
    mcp: {
      defaultUrl: config.mcp.hubUrl,
      defaultKey: config.mcp.apiKey,
      serve: (opts) => runMcpStdio({ ...opts, version: packageVersion() }),
    },
  };

  try {
    await buildProgram(ctx, packageVersion()).parseAsync([...argv], { from: 'node' });
    return 0;
  } catch (err) {
    // Commander printed its own message (usage error) or the help/version text already.
    if (err instanceof CommanderError) return err.exitCode;
    if (argv.includes('--json')) {
      // Scripts that asked for JSON get the error as JSON too: the catalog's code and the message.
      // The hub's own errors, the SDK's (a refusal over HTTP) and system ones all carry a code.
      const own = (err as { code?: unknown }).code;
      const code = isHubError(err) ? err.code : typeof own === 'string' ? own : 'INTERNAL';
      const message = err instanceof Error ? err.message : String(err);
      io.err(JSON.stringify({ error: { code, message } }));
      return 1;
    }
    io.err(`burrow: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    const pool = await db?.catch(() => undefined);
    await pool?.end({ timeout: 5 });
  }
}

/** From package.json: two levels up from source, three from dist/. */
function packageVersion(): string {
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (pkg.name === 'burrow' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not there: try the next candidate
    }
  }
  return '0.0.0';
}

process.exitCode = await main(process.argv);
