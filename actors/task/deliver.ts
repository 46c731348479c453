// Owner side of delivery: each pending message is delivered once per node, in a lane per
// sender → recipient pair (FIFO also when one is diverted to the queue), retried while a failure
// is the hub's own, handed to the next owner after a move, and pushed again when the node that
// held the recipient's socket leaves the membership.
import { HubError } from '../../runtime/errors/index.js';
import type { ActorAddress, ActorView } from '../../runtime/host/index.js';
import { throttledLog, type ThrottledLog } from '../../runtime/log/index.js';
import { TerminalStates, type Message, type Task } from '../../runtime/protocol/index.js';
import type { AgentRecord } from '../agent/directory.js';
import type { AgentConnection } from '../agent/frames.js';
import type { DeliveryAttempts } from './attempt.js';
import { START_LINGER_MS } from './attempt.js';
import type { EventsReport } from './events-report.js';
import type { TaskCore } from './task-core.js';
import type { QueuedTaskSweep } from './queue-sweep.js';
import type { TaskEvent } from './task.events.js';

/** The failure text senders see when the recipient's socket is backed up and it cannot queue. */
const BUSY = 'recipient is not keeping up; its WebSocket is backed up';

/** A restored task may still be in its old owner's hands (graceful handover): wait this long. */
const HANDOVER_GRACE_MS = 3000;
/** How often a delivery waiting on another node's HTTP call (Task.calling) looks again. */
const CALL_POLL_MS = 200;
/** Retries of a delivery that failed on the hub's side (log or database unavailable). */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 30_000;
/**
 * Attempts of one delivery on this node (about four minutes with the pauses above); past them the
 * task fails with the reason (a new owner after a move starts its own count).
 */
const DELIVERY_MAX_TRIES = 12;

export class TaskDelivery {
  /** Deliveries running on this node, by `<taskId>#<message count>`. */
  private readonly delivering = new Set<string>();
  /**
   * Per sender → recipient, the tail of the deliveries in progress. Each waits for the one before
   * it to be pushed or queued, so messages of a pair reach the recipient in order (also when one
   * of them is diverted to the queue).
   */
  private readonly lanes = new Map<string, Promise<void>>();
  /**
   * Per sender → HTTP recipient, when the newest call under way is settled (answered, queued or
   * given up). Calls run side by side, but one that fails queues its message only after the
   * calls before it settled: a call into a cut network waits out its timeout, and the next one,
   * failing at once, would otherwise be queued (and drained) first.
   */
  private readonly calls = new Map<string, Promise<void>>();
  /** Tasks pushed to a WebSocket and not answered yet → the node holding the socket. */
  private readonly pushed = new Map<string, { addr: ActorAddress; node: string }>();
  private readonly throttled: ThrottledLog;

  constructor(
    private readonly core: TaskCore,
    private readonly report: EventsReport,
    private readonly attempts: DeliveryAttempts,
    private readonly sweep: QueuedTaskSweep
  ) {
    this.throttled = throttledLog(core.o.log);
  }

  /** Start what a task's durable state asks of its owner; remember unanswered pushes. */
  track(addr: ActorAddress, task: Task, restoredAt?: number): void {
    if (task.delivery === 'pending' && !TerminalStates.has(task.status.state)) {
      this.startDelivery(addr, task, restoredAt !== undefined ? { notBefore: restoredAt } : {});
    }
    // A push the agent acknowledged (a `received` frame) is not pushed again after a node loss.
    if (task.deliveredVia !== undefined && task.status.state === 'working' && !task.received) {
      this.pushed.set(task.id, { addr, node: task.deliveredVia });
    } else if (this.pushed.size > 0) {
      this.pushed.delete(task.id);
    }
    this.sweep.track(addr, task);
  }

