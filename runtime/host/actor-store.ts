// Persistence of one partition's actors: every snapshot change is appended to the partition log,
// one write in flight per actor, later changes coalesced. A caller can wait until the state after
// its event is durable before it answers its own caller. Each write is one plain append. Superseded
// snapshots are removed in bulk when the log is compacted (actor-log-holder.ts copies forward what
// is still needed); where it is not (PartitionLog.compactable), each is deleted by sequence in the
// background after the write that supersedes it. Not `Nats-Rollup`: a rollup that replaces a stored
// message scans the stream on nats-server 2.9.10 (179 writes/s on a large partition against tens
// of thousands of plain appends).
// A record that could never be written (larger than NATS max_payload allows, or without a valid
// subject) is refused before it reaches the log: its waiters fail with the reason and the host
// puts the actor back to its last durable state; the partition's other actors never notice.
import { WriteRefusedError, type PartitionLog } from '../cluster/index.js';
import { recordLimits, subjects } from '../bus/index.js';
import { HubError, UnavailableError } from '../errors/index.js';
import { encodeRecord } from './actor-record.js';
import type { HostedActor, RestorePoint } from './hosted-actor.js';
import type { ActorState } from './light-machine.js';

export interface Persisted {
  readonly kind: string;
  readonly id: string;
  readonly actor: HostedActor;
  readonly createdAt: number;
  readonly key: string | undefined;
  /** Bumped on every snapshot change. */
  version: number;
  /** Highest version known durable. */
  flushed: number;
  /** Stream sequence of the newest durable snapshot, once known: the next write supersedes it. */
  storedSeq: number | undefined;
  writing: boolean;
  /** Until this time (epoch ms) changes may wait before being written, to merge with later ones. */
  lingerUntil: number;
  lingerTimer: NodeJS.Timeout | undefined;
  waiters: Array<{ version: number; resolve: () => void; reject: (e: Error) => void }>;
  failed: Error | undefined;
  /** The state last written (undefined until the first write): where a refusal returns. */
  durableSnapshot: RestorePoint | undefined;
  /** Writes refused in a row since the last one that succeeded. */
  refusals: number;
  /** A rewrite of the durable state (rewrite()) at this version: no durable hook for it. */
  quietVersion?: number;
}

export interface StoreHooks {
  /**
   * After a write is durable: the state that was written, and its context's JSON as written when
   * the record was built around it (encodeRecord).
   */
  durable(p: Persisted, state: ActorState, contextJson: string | undefined): void;
  /** After the final snapshot of a finished actor is durable. */
  done(p: Persisted): void;
  /** A write of this actor was refused (`p.failed` says why); its waiters have been rejected. */
  refused(p: Persisted, err: HubError): void;
}

export class ActorStore {
  constructor(
    private readonly log: PartitionLog,
    private readonly label: string,
    private readonly hooks: StoreHooks
  ) {}

  track(
    kind: string,
    id: string,
    actor: HostedActor,
    meta: {
      createdAt: number;
      key?: string;
      alreadyDurable: boolean;
      storedSeq?: number;
      /** The state the log holds, for an actor restored from it. */
      durableSnapshot?: RestorePoint;
      refusals?: number;
    }
  ): Persisted {
    const p: Persisted = {
      kind,
      id,
      actor,
      createdAt: meta.createdAt,
      key: meta.key,
      version: meta.alreadyDurable ? 0 : 1,
      flushed: 0,
      storedSeq: meta.storedSeq,
      writing: false,
      lingerUntil: 0,
      lingerTimer: undefined,
      waiters: [],
      failed: undefined,
      durableSnapshot: meta.durableSnapshot,
      refusals: meta.refusals ?? 0,
    };
    const changed = () => {
      p.version++;
      const wait = p.lingerUntil - Date.now();
      if (wait > 0) {
        p.lingerTimer ??= setTimeout(() => this.flushNow(p), wait);
      } else {
        this.flush(p);
      }
    };
    actor.subscribe(changed);
    if (!meta.alreadyDurable) this.flush(p);
    return p;
  }

  /**
   * The next changes may wait up to `ms` before being written, so that a change nobody awaits
   * (e.g. "working" after a delivery) merges with the one that follows. Anyone awaiting
   * durability (durable()) ends the wait at once.
   */
  linger(p: Persisted, ms: number): void {
    p.lingerUntil = Math.max(p.lingerUntil, Date.now() + ms);
  }

  /** A superseded snapshot a replay met: deleted now on a log that is not compacted in bulk. */
  superseded(seq: number): void {
    if (!this.log.compactable) this.log.deleteLater(seq);
  }

