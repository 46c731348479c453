// Recovery of tasks a crash left without their queued message (issue 30). A new send to a
// recipient that must queue creates its task (in the sender's partition) and then appends the
// message to the recipient's queue (in the recipient tenant's partition): two durable writes in two
// streams. A crash of the queue's owner between them leaves a `submitted` task with delivery
// `queued` that no queue holds. So whenever a queue partition is activated (any node, after a
// crash or a move) and whenever this node restores a task partition, the owners check their
// queued, still-submitted tasks of that queue with its owner: one that no queue holds is queued
// again (its messageId unchanged), or failed with the reason when the queue refuses it now.
import { HubError } from '../../runtime/errors/index.js';
import type { ActorAddress } from '../../runtime/host/index.js';
import type { Task } from '../../runtime/protocol/index.js';
import type { EventsReport } from './events-report.js';
import { QUEUE_REFUSALS } from './attempt.js';
import { effectiveTtlSeconds, isQueuedAndWaiting, queueTransport } from './queue-handoff.js';
import type { TaskCore } from './task-core.js';

/** Checks one node runs at once (each a request to the queue's owner). */
const CONCURRENCY = 8;
/** A check that failed on the hub's side (owner moving, log unavailable) is retried this often. */
const MAX_TRIES = 6;
const RETRY_FIRST_MS = 2000;

/** What senders read on a task whose queued message a crash lost and the queue then refused. */
export const LOST_IN_CRASH =
  "the hub lost this message's place in the recipient's queue in a crash and could not queue it again";

export class QueuedTaskSweep {
  /** This node's tasks that wait in a queue (submitted, delivery `queued`). */
  private readonly waiting = new Map<string, { addr: ActorAddress; queuePartition: number }>();
  private readonly checking = new Set<string>();
  private restoredTimer: NodeJS.Timeout | undefined;
  private readonly restored: ActorAddress[] = [];

  constructor(
    private readonly core: TaskCore,
    private readonly report: EventsReport
  ) {}

  /** After each durable change of a task on its owner. */
  track(addr: ActorAddress, task: Task): void {
    if (isQueuedAndWaiting(task)) this.remember(addr, task);
    else if (this.waiting.size > 0) this.waiting.delete(task.id);
  }

  private remember(addr: ActorAddress, task: Task): void {
    const queues = this.core.o.queues;
    if (!queues || this.waiting.has(task.id)) return;
    this.waiting.set(task.id, { addr, queuePartition: queues.partitionOf(task.recipientTenantId) });
  }

  /** A task of a partition this node took over: checked once restoring has settled. */
  onRestored(addr: ActorAddress, task: Task, afterMs: number): void {
    if (!isQueuedAndWaiting(task)) return;
    this.remember(addr, task);
    this.restored.push(addr);
    this.restoredTimer ??= setTimeout(() => {
      this.restoredTimer = undefined;
      void this.check(this.restored.splice(0));
    }, afterMs);
    this.restoredTimer.unref();
  }

  /** A queue partition was activated (on any node): check this node's tasks queued there. */
  queueActivated(partition: number): void {
    const { queues, host } = this.core.o;
    if (!queues || this.waiting.size === 0) return;
    const due: ActorAddress[] = [];
    for (const [taskId, w] of this.waiting) {
      if (!host.owns(w.addr.partition)) this.waiting.delete(taskId);
      else if (w.queuePartition === partition) due.push(w.addr);
    }
    void this.check(due);
  }

  private async check(addrs: ActorAddress[]): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < addrs.length) {
        const addr = addrs[next++]!;
        if (this.checking.has(addr.id)) continue;
        this.checking.add(addr.id);
        try {
          await this.ensure(addr, 0);
        } finally {
          this.checking.delete(addr.id);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, addrs.length) }, worker));
  }

  private async ensure(addr: ActorAddress, tries: number): Promise<void> {
    const { o } = this.core;
    if (!o.queues || !o.host.owns(addr.partition)) return;
    const task = await this.core.read(addr).catch(() => undefined);
    if (!task || !isQueuedAndWaiting(task)) return;
    try {
      const recipient = await o.directory.get(task.recipientId);
      if (!recipient) {
        await this.report.failAndReport(addr, task, 'recipient agent no longer exists');
        return;
      }
      const message = task.messages.at(-1)!;
      const ttl = task.configuration?.['x-ttl'] as number | undefined;
      const r = await o.queues.enqueue({
        tenantId: recipient.tenantId,
        recipientId: recipient.id,
        senderId: task.senderId,
        transport: queueTransport(recipient),
        key: `${task.senderId}:${message.messageId}`,
        maxPending: recipient.queueMaxPending,
        expiresAt: task.createdAt + effectiveTtlSeconds(ttl, recipient) * 1000,
        message,
        taskId: task.id,
        ensure: true,
        // Its place among its sender's messages is where it was accepted, not at the tail.
        acceptedAt: task.status.timestamp,
      });
      if (!r.duplicate) {
        o.log.warn(
          { taskId: task.id, recipientId: task.recipientId },
          'queued again: a crash had lost the message between its task and its queue'
        );
      }
    } catch (err) {
      if (err instanceof HubError && QUEUE_REFUSALS.has(err.code)) {
        await this.report
          .failAndReport(addr, task, `${LOST_IN_CRASH}: ${err.message}`)
          .catch(() => undefined);
        return;
      }
      if (tries + 1 >= MAX_TRIES) {
        o.log.error({ err, taskId: task.id }, 'checking a queued task failed; giving up');
        return;
      }
      await new Promise((r) => setTimeout(r, RETRY_FIRST_MS * 2 ** tries).unref());
      await this.ensure(addr, tries + 1);
    }
  }
}
