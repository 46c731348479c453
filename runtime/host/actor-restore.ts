// Restoring a partition's actors when this node takes it over: the partition log is replayed and
// the newest snapshot of each actor wins; live ones are started again, finished ones stay in the
// log only, and recent spawn keys are remembered again.
import { DeliverPolicy } from '@nats-io/jetstream';
import { assertReplayComplete, idleGuard, storedCount, streams, subjects } from '../bus/index.js';
import { fromRecord, type DecodedRecord, type StoredActor } from './actor-record.js';
import { actorKey, type HostContext, type PartitionActors } from './partition-actors.js';

/** A log replay that receives nothing for this long fails the activation (retried later). */
export const REPLAY_IDLE_MS = 10_000;

export async function restoreActors(ctx: HostContext, part: PartitionActors): Promise<void> {
  const { partition, label, store, holder, actors, keys } = part;
  const { bus, log, metrics } = ctx.o;
  const stream = streams.partition(label);
  const filter = subjects.actorSnapshotsAll(label);
  const counted = () => storedCount(bus, stream, filter);
  const count = await counted();
  if (count === 0) return;
  // Every stored snapshot, oldest first: superseded ones stay in the log until it is compacted
  // (which bounds them; on a log that is not, the ones met are deleted now), and the newest of
  // each actor wins. (A last-per-subject replay would read less, but in the nats-kill fault test
  // it left live actors out of the restore.)
  const oc = await bus.js.consumers.get(stream, {
    filter_subjects: filter,
    deliver_policy: DeliverPolicy.All,
  });
  const iter = await oc.consume({ max_messages: Math.min(count, 1000) });
  const guard = idleGuard(iter, REPLAY_IDLE_MS, `snapshot replay of partition ${label}`);
  const newest = new Map<string, { stored: StoredActor; seq: number }>();
  let seen = 0;
  for await (const m of iter) {
    guard.tick();
    seen++;
    // Re-inserted: the map's order is the order of each actor's newest write (a restored task
    // that waits for delivery is delivered in the order it started waiting).
    const older = newest.get(m.subject);
    if (older !== undefined) {
      store.superseded(older.seq);
      newest.delete(m.subject);
    }
    newest.set(m.subject, { stored: m.json<StoredActor>(), seq: m.seq });
    if (seen >= count || m.info.pending === 0) break;
  }
  iter.stop();
  guard.end();
  await assertReplayComplete(`snapshot replay of partition ${label}`, seen, count, counted);
  const cutoff = ctx.now() - ctx.windowMs;
  const recentKeys: Array<[string, { id: string; at: number }]> = [];
  const decoded = new Map<
    string,
    { kind: string; id: string; stored: DecodedRecord; seq: number }
  >();
  for (const [subject, { stored: raw, seq }] of newest) {
    const [, , , kind, id] = subject.split('.');
    if (!kind || !id || !ctx.kinds.get(kind)) {
      log.warn({ subject }, 'snapshot of an unknown actor kind left in place');
      holder.keepInLog(subject, seq);
      continue;
    }
    decoded.set(subject, { kind, id, stored: fromRecord(raw), seq });
  }
  const unacknowledged = unacknowledgedSpawns(decoded, ctx.windowMs);
  for (const [subject, { kind, id, stored, seq }] of decoded) {
    const hosted = ctx.kinds.get(kind)!;
    const newer = unacknowledged.get(subject);
    if (newer !== undefined) {
      log.warn(
        { subject, key: stored.key, newer },
        'actor whose spawn was taken for failed and retried under the same key: dropped'
      );
      metrics?.unacknowledgedSpawnsDropped.inc();
      store.discard(seq);
      continue;
    }
    if (stored.key !== undefined && stored.createdAt >= cutoff) {
      recentKeys.push([stored.key, { id, at: stored.createdAt }]);
    }
    const state = stored.point.state;
    ctx.kinds.fireRestored(partition, kind, id, state);
    if (state.status === 'active') {
      // Started before the store subscribes: restoring an actor writes nothing.
      const actor = hosted.restore(stored.point, actorKey(kind, id));
      actors.set(
        actorKey(kind, id),
        store.track(kind, id, actor, {
          createdAt: stored.createdAt,
          ...(stored.key !== undefined ? { key: stored.key } : {}),
          alreadyDurable: true,
          storedSeq: seq,
          durableSnapshot: stored.point,
        })
      );
      metrics?.actorsActive.inc({ kind });
    } else {
      holder.finished(subject, seq);
    }
  }
  // Keep the key index in time order so pruning can stop at the first fresh entry.
  recentKeys.sort((a, b) => a[1].at - b[1].at);
  for (const [k, v] of recentKeys) keys.set(k, v);
}

/**
 * Live actors that share their spawn key with a newer actor (live or finished) created within the
 * idempotency window, by subject, with the newer one's subject. An owner spawns under a key only
 * when it knows no actor holds it, so the older of two is a write its owner took for failed (a
 * publish whose acknowledgement timed out while a NATS server was cut off) that reached the log
 * after all, once the caller's retry had made the newer one, whose creation was acknowledged.
 * Restoring both would deliver one message twice.
 */
export function unacknowledgedSpawns(
  decoded: ReadonlyMap<string, { stored: DecodedRecord }>,
  windowMs: number
): Map<string, string> {
  const newestByKey = new Map<string, { subject: string; at: number }>();
  for (const [subject, { stored }] of decoded) {
    if (stored.key === undefined) continue;
    const seen = newestByKey.get(stored.key);
    if (!seen || stored.createdAt > seen.at) {
      newestByKey.set(stored.key, { subject, at: stored.createdAt });
    }
  }
  const out = new Map<string, string>();
  for (const [subject, { stored }] of decoded) {
    if (stored.key === undefined || stored.point.state.status !== 'active') continue;
    const newest = newestByKey.get(stored.key);
    if (!newest || newest.subject === subject) continue;
    // Older than the window: the key had expired when the newer one was made; both are real.
    if (newest.at - stored.createdAt > windowMs) continue;
    out.set(subject, newest.subject);
  }
  return out;
}