  /**
   * A snapshot a replay found that must never be restored (an actor whose spawn its owner took for
   * failed): deleted on any log, since on a compacted one a later replay could meet it again before
   * the compaction drops it.
   */
  discard(seq: number): void {
    this.log.deleteLater(seq);
  }

  /**
   * Writes the actor's state again (compaction copies it above its cut); resolves once durable. A
   * rewrite of an unchanged state fires no durable hook: nothing happened to the actor.
   */
  rewrite(p: Persisted): Promise<void> {
    const unchanged = p.flushed === p.version && !p.writing;
    p.version++;
    if (unchanged) p.quietVersion = p.version;
    if (!p.writing && p.lingerTimer === undefined) this.flush(p);
    return this.durable(p);
  }

  /** Resolves once the state as of now is durable. */
  durable(p: Persisted): Promise<void> {
    if (p.failed) return Promise.reject(p.failed);
    if (p.lingerTimer !== undefined) {
      this.flushNow(p);
      // The flush may have been refused just now.
      const refused = p.failed as Error | undefined;
      if (refused) return Promise.reject(refused);
    }
    if (p.flushed >= p.version) return Promise.resolve();
    return new Promise((resolve, reject) =>
      p.waiters.push({ version: p.version, resolve, reject })
    );
  }

  private flushNow(p: Persisted): void {
    clearTimeout(p.lingerTimer);
    p.lingerTimer = undefined;
    p.lingerUntil = 0;
    this.flush(p);
  }

  private flush(p: Persisted): void {
    if (p.writing || p.failed) return;
    const version = p.version;
    const snapshot = p.actor.persisted();
    const done = snapshot.state.status === 'done';
    let subject: string;
    try {
      subject = subjects.actorSnapshot(this.label, p.kind, p.id);
    } catch (err) {
      this.refuse(
        p,
        new WriteRefusedError('INTERNAL', `${p.kind} ${p.id} has no valid log subject`, {
          cause: err,
        })
      );
      return;
    }
    // Measured on the bytes that are written: encoded once, here, and handed to the log as is.
    const { data, contextJson } = encodeRecord(snapshot, p.createdAt, p.key);
    const limits = recordLimits(this.log.maxPayload);
    const limit = done ? limits.final : limits.active;
    if (data.byteLength > limit) {
      this.refuse(p, recordTooLarge(p, data.byteLength, limit, limits.maxPayload));
      return;
    }
    p.writing = true;
    this.log.append(subject, data).then(
      (seq) => {
        // Without bulk compaction (runtime/cluster/log-compactor.ts) the superseded snapshot goes
        // one delete at a time, in the background.
        if (p.storedSeq !== undefined && !this.log.compactable) this.log.deleteLater(p.storedSeq);
        p.storedSeq = seq;
        p.flushed = version;
        p.writing = false;
        p.durableSnapshot = snapshot;
        p.refusals = 0;
        p.waiters = p.waiters.filter((w) => (w.version <= version ? (w.resolve(), false) : true));
        if (version !== p.quietVersion) this.hooks.durable(p, snapshot.state, contextJson);
        // A lingering change waits for its timer (or for someone awaiting it): it may merge yet.
        if (p.version > p.flushed && p.lingerTimer === undefined) this.flush(p);
        else if (done) this.hooks.done(p);
      },
      (err: Error) => {
        p.writing = false;
        if (err instanceof WriteRefusedError) {
          this.refuse(p, err);
          return;
        }
        // The log is fenced or its tail unknown: the partition is about to move; callers retry.
        const failed = new UnavailableError(`partition ${this.label} log write failed`, err);
        p.failed = failed;
        for (const w of p.waiters) w.reject(failed);
        p.waiters = [];
      }
    );
  }

  /** A write that can never succeed: its waiters learn why, and the host takes the actor back. */
  private refuse(p: Persisted, err: HubError): void {
    p.failed = err;
    clearTimeout(p.lingerTimer);
    p.lingerTimer = undefined;
    for (const w of p.waiters) w.reject(err);
    p.waiters = [];
    // Not from inside the actor's own notification (flush runs in its subscriber).
    queueMicrotask(() => this.hooks.refused(p, err));
  }
}

function recordTooLarge(p: Persisted, size: number, limit: number, maxPayload: number): HubError {
  return new HubError(
    'PAYLOAD_TOO_LARGE',
    `${p.kind} ${p.id} would take ${size} bytes to store, over the ${limit} bytes this hub can ` +
      `store for it (NATS max_payload ${maxPayload} bytes)`,
    { data: { size, limit, maxPayload } }
  );
}
