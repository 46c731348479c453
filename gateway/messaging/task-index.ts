// The PostgreSQL tasks index behind ListTasks and contextId replies. The owner of a task's
// partition writes it from the durable-change hook in small batches (no second read of the log);
// when a partition activates, every task snapshot the restore reads is written again, which
// repairs whatever a crashed owner had not yet flushed. Rows only move to a newer rev. A row
// PostgreSQL refuses on its own is set aside (logged, counted) so it never holds its batch back.
import type { Logger } from '../../runtime/log/index.js';
import { InvalidParamsError } from '../../runtime/errors/index.js';
import { rowsSetAside, type HubMetrics } from '../../runtime/metrics/index.js';
import type { ListTasksParams, Task, TaskPage } from '../../runtime/protocol/index.js';
import {
  listTasksFor,
  refusedForContent,
  upsertTasks,
  type Principal,
  type Queryable,
} from '../../infra/db/index.js';

const FLUSH_MS = 20;
const BATCH = 500;
const RETRY_MS = 1000;
/** Failed attempts of a batch before its rows are written one by one. */
const BATCH_ATTEMPTS = 3;

export class TaskIndexWriter {
  private pending = new Map<string, Task>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** Consecutive failed attempts of a batch; at BATCH_ATTEMPTS the next one goes row by row. */
  private failedAttempts = 0;
  private readonly setAside: ((n: number) => void) | undefined;

  constructor(
    private readonly sql: Queryable,
    private readonly log: Logger,
    metrics?: Pick<HubMetrics, 'registry'>
  ) {
    const counter = metrics ? rowsSetAside(metrics) : undefined;
    this.setAside = counter && ((n) => counter.inc({ writer: 'task-index' }, n));
  }

  /** Queue a task's latest state for the index (a newer rev replaces an older one). */
  add(task: Task): void {
    const prev = this.pending.get(task.id);
    if (prev && prev.rev >= task.rev) return;
    this.pending.set(task.id, task);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** Write what is pending; resolves when it is written (or has failed and been re-queued). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return this.flushing;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.flushing = this.flushing.then(() => this.write(batch));
    return this.flushing;
  }

  private async write(tasks: Task[]): Promise<void> {
    for (let i = 0; i < tasks.length; i += BATCH) {
      const chunk = tasks.slice(i, i + BATCH);
      try {
        await upsertTasks(this.sql, chunk);
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

  /** Each row on its own: a row the server refuses is set aside, the others are written. */
  private async writeOneByOne(chunk: Task[]): Promise<void> {
    for (let i = 0; i < chunk.length; i++) {
      const task = chunk[i]!;
      try {
        await upsertTasks(this.sql, [task]);
      } catch (err) {
        if (!refusedForContent(err)) {
          this.log.warn({ err, n: chunk.length - i }, 'task index write failed; will retry');
          this.retryLater(chunk.slice(i));
          return;
        }
        // The log (JetStream) keeps the task; only ListTasks and contextId replies miss it.
        const e = err as Error & { code?: string };
        this.log.error(
          { taskId: task.id, rev: task.rev, code: e.code, reason: e.message },
          'task index row set aside: PostgreSQL refuses it'
        );
        this.setAside?.(1);
      }
    }
    this.failedAttempts = 0;
  }

  private retryLater(rows: Task[]): void {
    for (const t of rows) this.add(t);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), RETRY_MS);
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
