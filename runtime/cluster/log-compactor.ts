// Bulk removal of a partition's log: once the log holds many more records than its holders still
// need, every holder copies what it needs from below a cut point to above it (or to an archive),
// the owner writes a fenced marker, and the stream is purged up to the cut in one request. No
// removal request per message: per-message deletes top out at about 4k/s on nats-server 2.9.10,
// and an unfiltered purge of whole blocks takes milliseconds (shared/docs/nats-2.9.md §4b).
// Never a filtered purge. And only where a purge to a sequence is safe (purgeToSequenceIsSafe in
// partition-log.ts): before 2.9.18 a recovering replica replays ANY purge, `seq` included, as a
// purge of the whole stream up to its last sequence at the time (nats-server#4196).
//
// Why a purge cannot lose what another owner needs:
// - The cut is this writer's own tail + 1, so every record below it was written by this owner or
//   an earlier one; a newer owner's records (its epoch marker first) all lie at or above the cut.
// - Copies made by relocation are fenced appends: a stale owner's first copy fails, which breaks
//   its log and aborts the compaction before anything is purged.
// - The marker right before the purge is fenced too: it proves that, after every copy was durable,
//   nobody else had written. An owner that loses the partition after that still purges only below
//   the cut, and everything still needed from there was copied to or above the cut (or archived)
//   before the marker: the new owner's replay reads the copies. A replay that ran while the purge
//   happened reads the copies too (they come after the originals in the stream).
import type { Logger } from '../log/index.js';
import type { HubMetrics } from '../metrics/index.js';
import type { LogHolder } from './log-holder.js';

export interface CompactionOptions {
  /** Never compact a log holding fewer records than this. */
  minRecords: number;
  /** Compact once the log holds more than this many times the records its holders still need. */
  factor: number;
}

/** What the compactor needs of a partition's log. */
export interface CompactableLog {
  readonly label: string;
  readonly logHolders: readonly LogHolder[];
  /** Sequence of the newest append issued (acknowledged or in flight). */
  readonly lastSequence: number;
  /** The lowest sequence the stream may still hold, as far as this writer knows. */
  readonly firstSequence: number;
  /** Appends the fenced compaction marker; throws when fenced (another owner has written). */
  appendCompactMarker(cut: number): Promise<number>;
  /** Purges every record below `cut` (unfiltered); resolves with the number removed. */
  purgeBelow(cut: number): Promise<number>;
}

/** After a compaction that failed for another reason than fencing, wait before the next try. */
const RETRY_AFTER_FAILURE_MS = 5_000;

export class LogCompactor {
  private enabled = false;
  private closed = false;
  private running: Promise<void> | undefined;
  /** The span at which the trigger is evaluated next (cheap check on every append). */
  private checkAt: number;
  private notBefore = 0;
  private scheduled = false;

  constructor(
    private readonly target: CompactableLog,
    private readonly opts: CompactionOptions,
    private readonly deps: { log?: Logger; metrics?: HubMetrics; now?: () => number } = {}
  ) {
    this.checkAt = opts.minRecords;
  }

  /** Records in the stream from its first sequence to the newest append. */
  get span(): number {
    return Math.max(0, this.target.lastSequence - this.target.firstSequence + 1);
  }

  /** The span above which the log is compacted, given what its holders need now. */
  threshold(): number {
    let live = 0;
    for (const h of this.target.logHolders) live += h.liveRecords();
    return Math.max(this.opts.minRecords, Math.ceil(this.opts.factor * live));
  }

  /** Allow compaction (once the partition is active: every holder has registered). */
  start(): void {
    if (this.closed) return;
    this.enabled = true;
    this.afterAppend();
  }

  /** No compaction starts from now on; one in progress stops before its purge. */
  close(): void {
    this.closed = true;
    this.enabled = false;
  }

  /** Resolves when the compaction in progress (if any) has ended. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Called after every append: a comparison, and at most a scheduled check off the caller's path. */
  afterAppend(): void {
    if (!this.enabled || this.running || this.scheduled || this.span < this.checkAt) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.check();
    });
  }

  /** Evaluates the trigger and starts a compaction when it holds. Returns the one running, if any. */
  check(): Promise<void> | undefined {
    if (!this.enabled || this.running) return this.running;
    if ((this.deps.now ?? Date.now)() < this.notBefore) return undefined;
    const threshold = this.threshold();
    if (this.span <= threshold) {
      this.checkAt = threshold + 1;
      return undefined;
    }
    this.running = this.compact().finally(() => {
      this.running = undefined;
      this.checkAt = this.threshold() + 1;
      // Writes went on meanwhile: the log may be due again.
      this.afterAppend();
    });
    return this.running;
  }

  private async compact(): Promise<void> {
    const t0 = performance.now();
    const cut = this.target.lastSequence + 1;
    const label = this.target.label;
    try {
      const results = await Promise.allSettled(this.target.logHolders.map((h) => h.relocate(cut)));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      if (this.closed) return this.aborted(cut, 'partition given up');
      await this.target.appendCompactMarker(cut);
      if (this.closed) return this.aborted(cut, 'partition given up');
      const purged = await this.target.purgeBelow(cut);
      const seconds = (performance.now() - t0) / 1000;
      this.deps.metrics?.logCompactions.inc({ result: 'done' });
      this.deps.metrics?.logRecordsPurged.inc(purged);
      this.deps.metrics?.logCompactionSeconds.observe(seconds);
      this.deps.log?.info(
        { partition: label, cut, purged, ms: Math.round(seconds * 1000) },
        'partition log compacted'
      );
    } catch (err) {
      this.notBefore = (this.deps.now ?? Date.now)() + RETRY_AFTER_FAILURE_MS;
      this.aborted(cut, 'failed', err);
    }
  }

  private aborted(cut: number, why: string, err?: unknown): void {
    this.deps.metrics?.logCompactions.inc({ result: 'aborted' });
    this.deps.log?.warn(
      { partition: this.target.label, cut, err },
      `partition log compaction aborted (${why}); nothing was purged`
    );
  }
}
