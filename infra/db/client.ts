// The PostgreSQL client: postgres.js built from an explicit URL (never the hidden PG* environment),
// snake_case columns as camelCase in TS (style B2), and ensureDatabase for a first start.
import postgres from 'postgres';
import { silentLogger, type Logger } from '../../runtime/log/index.js';

/** A postgres.js pool whose result columns are camelCase. */
export type Db = postgres.Sql;

export interface DbOptions {
  /** Server notices (e.g. "already exists, skipping") go here at debug level. */
  log?: Logger;
  /** Pool size. */
  max?: number;
}

const DEFAULT_MAX = 10;

/** A pool on `url` (postgres://user[:password]@host[:port]/database[?sslmode=…]). */
export function createDb(url: string, opts: DbOptions = {}): Db {
  return postgres({
    ...connectionOptions(url, opts.max ?? DEFAULT_MAX, opts.log ?? silentLogger),
    // Column names only: postgres.camel would also rewrite the keys inside json/jsonb values
    // (agent cards, task snapshots), which must come back exactly as stored.
    transform: { column: { from: postgres.toCamel, to: postgres.fromCamel } },
  });
}

/**
 * Create the database named by `url` if it does not exist, through the `postgres` database of
 * the same server. Safe when several processes start at once. Resolves true if this call created it.
 */
export async function ensureDatabase(url: string, opts: { log?: Logger } = {}): Promise<boolean> {
  const log = opts.log ?? silentLogger;
  const name = databaseName(new URL(url));
  const adminUrl = new URL(url);
  adminUrl.pathname = '/postgres';
  // No camel transform here: it would also rewrite the identifiers we pass.
  const admin = postgres(connectionOptions(adminUrl.href, 1, log));
  try {
    const found = await admin`select 1 from pg_database where datname = ${name}`;
    if (found.length > 0) return false;
    try {
      await admin.unsafe(`create database ${quoteIdent(name)}`);
    } catch (err) {
      // Another process won the race between our check and our create: 42P04 when it had
      // committed, 23505 on pg_database's unique index when both were inserting at once.
      if (isPgError(err, '42P04') || isPgError(err, '23505')) return false;
      throw err;
    }
    log.info({ database: name }, 'database created');
    return true;
  } finally {
    await admin.end({ timeout: 5 });
  }
}

/** True if `err` is a server error with the given SQLSTATE. */
export function isPgError(err: unknown, sqlState: string): boolean {
  return err instanceof postgres.PostgresError && err.code === sqlState;
}

function databaseName(url: URL): string {
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (name === '' || name.includes('/')) {
    throw new Error(`database URL must name one database in its path: ${redactUrl(url)}`);
  }
  return name;
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function redactUrl(url: URL): string {
  const copy = new URL(url.href);
  if (copy.password) copy.password = 'redacted';
  return copy.href;
}

/**
 * Every option postgres.js would otherwise take from PG* variables is given explicitly, so the
 * URL alone decides where we connect (the config module stays the only reader of the environment).
 */
function connectionOptions(
  url: string,
  max: number,
  log: Logger
): postgres.Options<Record<string, postgres.PostgresType>> {
  const u = new URL(url);
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new Error(`not a postgres:// URL: ${redactUrl(u)}`);
  }
  const user = decodeURIComponent(u.username);
  if (user === '') throw new Error(`database URL must name a user: ${redactUrl(u)}`);
  const password = decodeURIComponent(u.password);
  // postgres.js reads these without a typed option; spreading keeps them explicit too.
  const untyped = { max_pipeline: 100, sslnegotiation: null };
  return {
    ...untyped,
    host: u.hostname,
    port: u.port === '' ? 5432 : Number(u.port),
    database: databaseName(u),
    user,
    // A function, because an empty string would make postgres.js fall back to PGPASSWORD.
    password: () => password,
    ssl: sslMode(u.searchParams.get('sslmode')),
    max,
    idle_timeout: undefined,
    connect_timeout: 30,
    // postgres.js's own defaults: recycle connections after 30–60 min, jittered reconnects.
    max_lifetime: 60 * (30 + Math.random() * 30),
    backoff: (attempt: number) => (0.5 + Math.random() / 2) * Math.min(3 ** attempt / 100, 20),
    keep_alive: 60,
    prepare: true,
    debug: false,
    fetch_types: true,
    publications: 'alltables',
    target_session_attrs: undefined,
    // JIT off for every statement: the hub's are short, and on a million-agent directory the
    // planner's estimates crossed the JIT thresholds, so compiling a 1 ms query took 0.3–1 s
    // (directory_query, issue 31; 0025 pins it on that function for other clients too).
    connection: { application_name: 'burrow', jit: 'off' },
    onnotice: (notice) => {
      log.debug({ notice: { code: notice.code, message: notice.message } }, 'postgres notice');
    },
  };
}

function sslMode(mode: string | null): 'require' | 'allow' | 'prefer' | 'verify-full' | false {
  switch (mode) {
    case null:
    case 'disable':
      return false;
    case 'require':
    case 'allow':
    case 'prefer':
    case 'verify-full':
      return mode;
    default:
      throw new Error(`unsupported sslmode in database URL: ${mode}`);
  }
}
