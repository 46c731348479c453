// The partition's durable log with single-writer fencing. A new owner appends an epoch marker with
// Nats-Expected-Last-Sequence; every later append expects the sequence this writer last produced,
// so once another owner writes, every append of the stale owner fails (exact on R3, nats-2.9.md §0.2).
// Appends are pipelined: the k-th append in flight expects lastSeq + k.
// The log is removed in bulk, never message by message on the hot path: its holders copy forward
// what they still need and the owner purges up to a sequence (log-compactor.ts).
// A write the server could never take (too large for max_payload, a subject no stream holds) is
// refused before it takes a sequence: it fails alone and the log stays usable for everyone else.
import {
  encodeJson,
  headerBytes,
  isPublishableSubject,
  streams,
  subjects,
  type Bus,
} from '../bus/index.js';
import { HubError } from '../errors/index.js';
import type { Logger } from '../log/index.js';
import type { HubMetrics } from '../metrics/index.js';
import type { LogHolder } from './log-holder.js';
import { LogCompactor, type CompactionOptions } from './log-compactor.js';

/** nats-server's JSErrCode for "wrong last sequence". */
const WRONG_LAST_SEQUENCE = 10071;

/** Per-message deletes in flight per partition, on a log that is not compacted in bulk. */
const DELETES_IN_FLIGHT = 16;
/** Beyond this backlog a superseded message is left for the next activation's replay to remove. */
const DELETES_MAX_BACKLOG = 20_000;

/**
 * Can the log be purged up to a sequence without risk? Not on a replicated stream before
 * nats-server 2.9.18: a replica that recovers (a restarted server replaying its Raft log) applies
 * every purge entry, filtered or not, with or without `seq`, as "remove everything up to the
 * stream's last sequence at the time of the purge" (jetstream_cluster.go in 2.9.10:
 * `Compact(sp.LastSeq + 1)`; nats-io/nats-server#4196, fixed by #4212 in 2.9.18). A purge below a
 * cut would there also remove the copies made above it. Seen in the nats-kill fault test.
 */
export function purgeToSequenceIsSafe(version: string, replicas: number): boolean {
  if (replicas <= 1) return true;
  const [maj = 0, min = 0, patch = 0] = version.split('.').map((n) => parseInt(n, 10));
  return maj > 2 || (maj === 2 && (min > 9 || (min === 9 && patch >= 18)));
}

export class FencedError extends Error {
  override readonly name = 'FencedError';
}

/**
 * A write refused before it was sent, because no retry could make it succeed. The log is intact;
 * `data.size` and `data.limit` say by how much a payload was too large.
 */
export class WriteRefusedError extends HubError {}

/** Wire bytes of the headers every append carries (the expected sequence, at its longest). */
const FENCING_BYTES = headerBytes({
  'Nats-Expected-Last-Sequence': String(Number.MAX_SAFE_INTEGER),
});
/** What a rollup header adds to them. */
const ROLLUP_BYTES = headerBytes({ 'Nats-Rollup': 'sub' }) - headerBytes({});

export interface AppendOptions {
  rollup?: boolean;
  headers?: Record<string, string>;
}

export interface PartitionLogOptions {
  /** When to compact the log (none: never). */
  compaction?: CompactionOptions;
  log?: Logger;
  metrics?: HubMetrics;
}

export class PartitionLog {
  readonly stream: string;
  /** Sequence the next append must expect. */
  private tail = 0;
  private broken: Error | undefined;
  private onBroken: ((err: Error) => void) | undefined;
  /** The lowest sequence the stream may hold (from the stream at open, then each purge's cut). */
  private first = 1;
  /** Sequences waiting for deleteLater's background deletes (a FIFO read from `deleteHead`). */
  private deleteBacklog: number[] = [];
  private deleteHead = 0;
  private deleters = 0;
  private readonly holders: LogHolder[] = [];
  private compactor: LogCompactor | undefined;

  private constructor(
    private readonly bus: Bus,
    readonly label: string,
    readonly epoch: number
  ) {
    this.stream = streams.partition(label);
  }

