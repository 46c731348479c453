// A lean JetStream publisher for the hot path. nats.js's js.publish() is a full request per
// message: a timer per request and an Error object built in RequestOne.cancel() after every
// successful reply (about a tenth of the hub's CPU under load, measured). Here one inbox
// subscription takes every PubAck, correlated by a token in the reply subject, and one sweep
// timer fails publishes whose ack is overdue. Publishes are handed to the client once per turn of
// the event loop (setImmediate), in order: the client flushes its buffer after each microtask
// checkpoint, so publishes made from separate socket callbacks (one HTTP request, one agent
// frame) each cost a socket write of their own, the largest single cost of a round trip in the
// profile; gathered, one write carries all of a turn's publishes.
import {
  createInbox,
  type MsgHdrs,
  type NatsConnection,
  type Subscription,
} from '@nats-io/nats-core';

export interface PubAck {
  stream: string;
  seq: number;
  duplicate: boolean;
}

/** A PubAck that carried an error: `code` is the JetStream err_code (e.g. 10071). */
export class PublishError extends Error {
  override readonly name = 'PublishError';
  constructor(
    message: string,
    readonly code: number
  ) {
    super(message);
  }
}

interface Pending {
  resolve: (ack: PubAck) => void;
  reject: (err: Error) => void;
  deadline: number;
  /** performance.now() when published: the ack's latency for /metrics. */
  at: number;
}

interface Outgoing {
  subject: string;
  data: Uint8Array;
  headers: MsgHdrs | undefined;
  token: string;
}

const SWEEP_MS = 250;

export class JetStreamPublisher {
  private readonly prefix: string;
  private readonly pending = new Map<string, Pending>();
  private readonly sub: Subscription;
  private readonly sweep: NodeJS.Timeout;
  private next = 0;
  /** Told each acknowledged publish's latency in seconds (the hub's histogram). */
  onAcked: ((seconds: number) => void) | undefined;
  /** Publishes waiting for this turn's hand-over to the client, in the order they were made. */
  private outgoing: Outgoing[] = [];
  private scheduled = false;

  constructor(private readonly nc: NatsConnection) {
    this.prefix = `${createInbox()}.`;
    this.sub = nc.subscribe(`${this.prefix}*`, {
      callback: (_err, msg) => {
        const token = msg.subject.slice(this.prefix.length);
        const p = this.pending.get(token);
        if (!p) return; // late ack of a publish that already timed out
        this.pending.delete(token);
        if (msg.data.length === 0 && msg.headers?.code === 503) {
          p.reject(new PublishError('no stream captures this subject (no responders)', 503));
          return;
        }
        try {
          const ack = msg.json<{
            stream?: string;
            seq?: number;
            duplicate?: boolean;
            error?: { err_code?: number; code?: number; description?: string };
          }>();
          if (ack.error) {
            p.reject(
              new PublishError(
                ack.error.description ?? 'publish rejected',
                ack.error.err_code ?? ack.error.code ?? 0
              )
            );
          } else {
            this.onAcked?.((performance.now() - p.at) / 1000);
            p.resolve({ stream: ack.stream ?? '', seq: ack.seq ?? 0, duplicate: !!ack.duplicate });
          }
        } catch (err) {
          p.reject(err as Error);
        }
      },
    });
    this.sweep = setInterval(() => this.expire(), SWEEP_MS);
    this.sweep.unref();
  }

  publish(
    subject: string,
    data: Uint8Array,
    headers: MsgHdrs | undefined,
    timeoutMs: number
  ): Promise<PubAck> {
    const token = (this.next++).toString(36);
    return new Promise<PubAck>((resolve, reject) => {
      this.pending.set(token, {
        resolve,
        reject,
        deadline: Date.now() + timeoutMs,
        at: performance.now(),
      });
      this.outgoing.push({ subject, data, headers, token });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.handOver);
      }
    });
  }

  /** Gives the client every publish of this turn at once (their order is the fencing's order). */
  private readonly handOver = (): void => {
    this.scheduled = false;
    const batch = this.outgoing;
    this.outgoing = [];
    for (const o of batch) {
      const reply = this.prefix + o.token;
      try {
        this.nc.publish(o.subject, o.data, o.headers ? { reply, headers: o.headers } : { reply });
      } catch (err) {
        const p = this.pending.get(o.token);
        if (!p) continue;
        this.pending.delete(o.token);
        p.reject(err instanceof Error ? err : new PublishError(String(err), 0));
      }
    }
  };

  /** Publishes sent and not yet acknowledged (or failed). */
  get pendingAcks(): number {
    return this.pending.size;
  }

  close(): void {
    clearInterval(this.sweep);
    this.sub.unsubscribe();
    for (const p of this.pending.values()) p.reject(new PublishError('publisher closed', 0));
    this.pending.clear();
    this.outgoing = [];
  }

  private expire(): void {
    if (this.pending.size === 0) return;
    const now = Date.now();
    for (const [token, p] of this.pending) {
      if (p.deadline > now) continue;
      this.pending.delete(token);
      p.reject(new PublishError('timed out waiting for the publish acknowledgement', 408));
    }
  }
}
