// Watching tasks: live changes from the task's snapshot subject (SSE, waiters on other nodes),
// in-process listeners on the task's owner, and blocking waits until a task settles.
import type { Subscription } from '@nats-io/nats-core';
import { decodeJson, partitionLabel, subjects } from '../../runtime/bus/index.js';
import type { ActorAddress } from '../../runtime/host/index.js';
import type { Task } from '../../runtime/protocol/index.js';
import type { Principal } from '../../infra/db/index.js';
import { SETTLED, type TaskCore } from './task-core.js';

/** How often a waiter on the owner re-reads the task, in case the partition moves mid-wait. */
const OWNER_POLL_MS = 2000;

export interface SettleWaiter {
  /** The task once it settles, or undefined at the timeout or on cancel. */
  result: Promise<Task | undefined>;
  cancel(): void;
}

export class TaskWatch {
  /** Blocking waiters on this node for tasks this node owns, by task id. */
  private readonly localListeners = new Map<string, Set<TaskListener>>();

  constructor(private readonly core: TaskCore) {}

  /** Owner side, after each durable change: wake this node's waiters of the task. */
  notify(task: Task): void {
    const local = this.localListeners.get(task.id);
    if (local) for (const l of local) l.onTask(task);
  }

  /**
   * Live task changes, on any node: the owner's snapshot writes to the partition log are also
   * delivered to core NATS subscribers of the snapshot subject, so listening costs the owner no
   * extra publish. (A write the stream then refuses, by a fenced stale owner, is seen too; the
   * next owner's writes follow within moments.) Returns the unsubscribe.
   */
  subscribe(taskId: string, onTask: (task: Task) => void): () => void {
    const { o } = this.core;
    const addr = this.core.address(taskId);
    const label = partitionLabel(addr.partition, o.partitions);
    const sub: Subscription = o.bus.nc.subscribe(subjects.actorSnapshot(label, 'task', taskId), {
      callback: (_err, msg) => {
        let task: Task;
        try {
          task = decodeJson<{ snapshot: { context: Task } }>(msg.data).snapshot.context;
        } catch (err) {
          o.log.warn({ err, taskId }, 'unreadable task snapshot ignored');
          return;
        }
        onTask(task);
      },
    });
    return () => sub.unsubscribe();
  }

  /**
   * Wait until a task the principal can see settles, at most `timeoutMs` or until `signal` aborts;
   * resolves with the task as it then stands (settled or not).
   */
  async waitFor(
    principal: Principal,
    taskId: string,
    timeoutMs: number,
    signal?: AbortSignal
  ): Promise<Task> {
    const addr = this.core.address(taskId);
    const waiter = this.waitSettled(addr, timeoutMs);
    const stop = () => waiter.cancel();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      // It may have settled before the waiter was in place.
      const current = await this.core.readVisible(principal, addr);
      if (SETTLED.has(current.status.state) || signal?.aborted) return current;
      return (await waiter.result) ?? (await this.core.readVisible(principal, addr));
    } finally {
      signal?.removeEventListener('abort', stop);
      waiter.cancel();
    }
  }

  /**
   * Resolves with the task once it settles (or undefined at the timeout). On the task's owner the
   * durable hook calls the waiter directly, with a slow re-read in case the partition moves away
   * mid-wait; elsewhere the waiter listens to the task's snapshot subject.
   */
  waitSettled(
    addr: ActorAddress,
    timeoutMs: number,
    settles: (t: Task) => boolean = settledState
  ): SettleWaiter {
    return new SettleWait(this, addr, timeoutMs, settles);
  }

  /** A waiter of a task this node owns, told of each durable change by notify(). */
  listenLocally(taskId: string, listener: TaskListener): void {
    let set = this.localListeners.get(taskId);
    if (!set) this.localListeners.set(taskId, (set = new Set()));
    set.add(listener);
  }

  stopListening(taskId: string, listener: TaskListener): void {
    const set = this.localListeners.get(taskId);
    if (!set) return;
    set.delete(listener);
    if (set.size === 0) this.localListeners.delete(taskId);
  }

  /** The host that owns the task's partition, for a waiter's re-read. */
  get host() {
    return this.core.o.host;
  }
}

const settledState = (t: Task): boolean => SETTLED.has(t.status.state);

interface TaskListener {
  onTask(task: Task): void;
}

/**
 * One blocking wait: an object with methods rather than a handful of closures, since every
 * blocking SendMessage makes one (issue 19). On the owner the durable hook calls onTask directly,
 * with a slow re-read in case the partition moves away mid-wait; elsewhere it listens to the
 * task's snapshot subject.
 */
class SettleWait implements SettleWaiter, TaskListener {
  readonly result: Promise<Task | undefined>;
  private resolve!: (t: Task | undefined) => void;
  private done = false;
  private readonly timer: NodeJS.Timeout;
  private poll: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly watch: TaskWatch,
    private readonly addr: ActorAddress,
    timeoutMs: number,
    private readonly settles: (t: Task) => boolean
  ) {
    this.result = new Promise<Task | undefined>((resolve) => (this.resolve = resolve));
    this.timer = setTimeout(expire, timeoutMs, this);
    if (watch.host.owns(addr.partition)) {
      watch.listenLocally(addr.id, this);
      this.poll = setInterval(reread, OWNER_POLL_MS, this);
    } else {
      this.unsubscribe = watch.subscribe(addr.id, (t) => this.onTask(t));
    }
  }

  onTask(t: Task): void {
    if (!this.done && this.settles(t)) this.finish(t);
  }

  cancel(): void {
    this.finish(undefined);
  }

  /** The owner's periodic re-read (the partition may have moved away mid-wait). */
  reread(): void {
    void this.watch.host.read(this.addr).then(
      (v) => v && this.onTask(v.context as Task),
      () => undefined
    );
  }

  private finish(t: Task | undefined): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    clearInterval(this.poll);
    if (this.unsubscribe) this.unsubscribe();
    else this.watch.stopListening(this.addr.id, this);
    this.resolve(t);
  }
}

function expire(w: SettleWait): void {
  w.cancel();
}

function reread(w: SettleWait): void {
  w.reread();
}
