// Taking over a partition: its store (writes), its log holder (compaction, finished actors) and
// its actors restored from the log. The host subscribes to the partition's requests only after
// this resolves (actor-host.ts).
import type { PartitionLog } from '../cluster/index.js';
import { subjects } from '../bus/index.js';
import { ActorLogHolder } from './actor-log-holder.js';
import { ActorStore, type Persisted } from './actor-store.js';
import { refuseWrite } from './actor-refusal.js';
import { REPLAY_IDLE_MS, restoreActors } from './actor-restore.js';
import {
  actorKey,
  type HostContext,
  type PartitionActors,
  type SpawnKeys,
} from './partition-actors.js';

export async function activatePartition(
  ctx: HostContext,
  partition: number,
  label: string,
  log: PartitionLog
): Promise<PartitionActors> {
  const actors = new Map<string, Persisted>();
  const keys: SpawnKeys = new Map();
  // The store calls these only for actors it tracks (from the restore on), when `holder` and
  // `part` below exist.
  const store: ActorStore = new ActorStore(log, label, {
    durable: (p, snapshot, json) => ctx.kinds.fireDurable(partition, p.kind, p.id, snapshot, json),
    done: (p) => {
      // A finished actor stays in the log (readable, and its spawn key still counts) but leaves
      // memory; compaction later copies its final forward or to the archive.
      if (p.storedSeq !== undefined) {
        holder.finished(subjects.actorSnapshot(label, p.kind, p.id), p.storedSeq);
      }
      actors.delete(actorKey(p.kind, p.id));
      p.actor.stop();
      ctx.o.metrics?.actorsActive.dec({ kind: p.kind });
    },
    refused: (p, err) => refuseWrite(ctx, part, p, err),
  });
  const holder = new ActorLogHolder({
    bus: ctx.o.bus,
    log,
    label,
    live: () => actors.values(),
    rewrite: (p) => store.rewrite(p),
    windowMs: ctx.windowMs,
    now: ctx.now,
    idleMs: REPLAY_IDLE_MS,
    logger: ctx.o.log,
    ...(ctx.o.metrics ? { metrics: ctx.o.metrics } : {}),
  });
  const part: PartitionActors = { partition, label, store, holder, actors, keys };
  log.addHolder(holder);
  await restoreActors(ctx, part);
  return part;
}