  /**
   * A partition this node takes over: its pending tasks are delivered by this node now, in the
   * order they became pending (the log's order). One that just changed may still be in its old
   * owner's hands (a graceful handover), so it gets a moment to finish there first.
   */
  onRestored(addr: ActorAddress, view: ActorView): void {
    if (view.status !== 'active') return;
    const task = view.context as Task;
    this.track(addr, task, task.status.timestamp + HANDOVER_GRACE_MS);
    this.sweep.onRestored(addr, task, HANDOVER_GRACE_MS);
    const live = this.core.o.liveNodes?.();
    if (
      task.deliveredVia !== undefined &&
      !task.received &&
      live &&
      !live.includes(task.deliveredVia)
    ) {
      this.redeliver(task.id);
    }
  }

  /**
   * Membership changed. A task pushed to a socket on a node that is gone may have lost its answer
   * with that node: deliver its message again (the agent sees the same taskId and messageId).
   */
  nodesChanged(): void {
    const live = this.core.o.liveNodes?.();
    if (!live) return;
    for (const [taskId, p] of this.pushed) {
      // A partition that moved away took its tasks along: the new owner checks them on restore.
      if (!this.core.o.host.owns(p.addr.partition)) this.pushed.delete(taskId);
      else if (!live.includes(p.node)) this.redeliver(taskId);
    }
  }

  /**
   * The recipient's socket closed. What it was written may have died in its buffers, with the
   * socket or on the way (a client that closes mid-drain, a network that drops): each message
   * pushed to it lately is delivered again unless the agent answered or acknowledged it (the
   * owner's task decides: `redeliverable`). Without this the task stayed `working` for good.
   */
  socketClosed(conn: AgentConnection): void {
    for (const { taskId, messageId } of this.core.o.frames.socketClosed(conn)) {
      this.core.o.host
        .send(this.core.address(taskId), {
          type: 'task.redeliver',
          at: this.core.now(),
          messageId,
        } satisfies TaskEvent)
        .then(
          (r) => {
            if (r.changed) this.core.o.metrics?.socketCloseRedeliveries.inc();
          },
          (err: unknown) =>
            this.core.o.log.warn(
              { err, taskId, agentId: conn.agentId },
              'delivering again after a socket closed failed'
            )
        );
    }
  }

  private redeliver(taskId: string): void {
    const p = this.pushed.get(taskId);
    if (!p) return;
    this.pushed.delete(taskId);
    this.core.o.metrics?.redeliveries.inc();
    this.core
      .event(p.addr, { type: 'task.redeliver', at: this.core.now() })
      .catch((err: unknown) =>
        this.core.o.log.warn({ err, taskId }, 'redelivery after a node loss failed')
      );
  }

