// What a service that keeps records in a partition's log promises the log's compactor: the log is
// removed in bulk (an unfiltered purge up to a sequence), never message by message, so every record
// still needed below the purge point must first be made durable again above it, or elsewhere.

export interface LogHolder {
  /** How many records this holder still needs in the log (drives the trigger). */
  liveRecords(): number;
  /**
   * Make every record it still needs whose sequence is below `cut` durable at or above `cut`
   * (re-append, fenced like every write) or elsewhere (an archive); resolve when all are durable.
   * Throwing aborts this compaction (nothing is purged).
   */
  relocate(cut: number): Promise<void>;
}
