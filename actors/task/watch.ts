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
  private readonly localListeners = new Map<string, Set<(t: Task) => void>>();

  constructor(private readonly core: TaskCore) {}

  /** Owner side, after each durable change: wake this node's waiters of the task. */
  notify(task: Task): void {
    const local = this.localListeners.get(task.id);
    if (local) for (const fn of local) fn(task);
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
    settles: (t: Task) => boolean = (t) => SETTLED.has(t.status.state)
  ): SettleWaiter {
    const { host } = this.core.o;
    let cancel!: () => void;
    const result = new Promise<Task | undefined>((resolve) => {
      let done = false;
      const timer = setTimeout(() => finish(undefined), timeoutMs);
      const onTask = (t: Task) => {
        if (settles(t)) finish(t);
      };
      let unsubscribe: () => void;
      let poll: NodeJS.Timeout | undefined;
      if (host.owns(addr.partition)) {
        unsubscribe = this.listenLocally(addr.id, onTask);
        poll = setInterval(() => {
          void host.read(addr).then(
            (v) => v && !done && onTask(v.context as Task),
            () => undefined
          );
        }, OWNER_POLL_MS);
      } else {
        unsubscribe = this.subscribe(addr.id, onTask);
      }
      const finish = (t: Task | undefined) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        clearInterval(poll);
        unsubscribe();
        resolve(t);
      };
      cancel = () => finish(undefined);
    });
    return { result, cancel };
  }

  private listenLocally(taskId: string, fn: (t: Task) => void): () => void {
    let set = this.localListeners.get(taskId);
    if (!set) this.localListeners.set(taskId, (set = new Set()));
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size === 0 && this.localListeners.get(taskId) === set) {
        this.localListeners.delete(taskId);
      }
    };
  }
}
