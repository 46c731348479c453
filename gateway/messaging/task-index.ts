// The PostgreSQL tasks index: a projector per owned partition (a durable consumer over the
// partition's task snapshots, so a crash replays what was not yet committed) and the ListTasks
// reader. The index trails the log by a few milliseconds; GetTask always reads the log.
import { AckPolicy, DeliverPolicy, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { consumers, streams, subjects, type Bus } from '../../runtime/bus/index.js';
import type { HandoverReason, PartitionHandler } from '../../runtime/cluster/index.js';
import { InvalidParamsError } from '../../runtime/errors/index.js';
import type { Logger } from '../../runtime/log/index.js';
import type { ListTasksParams, Task, TaskPage } from '../../runtime/protocol/index.js';
import { listTasksFor, upsertTasks, type Principal, type Queryable } from '../../infra/db/index.js';

const FLUSH_MS = 10;
const BATCH = 500;

export class TaskProjector implements PartitionHandler {
  private readonly running = new Map<number, { iter: ConsumerMessages; done: Promise<void> }>();

  constructor(
    private readonly bus: Bus,
    private readonly sql: Queryable,
    private readonly log: Logger
  ) {}

  async activate(partition: number, label: string): Promise<void> {
    const stream = streams.partition(label);
    const name = consumers.taskProjector(label);
    await this.bus.jsm.consumers.add(stream, {
      durable_name: name,
      filter_subject: subjects.actorSnapshotsOfKind(label, 'task'),
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      max_ack_pending: 5000,
      ack_wait: 30_000_000_000,
      num_replicas: this.bus.replicas,
    });
    const consumer = await this.bus.js.consumers.get(stream, name);
    const iter = await consumer.consume({ max_messages: BATCH });
    this.running.set(partition, { iter, done: this.run(label, iter) });
  }

  async deactivate(partition: number, _label: string, _reason: HandoverReason): Promise<void> {
    const r = this.running.get(partition);
    if (!r) return;
    this.running.delete(partition);
    await r.iter.close().catch(() => undefined);
    await r.done;
  }

  private async run(label: string, iter: ConsumerMessages): Promise<void> {
    let batch: JsMsg[] = [];
    let timer: NodeJS.Timeout | undefined;
    let flushing = Promise.resolve();
    const flush = () => {
      timer = undefined;
      const msgs = batch;
      batch = [];
      flushing = flushing.then(() => this.apply(label, msgs));
    };
    for await (const m of iter) {
      batch.push(m);
      if (batch.length >= BATCH) {
        clearTimeout(timer);
        flush();
      } else timer ??= setTimeout(flush, FLUSH_MS);
    }
    clearTimeout(timer);
    if (batch.length) flush();
    await flushing;
  }

  private async apply(label: string, msgs: JsMsg[]): Promise<void> {
    const latest = new Map<string, Task>();
    for (const m of msgs) {
      try {
        const t = m.json<{ snapshot: { context: Task } }>().snapshot.context;
        const prev = latest.get(t.id);
        if (!prev || prev.rev < t.rev) latest.set(t.id, t);
      } catch (err) {
        this.log.warn({ err, subject: m.subject }, 'unreadable task snapshot skipped by the index');
      }
    }
    try {
      await upsertTasks(this.sql, [...latest.values()]);
      for (const m of msgs) m.ack();
    } catch (err) {
      // Not acked: redelivered after ack_wait, so the index catches up once PostgreSQL is back.
      this.log.warn({ err, partition: label, n: msgs.length }, 'task index write failed');
      for (const m of msgs) m.nak(1000);
    }
  }
}

export interface TaskLister {
  list(principal: Principal, p: ListTasksParams): Promise<{ tasks: Task[]; page: TaskPage }>;
}

export function createTaskLister(sql: Queryable): TaskLister {
  return {
    async list(principal, p) {
      if (principal.kind !== 'agent')
        return { tasks: [], page: { nextPageToken: '', pageSize: 0, totalSize: 0 } };
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
