// What the owner tells of one recipient's queue (queues:inspect, /debug): counts from the index,
// the actor's state and tallies, and the first messages in line; and of its partitions, for
// /debug/cluster.
import { partitionLabel } from '../../runtime/bus/index.js';
import type { QueuePartition } from './queue-partition.js';
import type { QueueInspection } from './queue-types.js';

/** Messages of the head listed in an inspection. */
const HEAD_SHOWN = 20;

export function inspectQueue(
  qp: QueuePartition,
  recipientId: string,
  now: number
): QueueInspection {
  const a = qp.actors.get(recipientId);
  const c = a?.context;
  const value = a ? a.state : 'none';
  return {
    recipientId,
    pending: qp.index.pendingFor(recipientId),
    queued: qp.index.queuedFor(recipientId),
    oldestAgeMs: qp.index.oldestAge(recipientId, now),
    state: value,
    online: c ? c.online : null,
    delivered: c?.delivered ?? 0,
    failed: c?.failed ?? 0,
    expired: c?.expired ?? 0,
    purged: c?.purged ?? 0,
    lastError: c?.lastError ?? null,
    head: qp.index
      .entriesOf(recipientId)
      .slice(0, HEAD_SHOWN)
      .map((e) => ({
        seq: e.seq,
        taskId: e.taskId,
        senderId: e.senderId,
        enqueuedAt: e.enqueuedAt,
        expiresAt: e.expiresAt,
      })),
  };
}

export interface QueueSummary {
  partition: string;
  queued: number;
  recipients: number;
  rebuildMs: number;
}

export function summarizeQueues(
  parts: Iterable<QueuePartition>,
  partitions: number
): QueueSummary[] {
  return [...parts].map((qp) => ({
    partition: partitionLabel(qp.partition, partitions),
    queued: qp.index.size,
    recipients: qp.actors.size,
    rebuildMs: qp.rebuildMs,
  }));
}
