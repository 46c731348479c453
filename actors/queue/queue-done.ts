// A partition's done records: removed queue positions (delivered, expired, purged) leave the log
// without a delete per message (nats-server removes about 4k messages/s one by one, nats-2.9.md
// §4b). They are written in coalesced records instead, one write in flight per partition; the
// positions removed meanwhile go in the next. The stored messages go in bulk when the partition's
// log is compacted.
import type { PartitionLog } from '../../runtime/cluster/index.js';
import { doneHeaders, doneSubject } from './queue-records.js';

/** Positions per record (about 3 bytes each in a header; well under max_payload). */
const MAX_POSITIONS_PER_RECORD = 4096;

const EMPTY = new Uint8Array(0);

interface Pending {
  promise: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

function pending(): Pending {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Deliveries do not wait for their done record (at-least-once): nobody may be listening.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

export class DoneLog {
  private batch: number[] = [];
  /** Settles when the positions in `batch` are durable. */
  private next: Pending | undefined;
  /** Settles when the write in flight is durable. */
  private writing: Pending | undefined;
  private scheduled = false;
  private written: number;

  constructor(
    private readonly log: PartitionLog,
    private readonly label: string,
    /** Done records already in the log (met by the replay). */
    existing = 0
  ) {
    this.written = existing;
  }

  /** Deletes in flight, on a log that is not compacted in bulk (see add()). */
  private readonly deletes = new Set<Promise<void>>();

  /**
   * Records a removed position; durable with the next write (see durable()). On a log that is never
   * purged in bulk (a replicated stream on nats-server before 2.9.18, where a purge to a sequence
   * is unsafe: runtime/cluster purgeToSequenceIsSafe) done records would pile up with the messages
   * they retire, so there the stored message is deleted by its sequence instead, as before bulk
   * compaction existed; durable() then waits for those deletes.
   */
  add(position: number, stored = position): void {
    if (!this.log.compactable) {
      const d = this.log.delete(stored).then(
        () => undefined,
        // Already gone, or the log is failing: the next owner's replay settles it.
        () => undefined
      );
      this.deletes.add(d);
      void d.then(() => this.deletes.delete(d));
      return;
    }
    this.batch.push(position);
    this.next ??= pending();
    this.kick();
  }

  /** Resolves once every position added so far is in a durable done record. */
  durable(): Promise<void> {
    if (this.deletes.size > 0) return Promise.all(this.deletes).then(() => undefined);
    return (this.next ?? this.writing)?.promise ?? Promise.resolve();
  }

  /** Done records in the log, as far as this owner knows (the compactor counts the latest as live). */
  get records(): number {
    return this.written;
  }

  private kick(): void {
    if (this.writing || this.scheduled) return;
    // Removals made in the same turn of the event loop share a record.
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      this.write();
    });
  }

  private write(): void {
    if (this.writing || this.batch.length === 0 || !this.next) return;
    const positions = this.batch;
    const done = this.next;
    this.batch = [];
    this.next = undefined;
    this.writing = done;
    const appends: Array<Promise<number>> = [];
    for (let i = 0; i < positions.length; i += MAX_POSITIONS_PER_RECORD) {
      const chunk = positions.slice(i, i + MAX_POSITIONS_PER_RECORD);
      appends.push(
        this.log.append(doneSubject(this.label), EMPTY, { headers: doneHeaders(chunk) })
      );
    }
    Promise.all(appends).then(
      () => {
        this.written += appends.length;
        this.writing = undefined;
        done.resolve();
        this.kick();
      },
      (err: unknown) => {
        // The log is broken (fenced, or NATS failed): the partition is given up and its next owner
        // replays the log; the positions not recorded are delivered again (same messageId).
        this.writing = undefined;
        done.reject(err);
        this.next?.reject(err);
        this.next = undefined;
        this.batch = [];
      }
    );
  }
}
