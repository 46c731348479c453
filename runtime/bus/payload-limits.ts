// What fits in one NATS message. nats-server refuses every message whose payload and headers
// exceed its max_payload (1 MB unless configured), and a JetStream write it refuses can never
// succeed however often it is retried. The hub reads the server's value (Bus.maxPayload, from the
// INFO of the server it is connected to) and derives from it what it writes and accepts.

/**
 * Bytes of every record kept free below max_payload: the write's own headers (expected sequence,
 * rollup, a queued message's entry) and the wrapper of an owner's reply that carries the record.
 */
export const RECORD_HEADROOM = 4 * 1024;

/**
 * Bytes an actor's record keeps free while the actor is active, so that the change that ends it
 * (a failure with its reason, a cancel) can always be written even when its content filled it.
 */
export const FINAL_RESERVE = 16 * 1024;

export interface RecordLimits {
  /** The NATS server's max_payload. */
  readonly maxPayload: number;
  /** The largest record of an actor that is finished (its last write). */
  readonly final: number;
  /** The largest record of an actor that is still active. */
  readonly active: number;
}

export function recordLimits(maxPayload: number): RecordLimits {
  const final = Math.max(0, maxPayload - RECORD_HEADROOM);
  return { maxPayload, final, active: Math.max(0, final - FINAL_RESERVE) };
}

/** "NATS/1.0\r\n" and the blank line that ends a header block. */
const HEADER_BLOCK_BYTES = 14;

/** Bytes the given headers take on the wire (each `Name: value\r\n`). */
export function headerBytes(headers: Readonly<Record<string, string>>): number {
  let n = HEADER_BLOCK_BYTES;
  for (const [k, v] of Object.entries(headers)) {
    n += Buffer.byteLength(k) + Buffer.byteLength(v) + 4;
  }
  return n;
}

/** A subject a message can be published to: dot-separated tokens, no wildcards or whitespace. */
export function isPublishableSubject(subject: string): boolean {
  return subject.length > 0 && !/[\s*>]|\.\.|^\.|\.$/.test(subject);
}
