// A tenant's tasks under its admin key (the dashboard's Tasks page, and any client's): list with
// filters, one task in full, cancel on behalf of the tenant's sending agent, and a live feed as
// Server-Sent Events. An admin key cannot send, so these read the tasks index (every task one of
// the tenant's agents sent or received); another tenant's task is 404.
import type { z } from 'zod';
import type { TaskService } from '../../actors/index.js';
import { getTenantTask, listTenantTasks, type Queryable } from '../../infra/db/index.js';
import { HubError } from '../../runtime/errors/index.js';
import { encodeTaskHub, type Task, type TaskView } from '../../runtime/protocol/index.js';
import type { Authenticator } from '../auth/index.js';
import { decodeParam, jsonReply, parseQuery, type Reply } from '../http/index.js';
import type { RouteRegistrar } from '../routes/index.js';
import { SseWriter } from '../sse/index.js';
import { requireAdmin } from './agents-admin-routes.js';
import { manageDocs } from './route-docs.js';
import { TASKS_LIMIT, type TaskFeedQuery } from './tasks-route-docs.js';

export { TASKS_LIMIT };

export interface TasksRoutesDeps {
  readonly sql: Queryable;
  readonly auth: Pick<Authenticator, 'authenticate'>;
  readonly tasks: Pick<TaskService, 'cancel'>;
  /** How often an open feed asks the index for changes. Default 1 s. */
  readonly feedPollMs?: number;
}

/**
 * The feed looks this far back on every poll: a row's updated_at is the task's own time, and the
 * index writer stores it a little later, so a row can land behind the previous poll's time.
 */
const FEED_LOOKBACK_MS = 10_000;

/** The list and the feed carry each task's state and parties, not its messages or artifacts. */
const SUMMARY: TaskView = { historyLength: 0, includeArtifacts: false };

/**
 * A task as the tenant's admin sees it: the hub dialect's task (hub-internal fields never leave)
 * plus both parties and its times, since the admin watches every agent of the tenant.
 */
export function tenantTaskView(t: Task, view: TaskView = {}) {
  return {
    ...encodeTaskHub(t, view),
    senderId: t.senderId,
    recipientId: t.recipientId,
    createdAt: new Date(t.createdAt).toISOString(),
    updatedAt: new Date(t.status.timestamp).toISOString(),
  };
}

export function tasksRoutes(d: TasksRoutesDeps): RouteRegistrar {
  const pollMs = d.feedPollMs ?? 1_000;
  const ownTask = async (tenantId: string, rawId: string): Promise<Task> => {
    const id = decodeParam(rawId);
    const task = await getTenantTask(d.sql, tenantId, id);
    if (task === null) throw new HubError('NOT_FOUND', `No task ${id}`);
    return task;
  };

  return (table) => {
    table.add({
      method: 'GET',
      pattern: '/api/tasks',
      doc: manageDocs.listTenantTasks,
      handler: async (req) => {
        const { tenantId } = await requireAdmin(d.auth, req);
        const filter = parseQuery(manageDocs.listTenantTasks.query, req.query);
        const tasks = await listTenantTasks(d.sql, { tenantId, ...filter });
        return jsonReply(200, {
          tasks: tasks.map((t) => tenantTaskView(t, SUMMARY)),
          count: tasks.length,
        });
      },
    });
    table.add({
      method: 'GET',
      pattern: '/api/tasks/stream',
      doc: manageDocs.tenantTaskFeed,
      handler: async (req) => {
        const { tenantId } = await requireAdmin(d.auth, req);
        const filter = parseQuery(manageDocs.tenantTaskFeed.query, req.query);
        return feedReply((sse) => {
          const feed = new TaskFeed(d.sql, sse, { tenantId, ...filter }, pollMs);
          sse.onClose(() => feed.stop());
        });
      },
    });
    table.add({
      method: 'GET',
      pattern: '/api/tasks/:taskId',
      doc: manageDocs.tenantTask,
      handler: async (req) => {
        const { tenantId } = await requireAdmin(d.auth, req);
        return jsonReply(200, {
          task: tenantTaskView(await ownTask(tenantId, req.params.taskId ?? '')),
        });
      },
    });
    table.add({
      method: 'POST',
      pattern: '/api/tasks/:taskId/cancel',
      doc: manageDocs.cancelTenantTask,
      handler: async (req) => {
        const { tenantId } = await requireAdmin(d.auth, req);
        const task = await ownTask(tenantId, req.params.taskId ?? '');
        // Only a task's sender may cancel it; the admin acts for its own tenant's sender.
        if (task.senderTenantId !== tenantId) {
          throw new HubError('TASK_NOT_CANCELABLE', 'only the sender of a task may cancel it', {
            data: { taskId: task.id },
          });
        }
        const after = await d.tasks.cancel(
          { kind: 'agent', agentId: task.senderId, tenantId },
          task.id
        );
        return jsonReply(200, { task: tenantTaskView(after) });
      },
    });
  };
}

function feedReply(start: (sse: SseWriter) => void): Reply {
  return {
    status: 200,
    headers: {},
    body: '',
    stream: (res, exchange) => start(new SseWriter(res, exchange)),
  };
}

/**
 * One open feed: every poll reads the rows the index wrote in the look-back window and sends each
 * task whose rev it has not sent yet, as `data: {"task": …}`. Only changes after the feed opened.
 */
class TaskFeed {
  private readonly sent = new Map<string, { rev: number; at: number }>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly openedAt = Date.now();

  constructor(
    private readonly sql: Queryable,
    private readonly sse: SseWriter,
    private readonly q: { tenantId: string } & z.output<typeof TaskFeedQuery>,
    private readonly pollMs: number
  ) {
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.poll(), this.pollMs);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    const now = Date.now();
    try {
      const since = new Date(Math.max(this.openedAt, now - FEED_LOOKBACK_MS));
      const tasks = await listTenantTasks(this.sql, {
        ...this.q,
        limit: TASKS_LIMIT.max,
        updatedSince: since,
      });
      for (const t of tasks) {
        if (!this.sse.isOpen) return;
        if ((this.sent.get(t.id)?.rev ?? -1) >= t.rev) continue;
        this.sent.set(t.id, { rev: t.rev, at: now });
        this.sse.event(undefined, JSON.stringify({ task: tenantTaskView(t, SUMMARY) }));
      }
      for (const [id, s] of this.sent) {
        if (s.at < now - 2 * FEED_LOOKBACK_MS) this.sent.delete(id);
      }
    } catch {
      // The database is away for a moment: the next poll's look-back covers what this one missed.
    }
    this.schedule();
  }
}
