// The PostgreSQL tasks index behind ListTasks and contextId replies. The owner of a task's
// partition writes it from the durable-change hook in small batches (no second read of the log);
// when a partition activates, every task snapshot the restore reads is written again, which
// repairs whatever a crashed owner had not yet flushed. Rows only move to a newer rev.
import type { Logger } from '../../runtime/log/index.js';
import { InvalidParamsError } from '../../runtime/errors/index.js';
import type { ListTasksParams, Task, TaskPage } from '../../runtime/protocol/index.js';
import { listTasksFor, upsertTasks, type Principal, type Queryable } from '../../infra/db/index.js';

const FLUSH_MS = 20;
const BATCH = 500;
const RETRY_MS = 1000;

export class TaskIndexWriter {
  private pending = new Map<string, Task>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly sql: Queryable,
    private readonly log: Logger
  ) {}

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
      } catch (err) {
        // PostgreSQL is down or slow: keep the rows (newer revs win) and try again shortly.
        this.log.warn({ err, n: chunk.length }, 'task index write failed; will retry');
        for (const t of chunk) this.add(t);
        clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.flush(), RETRY_MS);
      }
    }
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
