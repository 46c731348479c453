// The tasks index (0003) against real PostgreSQL: a caller's NUL or lone surrogate in a message's
// text or metadata (valid JSON, refused by jsonb) must not fail the batch it is written in, or any
// later one; and a row PostgreSQL refuses whatever the writer does is set aside after bounded
// attempts, with one log line and a counter, while the rest of its batch is written.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createDb,
  jsonText,
  listTasksFor,
  migrate,
  taskRow,
  updateTasks,
  upsertTasks,
  type Db,
} from '../../infra/db/index.js';
import { TaskIndexWriter } from '../../actors/index.js';
import { createMetrics } from '../../runtime/metrics/index.js';
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
    messages: [
      {
        role: 'user',
        messageId: `m-${id}`,
        parts: [{ kind: 'text', text }],
        metadata,
      },
    ],
    artifacts: [],
    events: [],
    rev: 1,
  };
}

/** `sql` with each statement's first word (insert, update, …) recorded in `statements`. */
function recording(statements: string[]): Db {
  return new Proxy(sql, {
    get(target, prop, receiver) {
      if (prop === 'unsafe') {
        return (...args: Parameters<Db['unsafe']>) => {
          statements.push(String(args[0]).trim().split(/\s+/)[0]!);
          return target.unsafe(...args);
        };
      }
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}

describe('tasks index', () => {
  it('stores a batch holding NUL characters, as U+FFFD, and the rest of it unchanged', async () => {
    await upsertTasks(sql, [
      taskRow(task('task-nul', 'a\u0000b', { 'k\u0000': 'v\u0000', plain: 'x\\u0000' })),
      taskRow(task('task-plain', 'plain')),
    ]);
    const { tasks } = await listTasksFor(sql, {
      agentId: 'agent-sender',
      pageSize: 10,
    });
    const byId = new Map(tasks.map((t) => [t.id, t]));
    expect(byId.get('task-plain')?.messages[0]?.parts).toEqual([{ kind: 'text', text: 'plain' }]);
    const nul = byId.get('task-nul')?.messages[0];
    expect(nul?.parts).toEqual([{ kind: 'text', text: 'a\uFFFDb' }]);
    // A literal backslash-u in a string is text, not an escape: it is kept as sent.
    expect(nul?.metadata).toEqual({ 'k\uFFFD': 'v\uFFFD', plain: 'x\\u0000' });
  });

  it('stores lone surrogates in text and in metadata keys and values as U+FFFD', async () => {
    await upsertTasks(sql, [
      taskRow(
        task('task-sur', 'a\ud800b\udc00', {
          'k\udfff': 'v\ud83d',
          pair: 'ok\ud83d\ude00',
        })
      ),
      taskRow(task('task-sur-plain', 'plain')),
    ]);
    const { tasks } = await listTasksFor(sql, {
      agentId: 'agent-sender',
      pageSize: 10,
    });
    const byId = new Map(tasks.map((t) => [t.id, t]));
    expect(byId.get('task-sur-plain')).toBeDefined();
    const m = byId.get('task-sur')?.messages[0];
    expect(m?.parts).toEqual([{ kind: 'text', text: 'a\uFFFDb\uFFFD' }]);
    // A well-formed pair is kept; an escaped backslash before "u" is text.
    expect(m?.metadata).toEqual({
      'k\uFFFD': 'v\uFFFD',
      pair: 'ok\ud83d\ude00',
    });
    // Text columns (not jsonb) get U+FFFD from postgres.js's UTF-8 encoding of the parameter.
    const [row] = await sql<Array<{ t: string }>>`select ${'a\ud800b'}::text as t`;
    expect(row?.t).toBe('a\uFFFDb');
    expect(JSON.parse(jsonText(['x\\ud800', '\\\ud800']))).toEqual(['x\\ud800', '\\\uFFFD']);
  });

  it('stores created_at and updated_at to the millisecond, from the rows and their updates', async () => {
    const t = { ...task('task-times', 'times'), createdAt: 1_700_000_000_123 };
    t.status = { state: 'working', timestamp: 1_700_000_000_999 };
    await upsertTasks(sql, [taskRow(t)]);
    const done = {
      ...t,
      status: { state: 'completed' as const, timestamp: 1_700_000_001_007 },
      rev: 2,
    };
    const read = async () =>
      (
        await sql<Array<{ c: string; u: string }>>`
          select (extract(epoch from created_at) * 1000)::bigint::text as c,
                 (extract(epoch from updated_at) * 1000)::bigint::text as u
          from tasks where id = 'task-times'`
      )[0];
    expect(await read()).toEqual({ c: '1700000000123', u: '1700000000999' });
    await updateTasks(sql, [taskRow(done)]);
    expect(await read()).toEqual({ c: '1700000000123', u: '1700000001007' });
  });

  it('writes rows around JSON already made, and stores it as jsonText would (U+FFFD)', async () => {
    const made = task('task-made', 'made a\u0000b\ud800', { k: 'v' });
    const other = task('task-made-2', 'encoded here');
    // The writer's caller hands JSON it already has (the log record's); the row holds exactly it.
    await upsertTasks(sql, [taskRow(made, JSON.stringify(made)), taskRow(other)]);
    const { tasks } = await listTasksFor(sql, { agentId: 'agent-sender', pageSize: 50 });
    const byId = new Map(tasks.map((t) => [t.id, t]));
    expect(byId.get('task-made')?.messages[0]?.parts).toEqual([
      { kind: 'text', text: 'made a\uFFFDb\uFFFD' },
    ]);
    expect(byId.get('task-made-2')).toEqual(other);
    const log = pino({ level: 'silent' });
    const writer = new TaskIndexWriter(sql, log);
    const done = {
      ...made,
      status: { state: 'completed' as const, timestamp: made.createdAt + 5 },
      rev: 2,
    };
    // The text handed over is what is written (the log record's, not a second encoding): a
    // field only the text has shows it.
    writer.add(done, JSON.stringify({ ...done, metadata: { from: 'record' } }));
    await writer.flush();
    const after = (await listTasksFor(sql, { agentId: 'agent-sender', pageSize: 50 })).tasks;
    const row = after.find((t) => t.id === 'task-made');
    expect(row?.status).toEqual(done.status);
    expect(row?.rev).toBe(2);
    expect(row).toMatchObject({ metadata: { from: 'record' } });
    // Written, so no longer held.
    const kept = writer as unknown as { pending: Map<string, unknown>; held: Map<string, unknown> };
    expect(kept.pending.size + kept.held.size).toBe(0);
  });

  it('sets a row PostgreSQL refuses aside after bounded attempts and writes the rest', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const log = pino(
      { level: 'info' },
      {
        write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
      }
    );
    const metrics = createMetrics({ defaultMetrics: false });
    // Count the statements: the bound is on attempts, not on time.
    const statements: string[] = [];
    const counting = recording(statements);
    const writer = new TaskIndexWriter(counting, log, metrics);
    const agent = 'agent-poison-batch';
    // rev is an int column: 2^31 is a value PostgreSQL refuses (22003), in any batch, for ever.
    const poison = {
      ...task('task-poison', 'never stored', {}, agent),
      rev: 2 ** 31,
    };
    const good = Array.from({ length: 5 }, (_, i) =>
      task(`task-good-${i}`, `fine ${i}`, {}, agent)
    );
    for (const t of [good[0]!, good[1]!, poison, good[2]!]) writer.add(t);
    await writer.flush();
    // The writer carries on with what comes next.
    writer.add(good[3]!);
    writer.add(good[4]!);
    await writer.flush();

    const { tasks } = await listTasksFor(sql, { agentId: agent, pageSize: 50 });
    expect(tasks.map((t) => t.id).sort()).toEqual(good.map((t) => t.id).sort());
    const setAside = lines.filter(
      (l) => l.msg === 'task index row set aside: PostgreSQL refuses it'
    );
    expect(setAside).toHaveLength(1);
    expect(setAside[0]).toMatchObject({ taskId: 'task-poison', code: '22003' });
    const counter = await metrics.registry.getSingleMetricAsString('burrow_rows_set_aside_total');
    expect(counter).toContain('burrow_rows_set_aside_total{writer="task-index"} 1');
    // One batch, then each of its four rows alone, then the next batch: nothing retried for ever.
    expect(statements.length).toBeLessThanOrEqual(6);
  });

  it('keeps retrying rows while PostgreSQL cannot take them, setting none aside', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const log = pino(
      { level: 'info' },
      {
        write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
      }
    );
    const metrics = createMetrics({ defaultMetrics: false });
    // The writer's one connection gives up on a lock after 100 ms (55P03, says nothing about the
    // rows) while another session holds the table.
    const busy = createDb(tdb.url, { max: 1 });
    const holder = await sql.reserve();
    try {
      await busy`set lock_timeout = '100ms'`;
      await holder`begin`;
      await holder`lock table tasks in access exclusive mode`;
      const writer = new TaskIndexWriter(busy, log, metrics);
      writer.add(task('task-while-locked', 'kept'));
      for (let i = 0; i < 5; i++) await writer.flush();
      expect(lines.filter((l) => l.msg === 'task index write failed; will retry')).toHaveLength(5);
      expect(lines.filter((l) => String(l.msg).includes('set aside'))).toEqual([]);
      await holder`commit`;
      await writer.flush();
      const { tasks } = await listTasksFor(sql, {
        agentId: 'agent-sender',
        pageSize: 50,
      });
      expect(tasks.map((t) => t.id)).toContain('task-while-locked');
      const counter = await metrics.registry.getSingleMetricAsString('burrow_rows_set_aside_total');
      expect(counter).not.toContain('writer="task-index"} 1');
    } finally {
      holder.release();
      await busy.end({ timeout: 1 });
    }
  });
  it('writes a task that settles quickly once, and an open one once, then updates it', async () => {
    const statements: string[] = [];
    const counting = recording(statements);
    const log = pino({ level: 'silent' });
    // The clock is read at each call, so the writer follows vi.useFakeTimers while it is on.
    const writer = new TaskIndexWriter(counting, log, undefined, () => Date.now());
    const agent = 'agent-once';
    const at = (t: Task, state: Task['status']['state'], rev: number): Task => ({
      ...t,
      status: { state, timestamp: t.createdAt + rev },
      rev,
    });
    const rowOf = async (id: string) =>
      (await listTasksFor(sql, { agentId: agent, pageSize: 50 })).tasks.find((t) => t.id === id);

    // A round trip: submitted, working and completed within the hold (each change later than the
    // batching interval) are one insert. Simulated time: a loaded machine cannot stretch the
    // 30 ms steps past the 100 ms hold.
    const quick = task('task-quick', 'quick', {}, agent);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      writer.add(quick);
      await vi.advanceTimersByTimeAsync(30);
      writer.add(at(quick, 'working', 2));
      await vi.advanceTimersByTimeAsync(30);
      writer.add(at(quick, 'completed', 3));
      // The batching interval ends (the settled row is sent), then the hold's own timer: no
      // simulated timer is left behind for real time.
      await vi.advanceTimersByTimeAsync(100);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
    await vi.waitFor(() => expect(statements).toEqual(['insert']), { timeout: 5000 });
    await writer.flush();
    expect(statements).toEqual(['insert']);
    expect((await rowOf('task-quick'))?.status.state).toBe('completed');

    // An open task is inserted after the hold; its later changes update the row it wrote.
    statements.length = 0;
    const slow = task('task-slow', 'slow', {}, agent);
    writer.add(slow);
    expect(await rowOf('task-slow')).toBeUndefined();
    // The statement is recorded when it is issued, before it commits: wait for the row itself.
    await vi.waitFor(
      async () => expect((await rowOf('task-slow'))?.status.state).toBe('submitted'),
      { timeout: 5000, interval: 20 }
    );
    expect(statements).toEqual(['insert']);
    writer.add(at(slow, 'input-required', 2));
    // Its own update, written before the next change comes.
    await vi.waitFor(
      async () => expect((await rowOf('task-slow'))?.status.state).toBe('input-required'),
      { timeout: 5000, interval: 20 }
    );
    writer.add(at(slow, 'completed', 3));
    await writer.flush();
    expect(statements).toEqual(['insert', 'update', 'update']);
    expect((await rowOf('task-slow'))?.status.state).toBe('completed');
    // An older rev never moves a row back.
    writer.add(at(slow, 'working', 2));
    await writer.flush();
    expect((await rowOf('task-slow'))?.status.state).toBe('completed');
  });

  it('keeps a new task held while batches of other tasks go out (a loaded hub)', async () => {
    const statements: string[] = [];
    const counting = recording(statements);
    const writer = new TaskIndexWriter(counting, pino({ level: 'silent' }), undefined, () =>
      Date.now()
    );
    const agent = 'agent-busy-hub';
    const done = (t: Task, rev: number): Task => ({
      ...t,
      status: { state: 'completed', timestamp: t.createdAt + rev },
      rev,
    });
    // Under load a settled row is pending at every batch interval: the batches it makes must not
    // take the held row of a task still on its way (that made it an insert, then an update).
    const slow = task('task-held-under-load', 'slow', {}, agent);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      writer.add(slow);
      for (let i = 0; i < 6; i++) {
        writer.add(done(task(`task-load-${i}`, 'other', {}, agent), 2));
        await vi.advanceTimersByTimeAsync(10);
      }
      writer.add(done(slow, 3));
      await vi.advanceTimersByTimeAsync(150);
    } finally {
      vi.useRealTimers();
    }
    await writer.flush();
    const { tasks } = await listTasksFor(sql, { agentId: agent, pageSize: 50 });
    expect(tasks).toHaveLength(7);
    expect(tasks.find((t) => t.id === slow.id)?.status.state).toBe('completed');
    // Every row one insert: none written open and updated after.
    expect(statements.length).toBeGreaterThanOrEqual(2);
    expect(new Set(statements)).toEqual(new Set(['insert']));
  });
});
