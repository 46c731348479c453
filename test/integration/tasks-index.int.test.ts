// The tasks index (0003) against real PostgreSQL: a caller's NUL or lone surrogate in a message's
// text or metadata (valid JSON, refused by jsonb) must not fail the batch it is written in, or any
// later one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDb,
  jsonText,
  listTasksFor,
  migrate,
  upsertTasks,
  type Db,
} from '../../infra/db/index.js';
import type { Task } from '../../runtime/protocol/index.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';

let tdb: TestDatabase;
let sql: Db;

beforeAll(async () => {
  tdb = await createTestDatabase('burrow_tasks_index');
  sql = createDb(tdb.url, { max: 2 });
  await migrate(sql);
});

afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await tdb?.drop();
});

function task(
  id: string,
  text: string,
  metadata: Record<string, unknown> = {},
  agent = 'agent-sender'
): Task {
  const now = Date.now();
  return {
    id,
    contextId: 'ctx-1',
    senderId: agent,
    recipientId: 'agent-recipient',
    senderTenantId: 'ten-a',
    recipientTenantId: 'ten-a',
    createdAt: now,
    status: { state: 'submitted', timestamp: now },
    messages: [{ role: 'user', messageId: `m-${id}`, parts: [{ kind: 'text', text }], metadata }],
    artifacts: [],
    events: [],
    rev: 1,
  };
}

describe('tasks index', () => {
  it('stores a batch holding NUL characters, as U+FFFD, and the rest of it unchanged', async () => {
    await upsertTasks(sql, [
      task('task-nul', 'a\u0000b', { 'k\u0000': 'v\u0000', plain: 'x\\u0000' }),
      task('task-plain', 'plain'),
    ]);
    const { tasks } = await listTasksFor(sql, { agentId: 'agent-sender', pageSize: 10 });
    const byId = new Map(tasks.map((t) => [t.id, t]));
    expect(byId.get('task-plain')?.messages[0]?.parts).toEqual([{ kind: 'text', text: 'plain' }]);
    const nul = byId.get('task-nul')?.messages[0];
    expect(nul?.parts).toEqual([{ kind: 'text', text: 'a\uFFFDb' }]);
    // A literal backslash-u in a string is text, not an escape: it is kept as sent.
    expect(nul?.metadata).toEqual({ 'k\uFFFD': 'v\uFFFD', plain: 'x\\u0000' });
  });

  it('stores lone surrogates in text and in metadata keys and values as U+FFFD', async () => {
    await upsertTasks(sql, [
      task('task-sur', 'a\ud800b\udc00', { 'k\udfff': 'v\ud83d', pair: 'ok\ud83d\ude00' }),
      task('task-sur-plain', 'plain'),
    ]);
    const { tasks } = await listTasksFor(sql, { agentId: 'agent-sender', pageSize: 10 });
    const byId = new Map(tasks.map((t) => [t.id, t]));
    expect(byId.get('task-sur-plain')).toBeDefined();
    const m = byId.get('task-sur')?.messages[0];
    expect(m?.parts).toEqual([{ kind: 'text', text: 'a\uFFFDb\uFFFD' }]);
    // A well-formed pair is kept; an escaped backslash before "u" is text.
    expect(m?.metadata).toEqual({ 'k\uFFFD': 'v\uFFFD', pair: 'ok\ud83d\ude00' });
    // Text columns (not jsonb) get U+FFFD from postgres.js's UTF-8 encoding of the parameter.
    const [row] = await sql<Array<{ t: string }>>`select ${'a\ud800b'}::text as t`;
    expect(row?.t).toBe('a\uFFFDb');
    expect(JSON.parse(jsonText(['x\\ud800', '\\\ud800']))).toEqual(['x\\ud800', '\\\uFFFD']);
  });
});
