// Persistence of one partition's actors: every snapshot change is appended to the partition log,
// one write in flight per actor, later changes coalesced. A caller can wait until the state after
// its event is durable before it answers its own caller. Each write is a plain append and the
// snapshot it supersedes is deleted by sequence afterwards, in the background: a `Nats-Rollup`
// write that replaces a stored message scans the stream on nats-server 2.9.10 (179 writes/s on a
// large partition against tens of thousands of plain appends), and a filtered purge is replayed
// as a purge of the whole stream on a recovering replica before 2.9.18 (nats-server#4196).
import type { AnyActorRef } from 'xstate';
import type { PartitionLog } from '../cluster/index.js';
import { subjects } from '../bus/index.js';
import { UnavailableError } from '../errors/index.js';

/** What the log holds for one actor: the persisted snapshot and the host's own metadata. */
export interface StoredActor {
  snapshot: unknown;
  createdAt: number;
  /** Idempotency key given at spawn; rebuilt into the partition's key index on activation. */
  key?: string;
}

export interface Persisted {
  readonly kind: string;
  readonly id: string;
  readonly actor: AnyActorRef;
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
}

export interface StoreHooks {
  /** After a write is durable: the snapshot that was written. */
  durable(p: Persisted, snapshot: unknown): void;
  /** After the final snapshot of a finished actor is durable. */
  done(p: Persisted): void;
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
    actor: AnyActorRef,
    meta: { createdAt: number; key?: string; alreadyDurable: boolean; storedSeq?: number }
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
    actor.subscribe({ next: changed, error: changed });
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

  /** Removes an older stored snapshot (one a replay found superseded) in the background. */
  compact(seq: number): void {
    this.log.compactLater(seq);
  }

  /** Resolves once the state as of now is durable. */
  durable(p: Persisted): Promise<void> {
    if (p.failed) return Promise.reject(p.failed);
    if (p.lingerTimer !== undefined) this.flushNow(p);
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
    p.writing = true;
    const version = p.version;
    const snapshot = p.actor.getPersistedSnapshot();
    const record: StoredActor = { snapshot, createdAt: p.createdAt };
    if (p.key !== undefined) record.key = p.key;
    const done = (snapshot as { status?: string }).status === 'done';
    this.log.append(subjects.actorSnapshot(this.label, p.kind, p.id), record).then(
      (seq) => {
        if (p.storedSeq !== undefined) this.log.compactLater(p.storedSeq);
        p.storedSeq = seq;
        p.flushed = version;
        p.writing = false;
        p.waiters = p.waiters.filter((w) => (w.version <= version ? (w.resolve(), false) : true));
        this.hooks.durable(p, snapshot);
        // A lingering change waits for its timer (or for someone awaiting it): it may merge yet.
        if (p.version > p.flushed && p.lingerTimer === undefined) this.flush(p);
        else if (done) this.hooks.done(p);
      },
      (err: Error) => {
        // The log is fenced or its tail unknown: the partition is about to move; callers retry.
        const failed = new UnavailableError(`partition ${this.label} log write failed`, err);
        p.failed = failed;
        p.writing = false;
        for (const w of p.waiters) w.reject(failed);
        p.waiters = [];
      }
    );
  }
}
