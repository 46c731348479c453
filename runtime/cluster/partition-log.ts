// The partition's durable log with single-writer fencing. A new owner appends an epoch marker with
// Nats-Expected-Last-Sequence; every later append expects the sequence this writer last produced,
// so once another owner writes, every append of the stale owner fails (exact on R3, nats-2.9.md §0.2).
// Appends are pipelined: the k-th append in flight expects lastSeq + k.
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

/** nats-server's JSErrCode for "wrong last sequence". */
const WRONG_LAST_SEQUENCE = 10071;

/** Background deletes of superseded messages in flight per partition. */
const COMPACT_IN_FLIGHT = 16;
/** Beyond this backlog a superseded message is left for the next activation's replay to remove. */
const COMPACT_MAX_BACKLOG = 20_000;

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

export class PartitionLog {
  readonly stream: string;
  /** Sequence the next append must expect. */
  private tail = 0;
  private broken: Error | undefined;
  private onBroken: ((err: Error) => void) | undefined;
  /** Sequences waiting for compactLater's background deletes (a FIFO read from `compactHead`). */
  private compactBacklog: number[] = [];
  private compactHead = 0;
  private compactors = 0;

  private constructor(
    private readonly bus: Bus,
    readonly label: string,
    readonly epoch: number
  ) {
    this.stream = streams.partition(label);
  }

  /** Writes the fencing marker. Retries when a concurrent writer moved the tail meanwhile. */
  static async open(bus: Bus, label: string, nodeId: string): Promise<PartitionLog> {
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
   * Deletes do not move the stream's last sequence, so they need no fencing arithmetic. (No
   * filtered purge here: nats-server before 2.9.18 replays one on a recovering replica as a purge
   * of the whole stream up to that point, nats-io/nats-server#4196.)
   */
  async delete(seq: number): Promise<void> {
    await this.bus.jsm.streams.deleteMessage(this.stream, seq, false);
  }

  /**
   * Deletes, off the caller's path, a message that a later durable write made obsolete (an actor's
   * older snapshot). Nothing depends on it happening: a replay keeps the newest message per
   * subject and removes the rest, so a delete that fails or is dropped only costs space until then.
   */
  compactLater(seq: number): void {
    if (this.compactBacklog.length - this.compactHead >= COMPACT_MAX_BACKLOG) return;
    this.compactBacklog.push(seq);
    if (this.compactors < COMPACT_IN_FLIGHT) void this.compact();
  }

  /** Superseded messages still waiting for their background delete. */
  get compactPending(): number {
    return this.compactBacklog.length - this.compactHead;
  }

  private async compact(): Promise<void> {
    this.compactors++;
    try {
      while (this.compactHead < this.compactBacklog.length) {
        const seq = this.compactBacklog[this.compactHead++] as number;
        if (this.compactHead >= 1024 && this.compactHead * 2 >= this.compactBacklog.length) {
          this.compactBacklog = this.compactBacklog.slice(this.compactHead);
          this.compactHead = 0;
        }
        // Already gone, or NATS unreachable for now: either way the next replay settles it.
        await this.delete(seq).catch(() => undefined);
      }
    } finally {
      this.compactors--;
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
