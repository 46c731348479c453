// The PostgreSQL tasks index behind ListTasks and contextId replies. The owner of a task's
// partition writes it from the durable-change hook in small batches (no second read of the log).
// A new task that has not settled is held back briefly, so a quick round trip is one insert of
// its settled row instead of an insert and an update; a row this node wrote before is updated
// (only the columns a change touches). When a partition activates, every task snapshot the
// restore reads is written again, which repairs whatever a crashed owner had not yet flushed.
// Rows only move to a newer rev. A row PostgreSQL refuses on its own is set aside (logged,
// counted) so it never holds its batch back.
import type { Logger } from '../../runtime/log/index.js';
import { InvalidParamsError } from '../../runtime/errors/index.js';
import { rowsSetAside, type HubMetrics } from '../../runtime/metrics/index.js';
import {
  TerminalStates,
  type ListTasksParams,
  type Task,
  type TaskPage,
} from '../../runtime/protocol/index.js';
import {
  listTasksFor,
  refusedForContent,
  taskRow,
  updateTasks,
  upsertTasks,
  type Principal,
  type Queryable,
  type TaskRow,
} from '../../infra/db/index.js';
import { SETTLED } from './task-core.js';

/** 50 rather than 20 ms: fewer, larger statements (A/B: PostgreSQL -10%, the hub -4%). */
const FLUSH_MS = 50;
/**
 * How long a new, unsettled task waits for its settled state before its row is inserted anyway
 * (ListTasks shows an open task this much later; a contextId reply that misses flushes at once).
 */
const HOLD_MS = 100;
/** The longest a change waits in a writer before its statement is sent (held, then batched). */
export const TASK_INDEX_LAG_MS = HOLD_MS + FLUSH_MS;
const BATCH = 500;
const RETRY_MS = 1000;
/** Failed attempts of a batch before its rows are written one by one. */
const BATCH_ATTEMPTS = 3;
/** Open tasks remembered as written; past this the memory is dropped (upserts are always right). */
const WRITTEN_MAX = 100_000;

export class TaskIndexWriter {
  private pending = new Map<string, TaskRow>();
  /** New tasks not settled yet, in arrival order, with the time their row is due. */
  private held = new Map<string, { row: TaskRow; due: number }>();
  /** Open tasks whose row this node wrote, by id → rev written: their next write is an update. */
  private readonly written = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private holdTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** Consecutive failed attempts of a batch; at BATCH_ATTEMPTS the next one goes row by row. */
  private failedAttempts = 0;
  private readonly setAside: ((n: number) => void) | undefined;

  constructor(
    private readonly sql: Queryable,
    private readonly log: Logger,
    metrics?: Pick<HubMetrics, 'registry'>,
    private readonly now: () => number = Date.now
  ) {
    const counter = metrics ? rowsSetAside(metrics) : undefined;
    this.setAside = counter && ((n) => counter.inc({ writer: 'task-index' }, n));
  }

  /**
   * Queue a task's latest state for the index (a newer rev replaces an older one). `json`, when
   * given, is JSON.stringify(task) already made (the durable write's), written as the row's task.
   */
  add(task: Task, json?: string): void {
    if (this.isNewer(task.id, task.rev)) this.place(taskRow(task, json));
  }

  /** Queue a row (a newer rev replaces an older one; an older or equal one is dropped). */
  private addRow(row: TaskRow): void {
    if (this.isNewer(row.id, row.rev)) this.place(row);
  }

  private place(row: TaskRow): void {
    const held = this.held.get(row.id);
    if (!this.written.has(row.id) && !SETTLED.has(row.state)) {
      // Keep the first due time: a task that keeps changing is still written within HOLD_MS.
      this.held.set(row.id, { row, due: held?.due ?? this.now() + HOLD_MS });
      this.holdTimer ??= setTimeout(() => this.releaseHeld(), HOLD_MS);
      return;
    }
    if (held) this.held.delete(row.id);
    this.pending.set(row.id, row);
    this.timer ??= setTimeout(this.writePending, FLUSH_MS);
  }

  /** Whether `rev` is newer than any row of task `id` waiting here. */
  private isNewer(id: string, rev: number): boolean {
    const prev = this.pending.get(id) ?? this.held.get(id)?.row;
    return !prev || prev.rev < rev;
  }

  /** Write what is pending or held; resolves when it is written (or has failed and been re-queued). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const [id, h] of this.held) this.pending.set(id, h.row);
    this.held.clear();
    return this.writeBatch();
  }

  /**
   * The batch timer's write: what is pending goes; a held row waits for its due time. (Held rows
   * going with every batch made most tasks an insert and an update under load: a batch left every
   * interval, and most round trips took longer.)
   */
  private readonly writePending = (): void => {
    this.timer = undefined;
    void this.writeBatch();
  };

