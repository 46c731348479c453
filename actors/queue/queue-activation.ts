// The queue side of the recovery sweep (issue 30 point 1). A crash between a task's creation and
// the durable append of its queued message leaves a `submitted` task that no queue holds. Whenever
// a node activates a queue partition it says so to every node; the task owners then check their
// queued tasks of that partition (actors/task/queue-sweep.ts) and queue again, with
// EnqueueRequest.ensure, any whose message is missing.
import type { Subscription } from '@nats-io/nats-core';
import { decodeJson, encodeJson, subjects, type Bus } from '../../runtime/bus/index.js';

export class QueueActivations {
  private readonly listeners: Array<(partition: number) => void> = [];
  private sub: Subscription | undefined;

  constructor(private readonly bus: Bus) {}

  start(): void {
    this.sub = this.bus.nc.subscribe(subjects.queueActivated, {
      callback: (_err, msg) => {
        const { partition } = decodeJson<{ partition: number }>(msg.data);
        for (const fn of this.listeners) fn(partition);
      },
    });
  }

  stop(): void {
    this.sub?.unsubscribe();
  }

  /** Called with the partition whenever any node activates a queue partition. */
  on(fn: (partition: number) => void): void {
    this.listeners.push(fn);
  }

  /** This node has activated the partition (its index is rebuilt and it serves requests). */
  announce(partition: number): void {
    this.bus.nc.publish(subjects.queueActivated, encodeJson({ partition }));
  }
}
