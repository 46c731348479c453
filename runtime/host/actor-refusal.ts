// What happens when a write of an actor is refused (too large for NATS, or unwritable): the
// change is undone and the partition goes on. See actor-store.ts for where refusals come from.
import { partitionLabel, subjects } from '../bus/index.js';
import type { HubError } from '../errors/index.js';
import type { Persisted } from './actor-store.js';
import { actorKey, type HostContext, type PartitionActors } from './partition-actors.js';

/**
 * Refused writes in a row after which an actor is given up (it leaves memory; the log keeps its
 * last durable state, restored on the next activation): a change a refusal hook makes that is
 * refused in turn must not loop.
 */
const MAX_REFUSALS_IN_A_ROW = 8;

/**
 * A write of `p` was refused. Never stored: it leaves memory (its spawn key too), so nothing
 * exists. Stored before: it is put back to its last durable state and the kind's refusal hooks
 * decide what follows (a task fails with the reason). The partition goes on either way.
 */
export function refuseWrite(
  ctx: HostContext,
  part: PartitionActors,
  p: Persisted,
  err: HubError
): void {
  const { actors, keys, store, holder, partition } = part;
  const k = actorKey(p.kind, p.id);
  // A refusal of an actor already replaced (restored after an earlier refusal) or gone.
  if (actors.get(k) !== p) return;
  p.actor.stop();
  ctx.o.metrics?.writesRefused.inc({
    kind: p.kind,
    reason: err.code === 'PAYLOAD_TOO_LARGE' ? 'too_large' : 'unwritable',
  });
  ctx.throttled.warn(
    `refused:${p.kind}:${err.code}`,
    { err, kind: p.kind, id: p.id, refusals: p.refusals + 1 },
    'actor write refused; the change is undone'
  );
  const kind = ctx.kinds.get(p.kind);
  if (p.durableSnapshot === undefined || !kind || p.refusals + 1 >= MAX_REFUSALS_IN_A_ROW) {
    actors.delete(k);
    ctx.o.metrics?.actorsActive.dec({ kind: p.kind });
    if (p.durableSnapshot === undefined) {
      if (p.key !== undefined && keys.get(p.key)?.id === p.id) keys.delete(p.key);
    } else {
      if (p.storedSeq !== undefined) {
        const label = partitionLabel(partition, ctx.o.partitions);
        holder.keepInLog(subjects.actorSnapshot(label, p.kind, p.id), p.storedSeq);
      }
      ctx.o.metrics?.retryGiveUps.inc({ loop: 'actor_write' });
      ctx.o.log.error(
        { kind: p.kind, id: p.id, refusals: p.refusals + 1 },
        'actor given up after repeated refused writes; its last durable state stays in the log'
      );
    }
    return;
  }
  const actor = kind.restore(p.durableSnapshot, k);
  const back = store.track(p.kind, p.id, actor, {
    createdAt: p.createdAt,
    ...(p.key !== undefined ? { key: p.key } : {}),
    alreadyDurable: true,
    ...(p.storedSeq !== undefined ? { storedSeq: p.storedSeq } : {}),
    durableSnapshot: p.durableSnapshot,
    refusals: p.refusals + 1,
  });
  actors.set(k, back);
  ctx.kinds.fireRefused(partition, p.kind, p.id, actor.state, err);
}