  /** Writes the fencing marker. Retries when a concurrent writer moved the tail meanwhile. */
  static async open(
    bus: Bus,
    label: string,
    nodeId: string,
    opts: PartitionLogOptions = {}
  ): Promise<PartitionLog> {
    const stream = streams.partition(label);
    for (let attempt = 0; ; attempt++) {
      const info = await bus.jsm.streams.info(stream);
      const expected = info.state.last_seq;
      try {
        const ack = await bus.publish(
          subjects.partitionEpoch(label),
          encodeJson({ nodeId, at: Date.now() }),
          { expectLastSequence: expected, rollup: true }
        );
        const log = new PartitionLog(bus, label, ack.seq);
        log.tail = ack.seq;
        log.first = Math.max(1, info.state.first_seq);
        if (opts.compaction && purgeToSequenceIsSafe(bus.serverVersion, bus.replicas)) {
          log.compactor = new LogCompactor(log, opts.compaction, {
            ...(opts.log ? { log: opts.log } : {}),
            ...(opts.metrics ? { metrics: opts.metrics } : {}),
          });
        }
        return log;
      } catch (err) {
        if (!isWrongLastSequence(err) || attempt >= 20) throw err;
        await new Promise((r) => setTimeout(r, 20 + Math.random() * 50));
      }
    }
  }

  /** The NATS server's max_payload. */
  get maxPayload(): number {
    return this.bus.maxPayload;
  }

  /** The largest payload an append with these options can carry (NATS max_payload less headers). */
  maxPayloadBytes(opts: AppendOptions = {}): number {
    let bytes = FENCING_BYTES;
    if (opts.rollup) bytes += ROLLUP_BYTES;
    if (opts.headers) bytes += headerBytes(opts.headers) - headerBytes({});
    return this.bus.maxPayload - bytes;
  }

  get lastSequence(): number {
    return this.tail;
  }

  /**
   * A service keeping records in this log registers here (in its activate()): the log is removed in
   * bulk below a cut point, and only what the registered holders relocate survives it.
   */
  addHolder(h: LogHolder): void {
    this.holders.push(h);
  }

  /** The registered holders, in registration order. */
  get logHolders(): readonly LogHolder[] {
    return this.holders;
  }

  whenBroken(fn: (err: Error) => void): void {
    this.onBroken = fn;
  }

  /** Resolves with the stored sequence once the server has acknowledged the write. */
  async append(
    subject: string,
    /** Bytes as they are, or any JSON value (encoded here). */
    data: unknown,
    opts: AppendOptions = {}
  ): Promise<number> {
    if (this.broken) throw this.broken;
    const payload = data instanceof Uint8Array ? data : encodeJson(data);
    this.refuseUnwritable(subject, payload, opts);
    const expected = this.tail++;
    try {
      const ack = await this.bus.publish(subject, payload, {
        expectLastSequence: expected,
        ...(opts.rollup ? { rollup: true } : {}),
        ...(opts.headers ? { headers: opts.headers } : {}),
      });
      this.compactor?.afterAppend();
      return ack.seq;
    } catch (err) {
      // Any failure leaves the tail unknown; later pipelined appends would fail too. The owner
      // gives the partition up and a fresh activation re-reads the log.
      const e = isWrongLastSequence(err)
        ? new FencedError(`partition ${this.label}: another owner wrote to the log`)
        : (err as Error);
      if (!this.broken) {
        this.broken = e;
        this.onBroken?.(e);
      }
      throw e;
    }
  }

  private refuseUnwritable(subject: string, payload: Uint8Array, opts: AppendOptions): void {
    if (!isPublishableSubject(subject) || !subject.startsWith(`hubd.${this.label}.`)) {
      throw new WriteRefusedError(
        'INTERNAL',
        `partition ${this.label}: subject ${JSON.stringify(subject)} is not in this log`
      );
    }
    const limit = this.maxPayloadBytes(opts);
    if (payload.byteLength > limit) {
      throw new WriteRefusedError(
        'PAYLOAD_TOO_LARGE',
        `a write of ${payload.byteLength} bytes does not fit the NATS server's max_payload ` +
          `(${this.bus.maxPayload} bytes, ${limit} after headers)`,
        { data: { size: payload.byteLength, limit, maxPayload: this.bus.maxPayload } }
      );
    }
  }