  /**
   * Deliver the task's undelivered message (Task.delivery `pending`), once per message on this
   * node; a failure on the hub's side (log, database) is retried while this node owns the task
   * and it is still pending. After a crash or a move the next owner finds it pending again.
   *
   * The retries run inside the pair's lane: a later message of the same sender → recipient waits
   * behind a failed one until it is delivered, queued or given up, never overtakes it (a NATS
   * server killed under load once let a later message through while two earlier ones waited out
   * their back-off).
   */
  private startDelivery(addr: ActorAddress, task: Task, opts: { notBefore?: number } = {}): void {
    const { host } = this.core.o;
    const count = task.messages.length;
    const job = `${task.id}#${count}`;
    // A restore always gets its turn: a delivery still under way on this node may belong to the
    // partition's previous activation (its "working" was never stored), and would leave the
    // restored task pending for good. The restored one rereads the task when its turn comes and
    // delivers only if it is still pending (at worst once more: at-least-once).
    if (this.delivering.has(job) && opts.notBefore === undefined) return;
    this.delivering.add(job);
    this.inLane(task, async (release) => {
      if (opts.notBefore !== undefined) {
        // Restored: the partition finishes activating first, and the old owner may finish a
        // delivery it had under way meanwhile (its events reach this node then).
        await sleep(Math.max(0, opts.notBefore - this.core.now()));
        for (let i = 0; i < 400 && !host.owns(addr.partition); i++) await sleep(50);
      }
      for (let tries = 0; ; tries++) {
        // The durable view that started this may be stale (a later change is already in memory,
        // e.g. the push and the agent's answer): deliver only what the live task still holds.
        if (!host.owns(addr.partition)) return;
        try {
          const live = await this.afterOtherCall(addr, count);
          if (!live) return;
          await this.deliver(addr, live, live.messages.at(-1)!, release);
          return;
        } catch (err) {
          if (!this.mayRetry(addr, task, tries, err)) return;
          await sleep(Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** tries));
        }
      }
    }).then(
      () => this.delivering.delete(job),
      (err: unknown) => {
        this.delivering.delete(job);
        this.core.o.log.warn({ err, taskId: task.id }, 'delivery stopped unexpectedly');
      }
    );
  }

  /**
   * The live task, once no HTTP call of its pending message is under way elsewhere (Task.calling:
   * the partition's previous owner called the agent and its answer comes here, routed); undefined
   * when it is no longer pending here (answered, queued, moved away). Polls: the wait ends with the
   * answer or the call's deadline.
   */
  private async afterOtherCall(addr: ActorAddress, count: number): Promise<Task | undefined> {
    const { host, metrics } = this.core.o;
    for (let waited = false; ; waited = true) {
      const live = await this.core.read(addr);
      if (!live || !isPending(live, count)) {
        if (waited) metrics?.handoverCallsAwaited.inc({ outcome: 'answered' });
        return undefined;
      }
      const ms = this.attempts.callWaitMs(live);
      if (ms <= 0) {
        if (waited) metrics?.handoverCallsAwaited.inc({ outcome: 'called_again' });
        return live;
      }
      await sleep(Math.min(ms, CALL_POLL_MS));
      if (!host.owns(addr.partition)) return undefined;
    }
  }

  /**
   * A delivery failed: whether to try again, while it is the hub's own failure and this node owns
   * the task, up to a limit (past it the task fails with the reason).
   */
  private mayRetry(addr: ActorAddress, task: Task, tries: number, err: unknown): boolean {
    const { host, log, metrics } = this.core.o;
    // Refused for good (too large, invalid): the owner's store failed the task with the reason.
    if (err instanceof HubError && !err.retryable) {
      this.throttled.warn(
        `delivery:${err.code}`,
        { err, taskId: task.id },
        'delivery failed for good; not retried'
      );
      return false;
    }
    // Moved away meanwhile: the new owner delivers it (and counts its own tries).
    if (!host.owns(addr.partition)) return false;
    if (tries + 1 >= DELIVERY_MAX_TRIES) {
      metrics?.retryGiveUps.inc({ loop: 'delivery' });
      log.error(
        { err, taskId: task.id, tries: tries + 1 },
        'delivery retries exhausted; the task fails'
      );
      // The sender learns it and may send again, rather than wait on a task nobody retries.
      const why = err instanceof HubError ? err.message : 'internal error';
      void this.report
        .failAndReport(addr, task, `delivery failed on the hub's side ${tries + 1} times: ${why}`)
        .catch((e: unknown) =>
          log.warn({ err: e, taskId: task.id }, 'failing an undeliverable task failed')
        );
      return false;
    }
    this.throttled.warn(
      'delivery:retry',
      { err, taskId: task.id, tries: tries + 1 },
      'delivery failed; retrying'
    );
    return true;
  }

  /** A delivery of the pair is under way on this node (not yet pushed, queued or given up). */
  laneBusy(senderId: string, recipientId: string): boolean {
    return this.lanes.has(`${senderId}>${recipientId}`);
  }

  /**
   * Runs `fn` after the deliveries of the same sender → recipient pair started before it have
   * pushed or queued their message. `fn` may release the lane early (after its push).
   */
  private inLane(task: Task, fn: (release: () => void) => Promise<void>): Promise<void> {
    const pair = `${task.senderId}>${task.recipientId}`;
    const before = this.lanes.get(pair);
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    this.lanes.set(pair, mine);
    void mine.then(() => {
      if (this.lanes.get(pair) === mine) this.lanes.delete(pair);
    });
    const run = async () => {
      try {
        if (before) await before;
        await fn(release);
      } finally {
        release();
      }
    };
    return run();
  }

  /** Runs an HTTP call of the pair, given the settling of the calls before it. */
  private async callInTurn(
    task: Task,
    fn: (before: Promise<void> | undefined) => Promise<void>
  ): Promise<void> {
    const pair = `${task.senderId}>${task.recipientId}`;
    const before = this.calls.get(pair);
    let settled!: () => void;
    const mine = new Promise<void>((r) => (settled = r));
    this.calls.set(pair, mine);
    try {
      await fn(before);
    } finally {
      settled();
      if (this.calls.get(pair) === mine) this.calls.delete(pair);
    }
  }

  /** One call to an HTTP agent; a failed one queues behind the pair's earlier calls. */
  private async call(
    addr: ActorAddress,
    task: Task,
    message: Message,
    recipient: AgentRecord,
    before: Promise<void> | undefined
  ): Promise<void> {
    const outcome = await this.attempts.attempt(task, message, recipient, 'http', { owner: true });
    if (outcome.kind === 'answered') {
      await this.attempts.applyAnswer(addr, recipient.id, outcome.answer);
      return;
    }
    if (outcome.kind === 'pushed') throw new HubError('INTERNAL', 'an HTTP call reported a push');
    if (before) await before;
    const reason = outcome.kind === 'unreachable' ? outcome.reason : BUSY;
    await this.attempts.queueAfterAttempt(
      addr,
      task,
      message,
      recipient,
      outcome.kind === 'unreachable',
      reason
    );
  }

  /** Deliver the message: push, call, or queue it; `pushed` releases the pair's lane. */
  private async deliver(
    addr: ActorAddress,
    task: Task,
    message: Message,
    pushed: () => void
  ): Promise<void> {
    const { o } = this.core;
    const recipient = await o.directory.get(task.recipientId);
    if (!recipient) {
      await this.report.failAndReport(addr, task, 'recipient agent no longer exists');
      return;
    }
    // Calls to HTTP and official agents run side by side; only WebSocket pushes keep the lane.
    const route = this.attempts.routeOf(recipient);
    if (route !== 'websocket') pushed();
    // Messages queued before this one go first (FIFO): this one waits behind them.
    if (
      recipient.transport !== 'official' &&
      o.queues?.hasBacklog(recipient.id, recipient.tenantId)
    ) {
      await this.attempts.queueAfterAttempt(
        addr,
        task,
        message,
        recipient,
        false,
        'the recipient has earlier messages waiting in its queue'
      );
      return;
    }
    const via = route === 'websocket' ? o.presence.where(recipient.id)?.nodeId : undefined;
    if (route === 'http') {
      await this.callInTurn(task, (before) => this.call(addr, task, message, recipient, before));
      return;
    }
    const outcome = await this.attempts.attempt(task, message, recipient, route, { owner: true });
    switch (outcome.kind) {
      case 'pushed':
        pushed();
        // Nobody awaits "working": let it merge with the agent's reply when that comes quickly.
        await this.core.event(
          addr,
          { type: 'task.start', at: this.core.now(), ...(via ? { node: via } : {}) },
          START_LINGER_MS
        );
        return;
      case 'answered':
        await this.attempts.applyAnswer(addr, recipient.id, outcome.answer);
        return;
      case 'unreachable':
        await this.attempts.queueAfterAttempt(addr, task, message, recipient, true, outcome.reason);
        return;
      case 'busy':
        await this.attempts.queueAfterAttempt(addr, task, message, recipient, false, BUSY);
        return;
      default: {
        const never: never = outcome;
        throw new HubError('INTERNAL', `unknown outcome ${JSON.stringify(never)}`);
      }
    }
  }
}

/** Unref'd: a back-off under way does not hold a stopping process. */
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/** Still waiting for the owner to deliver the message that made it `count` messages long? */
function isPending(t: Task, count: number): boolean {
  return (
    t.delivery === 'pending' && t.messages.length === count && !TerminalStates.has(t.status.state)
  );
}