  private writeBatch(): Promise<void> {
    if (this.pending.size === 0) return this.flushing;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.flushing = this.flushing.then(() => this.write(batch));
    return this.flushing;
  }

  /** Held rows whose time has come go out with the next batch. */
  private releaseHeld(): void {
    this.holdTimer = undefined;
    const now = this.now();
    let next: number | undefined;
    for (const [id, h] of this.held) {
      // Arrival order is due order: the first one not due ends the scan.
      if (h.due > now) {
        next = h.due;
        break;
      }
      this.held.delete(id);
      this.pending.set(id, h.row);
    }
    if (this.pending.size > 0) this.timer ??= setTimeout(this.writePending, 0);
    if (next !== undefined) this.holdTimer = setTimeout(() => this.releaseHeld(), next - now);
  }

  private async write(rows: TaskRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += BATCH) {
      const chunk = rows.slice(i, i + BATCH);
      try {
        const fresh = chunk.filter((t) => !this.written.has(t.id));
        const known =
          fresh.length === chunk.length ? [] : chunk.filter((t) => this.written.has(t.id));
        await Promise.all([upsertTasks(this.sql, fresh), updateTasks(this.sql, known)]);
        this.remember(chunk);
        this.failedAttempts = 0;
      } catch (err) {
        // One row the server refuses fails the whole statement, on every retry: after a few
        // attempts (at once when the server named the content) the rows go one by one.
        if (refusedForContent(err) || ++this.failedAttempts >= BATCH_ATTEMPTS) {
          await this.writeOneByOne(chunk);
          continue;
        }
        // PostgreSQL is down or slow: keep the rows (newer revs win) and try again shortly.
        this.log.warn({ err, n: chunk.length }, 'task index write failed; will retry');
        this.retryLater(chunk);
      }
    }
  }

  /** Open tasks written are updated next time; finished ones will not change again. */
  private remember(rows: readonly TaskRow[]): void {
    if (this.written.size > WRITTEN_MAX) this.written.clear();
    for (const t of rows) {
      if (TerminalStates.has(t.state)) this.written.delete(t.id);
      else this.written.set(t.id, t.rev);
    }
  }

  /** Each row on its own: a row the server refuses is set aside, the others are written. */
  private async writeOneByOne(chunk: TaskRow[]): Promise<void> {
    for (let i = 0; i < chunk.length; i++) {
      const row = chunk[i]!;
      try {
        await upsertTasks(this.sql, [row]);
        this.remember([row]);
      } catch (err) {
        if (!refusedForContent(err)) {
          this.log.warn({ err, n: chunk.length - i }, 'task index write failed; will retry');
          this.retryLater(chunk.slice(i));
          return;
        }
        // The log (JetStream) keeps the task; only ListTasks and contextId replies miss it.
        const e = err as Error & { code?: string };
        this.log.error(
          { taskId: row.id, rev: row.rev, code: e.code, reason: e.message },
          'task index row set aside: PostgreSQL refuses it'
        );
        this.setAside?.(1);
      }
    }
    this.failedAttempts = 0;
  }

  private retryLater(rows: TaskRow[]): void {
    for (const r of rows) this.addRow(r);
    clearTimeout(this.timer);
    this.timer = setTimeout(this.writePending, RETRY_MS);
  }
}

export interface TaskLister {
  list(principal: Principal, p: ListTasksParams): Promise<{ tasks: Task[]; page: TaskPage }>;
}

export function createTaskLister(sql: Queryable): TaskLister {
  return {
    async list(principal, p) {
      if (principal.kind !== 'agent') {
        return { tasks: [], page: { nextPageToken: '', pageSize: 0, totalSize: 0 } };
      }
      const pageSize = p.pageSize ?? 50;
      const after = p.pageToken ? decodeToken(p.pageToken) : undefined;
      const { tasks, total } = await listTasksFor(sql, {
        agentId: principal.agentId,
        ...(p.contextId !== undefined ? { contextId: p.contextId } : {}),
        ...(p.status !== undefined ? { state: p.status } : {}),
        pageSize,
        ...(after ? { after } : {}),
      });
      const last = tasks.at(-1);
      const nextPageToken =
        tasks.length === pageSize && last ? encodeToken(last.createdAt, last.id) : '';
      return { tasks, page: { nextPageToken, pageSize: tasks.length, totalSize: total } };
    },
  };
}

function encodeToken(createdAt: number, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');
}

function decodeToken(token: string): { createdAt: number; id: string } {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(token, 'base64url').toString()) as [
      number,
      string,
    ];
    if (typeof createdAt === 'number' && typeof id === 'string') return { createdAt, id };
  } catch {
    // fall through
  }
  throw new InvalidParamsError('pageToken', 'not a page token this hub issued');
}
