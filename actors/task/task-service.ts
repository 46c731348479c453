// The A2A task operations behind every dialect, composed from the modules that do the work:
// accepting (accept.ts, respond.ts), delivering (deliver.ts, attempt.ts, queue-handoff.ts) and
// watching (watch.ts) tasks. The owner's reaction to every durable change is wired here.
import type { ActorAddress, ActorView } from '../../runtime/host/index.js';
import type { SendRequest, Task, TaskRespondParams } from '../../runtime/protocol/index.js';
import type { Principal } from '../../infra/db/index.js';
import type { AgentConnection } from '../agent/frames.js';
import { TaskAcceptor } from './accept.js';
import { TaskAnnouncer } from './announce.js';
import { DeliveryAttempts } from './attempt.js';
import { TaskDelivery } from './deliver.js';
import { EventsReport } from './events-report.js';
import { QueueHandoff } from './queue-handoff.js';
import { QueuedTaskSweep } from './queue-sweep.js';
import { TaskResponder } from './respond.js';
import { TaskCore, type TaskServiceOptions } from './task-core.js';
import { TaskWatch } from './watch.js';

export { SETTLED, type TaskServiceOptions } from './task-core.js';

export class TaskService {
  readonly accept: TaskAcceptor;
  readonly respondTo: TaskResponder;
  readonly delivery: TaskDelivery;
  readonly watch: TaskWatch;
  private readonly core: TaskCore;
  private readonly announcer: TaskAnnouncer;

  constructor(o: TaskServiceOptions) {
    const core = new TaskCore(o);
    const report = new EventsReport(core);
    const attempts = new DeliveryAttempts(core, report);
    this.core = core;
    this.watch = new TaskWatch(core);
    this.accept = new TaskAcceptor(core, report, this.watch, (s, r) =>
      this.delivery.laneBusy(s, r)
    );
    this.respondTo = new TaskResponder(core, report);
    const sweep = new QueuedTaskSweep(core, report);
    this.delivery = new TaskDelivery(core, report, attempts, sweep);
    o.queues?.onActivated((p) => sweep.queueActivated(p));
    this.announcer = new TaskAnnouncer(core, attempts.messageSend);
    o.host.onDurable('task', (addr, view) => this.onDurable(addr, view));
    o.host.onRestored('task', (addr, view) => this.delivery.onRestored(addr, view));
    o.host.onRefused('task', (addr, view, err) => this.respondTo.onRefused(addr, view, err));
    o.queues?.connect(new QueueHandoff(core, report, attempts));
  }

  send(principal: Principal, req: SendRequest): Promise<Task> {
    return this.accept.send(principal, req);
  }

  cancel(principal: Principal, taskId: string): Promise<Task> {
    return this.respondTo.cancel(principal, taskId);
  }

  /** The recipient's reply (task/respond, or a WebSocket task_response frame). */
  respond(principal: Principal, p: TaskRespondParams): Promise<Task> {
    return this.respondTo.respond(principal, p);
  }

  /** A reply frame the gateway refused unread for its size: the recipient's task fails. */
  replyRefused(principal: Principal, taskId: string, reason: string): Promise<void> {
    return this.respondTo.replyRefused(principal, taskId, reason);
  }

  /**
   * The recipient acknowledged a pushed message (a WebSocket `received` frame): recorded with the
   * task's next write, so a redelivery after a node loss skips it. Fire and forget.
   */
  received(principal: Principal, taskId: string): void {
    this.respondTo.received(principal, taskId);
  }

  /** The agent answered or acknowledged the task's message on this socket: it has it. */
  settledOnSocket(conn: AgentConnection, taskId: string): void {
    this.core.o.frames.settled(conn, taskId);
  }

  /**
   * An agent's socket closed: the messages pushed to it that the agent neither answered nor
   * acknowledged are delivered again, to its next connection or its queue. Fire and forget.
   */
  socketClosed(conn: AgentConnection): void {
    this.delivery.socketClosed(conn);
  }

  /** The task if the caller is its sender or recipient; anyone else gets TASK_NOT_FOUND. */
  getForCaller(principal: Principal, taskId: string): Promise<Task> {
    return this.core.readVisible(principal, this.core.address(taskId));
  }

  address(taskId: string): ActorAddress {
    return this.core.address(taskId);
  }

  /** Live changes of a task, on any node; returns the unsubscribe. */
  subscribe(taskId: string, onTask: (task: Task) => void): () => void {
    return this.watch.subscribe(taskId, onTask);
  }

  /** Wait until a task the principal can see settles (or the timeout, or the signal). */
  waitFor(principal: Principal, taskId: string, timeoutMs: number, signal?: AbortSignal) {
    return this.watch.waitFor(principal, taskId, timeoutMs, signal);
  }

  /** Membership changed: pushes to sockets on nodes that left are delivered again. */
  nodesChanged(): void {
    this.delivery.nodesChanged();
  }

  /** Owner side, after each durable change: wake waiters, deliver, tell the parties. */
  private onDurable(addr: ActorAddress, view: ActorView): void {
    const task = view.context as Task;
    this.watch.notify(task);
    this.delivery.track(addr, task);
    this.announcer.announce(task);
  }
}