  /**
   * One message by sequence (the queue service's delivered and expired messages, for now). Prefer
   * bulk removal through a LogHolder: per-message deletes top out at about 4k/s on the server.
   * Deletes do not move the stream's last sequence, so they need no fencing arithmetic. (No
   * filtered purge here: nats-server before 2.9.18 replays one on a recovering replica as a purge
   * of the whole stream up to that point, nats-io/nats-server#4196.)
   */
  async delete(seq: number): Promise<void> {
    await this.bus.jsm.streams.deleteMessage(this.stream, seq, false);
  }

  /** Allows compaction from now on (after the partition's activation: every holder registered). */
  startCompaction(): void {
    this.compactor?.start();
  }

  /** No compaction from now on; one in progress stops before its marker and purge. */
  close(): void {
    this.compactor?.close();
  }

  /** Resolves when the compaction in progress, if any, has ended. */
  async compactionIdle(): Promise<void> {
    await this.compactor?.idle();
  }

  /** Runs the compaction trigger now (tests, and after a holder's needs dropped). */
  compactIfDue(): Promise<void> | undefined {
    return this.compactor?.check();
  }

  /**
   * Is this log compacted in bulk? When not (no compaction configured, a handler that does not hold
   * all its records, or a server where a purge to a sequence is unsafe), writers remove what they
   * supersede one message at a time (deleteLater) and holders need not track anything.
   */
  get compactable(): boolean {
    return this.compactor !== undefined;
  }

  /** The lowest sequence the stream may still hold, as far as this writer knows. */
  get firstSequence(): number {
    return this.first;
  }

  /** Part of the compaction (log-compactor.ts): fenced like every append. */
  async appendCompactMarker(cut: number): Promise<number> {
    return this.append(subjects.partitionCompact(this.label), { cut, at: Date.now() });
  }

  /**
   * Part of the compaction (log-compactor.ts): removes every record below `cut`. Never filtered.
   * Only called where purgeToSequenceIsSafe() holds (a log with a compactor).
   */
  async purgeBelow(cut: number): Promise<number> {
    const r = await this.bus.jsm.streams.purge(this.stream, { seq: cut });
    this.first = Math.max(this.first, cut);
    return r.purged;
  }

  /**
   * On a log not compacted in bulk: deletes, off the caller's path, a message that a later durable
   * write made obsolete (an actor's older snapshot). Nothing depends on it happening: a replay keeps
   * the newest message per subject and removes the rest, so a delete that fails or is dropped only
   * costs space until then.
   */
  deleteLater(seq: number): void {
    if (this.deleteBacklog.length - this.deleteHead >= DELETES_MAX_BACKLOG) return;
    this.deleteBacklog.push(seq);
    if (this.deleters < DELETES_IN_FLIGHT) void this.deleteInBackground();
  }

  private async deleteInBackground(): Promise<void> {
    this.deleters++;
    try {
      while (this.deleteHead < this.deleteBacklog.length) {
        const seq = this.deleteBacklog[this.deleteHead++] as number;
        if (this.deleteHead >= 1024 && this.deleteHead * 2 >= this.deleteBacklog.length) {
          this.deleteBacklog = this.deleteBacklog.slice(this.deleteHead);
          this.deleteHead = 0;
        }
        // Already gone, or NATS unreachable for now: either way the next replay settles it.
        await this.delete(seq).catch(() => undefined);
      }
    } finally {
      this.deleters--;
    }
  }
}

function isWrongLastSequence(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; api_error?: { err_code?: number } };
  return (
    e?.api_error?.err_code === WRONG_LAST_SEQUENCE ||
    e?.code === WRONG_LAST_SEQUENCE ||
    e?.code === String(WRONG_LAST_SEQUENCE) ||
    /wrong last sequence/i.test(String(e?.message))
  );
}
