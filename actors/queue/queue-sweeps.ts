// The two timed passes over the queues a node owns: the daily cleanup's expiry (every expired
// message is removed and its task failed, 64 at a time so a large backlog neither waits on each
// write in turn nor floods the log), and the watchdog that wakes queues a missed presence change
// left asleep.
import type { QueueEntry } from './queue-index.js';
import type { QueuePartition } from './queue-partition.js';

const EXPIRE_BATCH = 64;

/** Expires what is due in the partition; resolves with how many went, by recipient. */
export async function expireDue(
  qp: QueuePartition,
  now: number,
  expire: (e: QueueEntry) => Promise<boolean>
): Promise<Map<string, number>> {
  const expired = qp.index.expired(now);
  const byRecipient = new Map<string, number>();
  for (let i = 0; i < expired.length; i += EXPIRE_BATCH) {
    await Promise.all(
      expired.slice(i, i + EXPIRE_BATCH).map(async (e) => {
        if (await expire(e)) {
          byRecipient.set(e.recipientId, (byRecipient.get(e.recipientId) ?? 0) + 1);
        }
      })
    );
  }
  return byRecipient;
}

/**
 * Safety net: a connected WebSocket recipient whose queue sits idle, or waits after a failed
 * attempt, with messages (a missed presence change) is woken; one with a URL too (its socket goes
 * before its URL). Cheap: only recipients with queued messages have actors. Returns how many it
 * woke: each is a wake-up the presence change should have made.
 */
export function wakeStalledQueues(
  parts: Iterable<QueuePartition>,
  isOnline: (agentId: string) => boolean
): number {
  let woken = 0;
  for (const qp of parts) {
    for (const [recipientId, a] of qp.actors) {
      if (a.state !== 'draining' && qp.index.queuedFor(recipientId) > 0 && isOnline(recipientId)) {
        a.send({ type: 'recipient.online' });
        woken++;
      }
    }
  }
  return woken;
}
