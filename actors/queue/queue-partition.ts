// A partition's queues as they sit in its log: the owner's in-memory state (QueuePartition), the
// bodies read back from the log, removal into done records, relocation for a bulk compaction
// (the queues are one of the log's holders) and the headers-only replay a new owner rebuilds from.
import type { Subscription } from '@nats-io/nats-core';
import { DeliverPolicy } from '@nats-io/jetstream';
import {
  decodeJson,
  assertReplayComplete,
  idleGuard,
  storedCount,
  isNoMessage,
  streams,
  subjects,
  type Bus,
} from '../../runtime/bus/index.js';
import type { LogHolder, PartitionLog } from '../../runtime/cluster/index.js';
import { HubError, UnavailableError } from '../../runtime/errors/index.js';
import type { Logger } from '../../runtime/log/index.js';
import { QueueReplay, type QueueIndex } from './queue-index.js';
import type { QueueActor } from './queue-actor.js';
import type { DoneLog } from './queue-done.js';
import type { QueueTransport } from './queue.events.js';
import { queueSubject, recordOf, relocatedHeaders, type QueuedBody } from './queue-records.js';

/** A log replay that receives nothing for this long fails the activation (retried later). */
const REPLAY_IDLE_MS = 10_000;
/** Relocated messages read and re-appended at a time during a compaction. */
const RELOCATE_BATCH = 256;

export interface QueuePartition {
  partition: number;
  label: string;
  log: PartitionLog;
  index: QueueIndex;
  /** Positions removed from the index, recorded in the log in coalesced done records. */
  done: DoneLog;
  actors: Map<string, QueueActor>;
  transports: Map<string, QueueTransport>;
  sub: Subscription;
  /** Cleared on deactivate: in-flight work checks it before touching the log. */
  live: boolean;
  /** How long the index rebuild took at activation. */
  rebuildMs: number;
  /**
   * Encoded bodies of messages appended by this owner, so a delivery needs no read from the log
   * (a log read per message was the drain's bottleneck). Bounded by bodyBytes; entries rebuilt
   * after a takeover, or beyond the bound, are read from the log.
   */
  bodies: Map<number, Uint8Array>;
  bodyBytes: number;
  /** Message appends issued and not yet in the index (a compaction waits for them). */
  appending: Set<Promise<void>>;
}

/** A partition's queues in its log's list of holders (a class, so tools and tests can find it). */
export class QueueLogHolder implements LogHolder {
  constructor(
    readonly liveRecords: () => number,
    readonly relocate: (cut: number) => Promise<void>
  ) {}
}

export async function readBody(
  bus: Bus,
  qp: QueuePartition,
  seq: number
): Promise<QueuedBody | undefined> {
  const bytes = await bodyBytes(bus, qp, seq);
  return bytes ? decodeJson<QueuedBody>(bytes) : undefined;
}

/**
 * A queued message's encoded body: from memory, else from its newest stored copy. A copy that a
 * compaction purged meanwhile was stored again first: the read follows it.
 */
export async function bodyBytes(
  bus: Bus,
  qp: QueuePartition,
  seq: number
): Promise<Uint8Array | undefined> {
  const cached = qp.bodies.get(seq);
  if (cached) return cached;
  for (;;) {
    const stored = qp.index.storedAt(seq);
    if (stored === undefined) return undefined;
    try {
      const m = await bus.jsm.streams.getMessage(qp.log.stream, { seq: stored });
      if (m) return m.data;
    } catch (err) {
      if (!isNoMessage(err)) throw err;
    }
    if (qp.index.storedAt(seq) === stored) return undefined;
  }
}

/**
 * A message left the queue (delivered, expired, purged): out of the index and the body cache
 * now, into the partition's next done record. Where the log is compacted in bulk, no delete of
 * its own: it goes with the compaction (nats-server removes single messages at about 4k/s,
 * nats-2.9.md §4b); elsewhere it is deleted by sequence (queue-done.ts).
 */
