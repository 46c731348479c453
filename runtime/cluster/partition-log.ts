// The partition's durable log with single-writer fencing. A new owner appends an epoch marker with
// Nats-Expected-Last-Sequence; every later append expects the sequence this writer last produced,
// so once another owner writes, every append of the stale owner fails (exact on R3, nats-2.9.md §0.2).
// Appends are pipelined: the k-th append in flight expects lastSeq + k.
import { encodeJson, streams, subjects, type Bus } from '../bus/index.js';

/** nats-server's JSErrCode for "wrong last sequence". */
const WRONG_LAST_SEQUENCE = 10071;

export class FencedError extends Error {
  override readonly name = 'FencedError';
}

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
    const expected = this.tail++;
    const payload = data instanceof Uint8Array ? data : encodeJson(data);
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

  /**
   * Deletes do not move the stream's last sequence, so they need no fencing arithmetic. (No
   * filtered purge here: nats-server before 2.9.18 replays one on a recovering replica as a purge
   * of the whole stream up to that point, nats-io/nats-server#4196.)
   */
  async delete(seq: number): Promise<void> {
    await this.bus.jsm.streams.deleteMessage(this.stream, seq, false);
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
