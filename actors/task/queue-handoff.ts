// The hand-off between tasks and recipient queues: what a queued message carries to create its
// task, and the QueueDelegate the queue owner calls to create, deliver and expire queued work.
import { HubError } from '../../runtime/errors/index.js';
import { TerminalStates, type Message, type Task } from '../../runtime/protocol/index.js';
import type { QueueEntry } from '../queue/queue-index.js';
import type { QueueTransport } from '../queue/queue.events.js';
import type { QueueDelegate } from '../queue/queue-service.js';
import type { AgentRecord } from '../agent/directory.js';
import type { DeliveryAttempts } from './attempt.js';
import type { EventsReport } from './events-report.js';
import type { TaskCore } from './task-core.js';
import type { TaskInput } from './task.events.js';

/** How long a queued delivery waits for another node's HTTP call of it (Task.calling), polling. */
const QUEUE_CALL_WAIT_MS = 3000;
const QUEUE_CALL_POLL_MS = 200;

/** The failure text senders see when a queued message's TTL ran out. */
const EXPIRED = 'message expired in the queue before it could be delivered (effective TTL elapsed)';

/** A task whose message should be in its recipient's queue, waiting for the drain. */
export function isQueuedAndWaiting(t: Task): boolean {
  return t.delivery === 'queued' && t.status.state === 'submitted';
}

/** What a queue owner needs to create the task of an admitted message. */
export interface TaskSpawn {
  partition: number;
  input: TaskInput;
}

/**
 * How the recipient's queue retries: an agent with a URL is retried over HTTP every retry
 * interval (and at once when its WebSocket connects); one without waits for its WebSocket.
 */
export function queueTransport(agent: AgentRecord): QueueTransport {
  return agent.url !== null ? 'http' : 'websocket';
}

/** The smaller of the sender's x-ttl and the recipient's queue_ttl_seconds (spec "States"). */
export function effectiveTtlSeconds(xTtl: number | undefined, recipient: AgentRecord): number {
  return xTtl === undefined ? recipient.queueTtlSeconds : Math.min(xTtl, recipient.queueTtlSeconds);
}

export class QueueHandoff implements QueueDelegate {
  constructor(
    private readonly core: TaskCore,
    private readonly report: EventsReport,
    private readonly attempts: DeliveryAttempts
  ) {}

  async transportOf(recipientId: string): Promise<QueueTransport> {
    const r = await this.core.o.directory.get(recipientId);
    return r ? queueTransport(r) : 'websocket';
  }

  async createTask(spawn: unknown, key: string) {
    const { partition, input } = spawn as TaskSpawn;
    const r = await this.core.o.host.send({ kind: 'task', id: input.id, partition }, undefined, {
      input,
      key,
    });
    return { taskId: r.id, task: r.view.context, created: r.created };
  }

  async deliverQueued(
    entry: QueueEntry,
    stored: Message | undefined
  ): Promise<'delivered' | 'busy' | 'offline' | 'gone'> {
    const { o } = this.core;
    const addr = this.core.address(entry.taskId);
    let task = await this.core.read(addr);
    if (!task || TerminalStates.has(task.status.state)) return 'gone';
    // Another node is calling the HTTP agent with it (Task.calling: this queue's previous owner
    // before a move, or the task's owner whose call just failed and queued it, its `task.queued`
    // not written yet): its answer or its queued mark comes soon, so this waits a moment for it,
    // then counts the agent busy (the queue tries again later) rather than call it again.
    for (let waited = 0; this.attempts.callWaitMs(task) > 0; waited += QUEUE_CALL_POLL_MS) {
      if (waited >= QUEUE_CALL_WAIT_MS) return 'busy';
      await new Promise((r) => setTimeout(r, QUEUE_CALL_POLL_MS));
      task = await this.core.read(addr);
      // Answered or finished meanwhile: that call delivered it.
      if (!task || TerminalStates.has(task.status.state) || task.delivery === undefined) {
        return 'gone';
      }
    }
    // The record at the queued message's position held no message: it was not the record this
    // queue wrote there (seen after a NATS server was cut from the other two). Every attempt then
    // failed on it and the queue behind it waited for good; the task holds its own copy of the
    // message it waits to deliver (same messageId).
    const message = stored ?? task.messages.at(-1);
    if (stored === undefined) {
      o.log.error(
        { taskId: task.id, seq: entry.seq, recipientId: entry.recipientId },
        "queued record without its message: delivering the task's own copy"
      );
    }
    if (message === undefined) return 'gone';
    const recipient = await o.directory.get(entry.recipientId);
    if (!recipient) {
      await this.report.failAndReport(addr, task, 'recipient agent no longer exists');
      return 'gone';
    }
    const route = this.attempts.routeOf(recipient);
    const via = route === 'websocket' ? o.presence.where(recipient.id)?.nodeId : undefined;
    const outcome = await this.attempts.attempt(task, message, recipient, route);
    switch (outcome.kind) {
      case 'pushed':
        // Durable before the queue deletes its record: a crash in between must not leave a
        // delivered message's task in `submitted` with nothing left to move it.
        await this.core.event(addr, {
          type: 'task.start',
          at: this.core.now(),
          ...(via ? { node: via } : {}),
        });
        return 'delivered';
      case 'answered':
        await this.attempts.applyAnswer(addr, recipient.id, outcome.answer);
        return 'delivered';
      case 'unreachable':
        return 'offline';
      case 'busy':
        return 'busy';
      default: {
        const never: never = outcome;
        throw new HubError('INTERNAL', `unknown outcome ${JSON.stringify(never)}`);
      }
    }
  }

  async stillQueued(taskId: string): Promise<boolean> {
    const task = await this.core.read(this.core.address(taskId));
    return task !== undefined && isQueuedAndWaiting(task);
  }

  async expired(entry: QueueEntry): Promise<void> {
    const addr = this.core.address(entry.taskId);
    const task = await this.core.read(addr);
    if (!task || TerminalStates.has(task.status.state)) return;
    await this.report.failAndReport(addr, task, EXPIRED);
  }
}
