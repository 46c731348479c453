// The actor snapshots' side of log compaction (runtime/cluster/log-compactor.ts): before the
// partition's log is purged up to a cut, every snapshot still needed from below the cut is made
// durable again. A live actor's state is written again (a fenced append, like any write). A
// finished actor's final snapshot is re-appended while it finished within the idempotency window
// (a new owner rebuilds the spawn-key index, and catches up what it learns from finished actors,
// from the log); an older one is copied to the archive stream, where GetTask still finds it.
// Finals are read back in one streaming pass over the log (an ordered consumer), not one request
// each, and both kinds of copy are pipelined.
import { DeliverPolicy } from '@nats-io/jetstream';
import { idleGuard, streams, subjects, type Bus } from '../bus/index.js';
import type { LogHolder, PartitionLog } from '../cluster/index.js';
import type { Logger } from '../log/index.js';
import type { HubMetrics } from '../metrics/index.js';
import type { Persisted } from './actor-store.js';

/** A snapshot in the log that no live actor holds, but that must outlive the purge. */
interface Kept {
  seq: number;
  /** When the actor finished (or when this owner found it finished in the log). */
  finishedAt: number;
  /** Never archived: always copied forward in the log (an actor a replay must restore). */
  inLog: boolean;
}

export interface ActorLogHolderOptions {
  bus: Bus;
  log: PartitionLog;
  label: string;
  /** The partition's live actors. */
  live: () => Iterable<Persisted>;
  /** Writes a live actor's state again; resolves once durable. */
  rewrite: (p: Persisted) => Promise<void>;
  /** How long a finished actor stays in the log before it may move to the archive. */
  windowMs: number;
  now: () => number;
  /** A copy-forward pass that receives nothing for this long fails (and the compaction with it). */
  idleMs: number;
  logger: Logger;
  metrics?: HubMetrics;
}

/** Copies in flight at once during a relocation (each is one pipelined publish). */
const COPIES_IN_FLIGHT = 512;

export class ActorLogHolder implements LogHolder {
  /** Snapshot subject → what must survive; in insertion order, which is finishing order. */
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly o: ActorLogHolderOptions) {}

  /** A finished actor's final snapshot is durable at `seq`. */
  finished(subject: string, seq: number): void {
    if (!this.o.log.compactable) return;
    this.kept.delete(subject);
    this.kept.set(subject, { seq, finishedAt: this.o.now(), inLog: false });
  }

  /**
   * A snapshot no live actor holds must stay in the log as it is (an actor given up after refused
   * writes, or of a kind this node does not run): the next owner's replay restores it.
   */
  keepInLog(subject: string, seq: number): void {
    if (!this.o.log.compactable) return;
    this.kept.delete(subject);
    this.kept.set(subject, { seq, finishedAt: this.o.now(), inLog: true });
  }

  liveRecords(): number {
    let n = 0;
    for (const _ of this.o.live()) n++;
    const cutoff = this.o.now() - this.o.windowMs;
    for (const k of this.kept.values()) if (k.inLog || k.finishedAt >= cutoff) n++;
    return n;
  }

  async relocate(cut: number): Promise<void> {
    // Live actors first: one that finishes meanwhile writes its final above the cut.
    const rewrites: Array<Promise<void>> = [];
    for (const p of this.o.live()) {
      if (p.storedSeq === undefined || p.storedSeq < cut) rewrites.push(this.o.rewrite(p));
    }
    await Promise.all(rewrites);
    this.relocated('log', rewrites.length);
    const below = new Map<string, Kept>();
    let from = Number.MAX_SAFE_INTEGER;
    let to = 0;
    for (const [subject, k] of this.kept) {
      if (k.seq >= cut) continue;
      below.set(subject, k);
      from = Math.min(from, k.seq);
      to = Math.max(to, k.seq);
    }
    if (below.size > 0) await this.copyKept(below, from, to);
  }

  /** One ordered pass over the log's snapshots from `from` to `to`, copying the kept ones. */
  private async copyKept(below: Map<string, Kept>, from: number, to: number): Promise<void> {
    const cutoff = this.o.now() - this.o.windowMs;
    const oc = await this.o.bus.js.consumers.get(this.o.log.stream, {
      filter_subjects: subjects.actorSnapshotsAll(this.o.label),
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: from,
    });
    const iter = await oc.consume({ max_messages: Math.min(below.size, 1000) });
    const guard = idleGuard(iter, this.o.idleMs, `compaction of partition ${this.o.label}`);
    const inFlight = new Set<Promise<void>>();
    let failure: Error | undefined;
    const counts = { log: 0, archive: 0 };
    const found = new Set<string>();
    try {
      for await (const m of iter) {
        guard.tick();
        const k = below.get(m.subject);
        if (k !== undefined && k.seq === m.seq) {
          found.add(m.subject);
          const toLog = k.inLog || k.finishedAt >= cutoff;
          const copy = toLog
            ? this.o.log.append(m.subject, m.data).then((seq) => {
                // Still the same record (no newer final of a respawned id meanwhile).
                if (this.kept.get(m.subject) === k) k.seq = seq;
                counts.log++;
              })
            : this.o.bus.publish(archiveSubject(m.subject), m.data).then(() => {
                if (this.kept.get(m.subject) === k) this.kept.delete(m.subject);
                counts.archive++;
              });
          const tracked: Promise<void> = copy.then(
            () => void inFlight.delete(tracked),
            (err: unknown) => {
              inFlight.delete(tracked);
              failure ??= err instanceof Error ? err : new Error('copy failed', { cause: err });
            }
          );
          inFlight.add(tracked);
          if (inFlight.size >= COPIES_IN_FLIGHT) await Promise.race(inFlight);
          if (failure !== undefined) break;
        }
        if (m.seq >= to || m.info.pending === 0) break;
      }
    } finally {
      iter.stop();
      guard.end();
    }
    await Promise.all(inFlight);
    this.relocated('log', counts.log);
    this.relocated('archive', counts.archive);
    if (failure !== undefined) throw failure;
    if (found.size < below.size) {
      // Gone from the log already (removed before this owner's time): nothing left to copy.
      for (const [subject, k] of below) {
        if (!found.has(subject) && this.kept.get(subject) === k) this.kept.delete(subject);
      }
      this.o.logger.warn(
        { partition: this.o.label, missing: below.size - found.size },
        'snapshots to copy forward were no longer in the log'
      );
    }
  }

  private relocated(to: 'log' | 'archive', n: number): void {
    if (n > 0) this.o.metrics?.logRecordsRelocated.inc({ holder: 'actors', to }, n);
  }
}

/** The archive subject of a snapshot subject `hubd.<pp>.s.<kind>.<id>`. */
function archiveSubject(snapshotSubject: string): string {
  const [, , , kind = '', id = ''] = snapshotSubject.split('.');
  return subjects.archivedActor(kind, id);
}

/** The archived final snapshot of an actor, if compaction moved it there. */
export async function readArchived(bus: Bus, kind: string, id: string): Promise<Uint8Array | null> {
  const m = await bus.jsm.streams.getMessage(streams.archive, {
    last_by_subj: subjects.archivedActor(kind, id),
  });
  return m ? m.data : null;
}