export function removeQueued(qp: QueuePartition, seq: number): void {
  const stored = qp.index.storedAt(seq) ?? seq;
  qp.index.remove(seq);
  const b = qp.bodies.get(seq);
  if (b) {
    qp.bodies.delete(seq);
    qp.bodyBytes -= b.byteLength;
  }
  // On a log not compacted in bulk this deletes the stored copy instead (queue-done.ts).
  qp.done.add(seq, stored);
}

/** The partition's queues as a holder of log records (PartitionLog.addHolder). */
export function queueHolder(bus: Bus, qp: QueuePartition): QueueLogHolder {
  return new QueueLogHolder(
    // The messages still queued, and the latest done record.
    () => qp.index.size + (qp.done.records > 0 ? 1 : 0),
    (cut) => relocate(bus, qp, cut)
  );
}

/**
 * Before the log is purged below `cut`: every queued message stored below it (including those
 * whose append was in flight when the compaction began) is appended again
 * (fenced, with its position in Hub-Pos), and the index points at the new copy. A message that
 * leaves the queue meanwhile is skipped: its done record is written after any copy of it, so a
 * replay never revives it. Done records need no copy: every copy of the positions a done record
 * lists is older than that record, so a purge that takes the record takes those copies too.
 */
export async function relocate(bus: Bus, qp: QueuePartition, cut: number): Promise<void> {
  // The cut is the log's newest issued sequence + 1: messages still being appended lie below it
  // and are not indexed yet. Every append issued from now on lands at or above the cut.
  await Promise.allSettled([...qp.appending]);
  const below = qp.index.storedBelow(cut);
  for (let i = 0; i < below.length; i += RELOCATE_BATCH) {
    if (!qp.live) throw new UnavailableError('queue partition moved');
    const batch = below.slice(i, i + RELOCATE_BATCH);
    const bodies = await Promise.all(batch.map((e) => bodyBytes(bus, qp, e.seq)));
    if (!qp.live) throw new UnavailableError('queue partition moved');
    const lost = batch.find((e, j) => !bodies[j] && qp.index.get(e.seq));
    if (lost) throw new HubError('INTERNAL', `queued message at ${lost.seq} has no stored body`);
    const writes: Array<Promise<void>> = [];
    batch.forEach((e, j) => {
      const body = bodies[j];
      if (!body || !qp.index.get(e.seq)) return;
      writes.push(
        qp.log
          .append(queueSubject(qp.label, e), body, { headers: relocatedHeaders(e) })
          .then((stored) => qp.index.relocated(e.seq, stored))
      );
    });
    await Promise.all(writes);
  }
}

/**
 * The queue records' headers (messages and done records), read with an ordered headers-only
 * consumer and applied in stream order.
 */
export async function replayQueues(bus: Bus, log: Logger, label: string): Promise<QueueReplay> {
  const stream = streams.partition(label);
  const filter = subjects.queuedAll(label);
  const counted = () => storedCount(bus, stream, filter);
  const count = await counted();
  const out = new QueueReplay();
  if (count === 0) return out;
  const oc = await bus.js.consumers.get(stream, {
    filter_subjects: filter,
    deliver_policy: DeliverPolicy.All,
    headers_only: true,
  });
  const iter = await oc.consume({ max_messages: Math.min(count, 10_000) });
  const guard = idleGuard(iter, REPLAY_IDLE_MS, `queue replay of partition ${label}`);
  let seen = 0;
  for await (const m of iter) {
    guard.tick();
    seen++;
    const r = recordOf(m.subject, m.seq, m.headers);
    if (r) out.apply(r);
    else log.warn({ subject: m.subject, seq: m.seq }, 'unreadable queue record left in place');
    if (seen >= count || m.info.pending === 0) break;
  }
  iter.stop();
  guard.end();
  await assertReplayComplete(`queue replay of partition ${label}`, seen, count, counted);
  return out;
}
