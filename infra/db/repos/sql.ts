// What every repo function takes first, and the few query helpers the repos share.
import postgres from 'postgres';
import { InternalError } from '../../../runtime/errors/index.js';

/** Anything that runs queries: the pool (Db), a reserved connection, or an open transaction. */
export type Queryable = postgres.ISql;

type Transaction = postgres.TransactionSql;

/**
 * Run `fn` atomically: in a new transaction on a pool or reserved connection, or in a savepoint
 * when `sql` is already a transaction (so repo functions compose inside a caller's transaction).
 */
export async function inTransaction<T>(
  sql: Queryable,
  fn: (tx: Transaction) => Promise<T>
): Promise<T> {
  const s = sql as Partial<Pick<postgres.Sql, 'begin'>> & Partial<Pick<Transaction, 'savepoint'>>;
  // postgres.js keeps for good an Error made at the first run of each tagged template (a query's
  // `origin`); its unformatted stack holds the functions it ran through, among them a
  // transaction's `sql`, which holds the callback given to `begin` (and `commit` is tagged: the
  // first transaction a process commits is kept so). The callback is reached through a box
  // emptied when the transaction ends, so what it closes over is not kept: the directory's whole
  // read closes over the model it builds (750 MB at 1,000,000 agents).
  const box: { fn: ((tx: Transaction) => Promise<T>) | undefined } = { fn };
  const run = (tx: Transaction): Promise<T> =>
    box.fn === undefined
      ? Promise.reject(new InternalError(new Error('a transaction callback ran twice')))
      : box.fn(tx);
  try {
    if (typeof s.begin === 'function') return (await s.begin(run)) as T;
    if (typeof s.savepoint === 'function') return (await s.savepoint(run)) as T;
  } finally {
    box.fn = undefined;
  }
  throw new InternalError(new TypeError('not a postgres.js pool, connection or transaction'));
}

/** The first row of a statement that always returns one (insert … returning). */
export function firstRow<T>(rows: readonly T[], what: string): T {
  const row = rows[0];
  if (row === undefined) throw new InternalError(new Error(`${what} returned no row`));
  return row;
}

/** True if `err` is a foreign-key violation on `constraint`. */
export function isForeignKeyViolation(err: unknown, constraint: string): boolean {
  return (
    err instanceof postgres.PostgresError &&
    err.code === '23503' &&
    err.constraint_name === constraint
  );
}

/** True if `err` is a unique violation, on `constraint` when one is named. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  return (
    err instanceof postgres.PostgresError &&
    err.code === '23505' &&
    (constraint === undefined || err.constraint_name === constraint)
  );
}

/**
 * SQLSTATE classes that say nothing about the statement's values: connection, transaction
 * rollback, insufficient resources, object in use, operator intervention, system and internal
 * errors. Anything else the server answers is a refusal of what the statement holds.
 */
const TRANSIENT_CLASSES = new Set(['08', '40', '53', '55', '57', '58', 'XX']);

/** Did the server refuse the statement for its values (a data or constraint error, …)? */
export function refusedForContent(err: unknown): boolean {
  return (
    err instanceof postgres.PostgresError &&
    typeof err.code === 'string' &&
    !TRANSIENT_CLASSES.has(err.code.slice(0, 2))
  );
}

/**
 * JSON for a jsonb column, sent as text and cast by the server (`$1::text::jsonb`). A plain string
 * parameter typed jsonb would be JSON-encoded a second time by postgres.js; the cast avoids the
 * guesswork. Every jsonb write of caller-supplied values goes through here.
 *
 * Valid JSON that jsonb refuses is stored as U+FFFD: `\u0000` (jsonb cannot hold a NUL) and a
 * lone surrogate, which JSON.stringify writes as an escape such as `\ud800` (well-formed
 * stringify, Node 12+) and jsonb rejects without its pair ("invalid input syntax for type json").
 * Without this one such string fails every statement it is in, for ever (the task index retried
 * one row without end). Stringify escapes nothing else as `\u` but control characters, so the
 * common case costs one search. (Text columns need nothing: postgres.js encodes text parameters as
 * UTF-8, which writes a lone surrogate as U+FFFD; NUL is refused where a caller's text enters.)
 */
export function jsonText(value: unknown): string {
  const json = JSON.stringify(value) as string | undefined;
  return json === undefined ? (json as unknown as string) : storableJson(json);
}

/** jsonText for JSON already written (by JSON.stringify, whole or in parts). */
export function storableJson(json: string): string {
  if (!json.includes('\\u')) return json;
  return json.replace(UNSTORABLE_ESCAPE, '\\ufffd');
}

/**
 * `\u0000` or a surrogate escape, preceded by an even number of backslashes: an odd number means
 * the backslash itself was escaped (the text `\\u0000`), which is stored as sent. Stringify
 * writes a surrogate as an escape only when it is alone (pairs are written as the character).
 */
const UNSTORABLE_ESCAPE = /(?<=(?:^|[^\\])(?:\\\\)*)\\u(?:0000|d[89a-f][0-9a-f]{2})/g;
