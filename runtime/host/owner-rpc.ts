// Requests to whichever node owns a partition: served in-process when this node owns it, else by a
// NATS request on hub.p.<label>.<op>, retried with jittered backoff while the partition changes
// owner. Errors cross the wire in the catalog's shape (toWire/fromWire).
import { RequestError, TimeoutError, type Msg } from '@nats-io/nats-core';
import { decodeJson, encodeJson, partitionLabel, subjects, type Bus } from '../bus/index.js';
import {
  HubError,
  UnavailableError,
  ensureHubError,
  fromWire,
  toWire,
  type WireError,
} from '../errors/index.js';
import type { Logger } from '../log/index.js';
import type { HubMetrics } from '../metrics/index.js';

export type OwnerReply<R> = { ok: true; result: R } | { ok: false; error: WireError };

export interface OwnerRpcOptions {
  bus: Bus;
  partitions: number;
  /** How long a caller keeps retrying while a partition changes owner. */
  handoverWaitMs?: number;
  requestTimeoutMs?: number;
  /** Counts the requests that gave up waiting for an owner (retryGiveUps, loop owner_request). */
  metrics?: HubMetrics;
}

/** Runs a handler and turns what it throws into a wire error (internal errors logged, not leaked). */
export async function serveOwner<R>(fn: () => Promise<R> | R, log: Logger): Promise<OwnerReply<R>> {
  try {
    return { ok: true, result: await fn() };
  } catch (err) {
    const e = ensureHubError(err);
    if (e.code === 'INTERNAL') log.error({ err }, 'partition request failed');
    return { ok: false, error: toWire(e) };
  }
}

/**
 * Answers a request from another node. A reply larger than NATS max_payload cannot be sent, and a
 * caller left without one would wait for its time-out and then retry: it gets the reason instead.
 */
export function respondOwner<R>(bus: Bus, msg: Msg, reply: OwnerReply<R>): void {
  let data = encodeJson(reply);
  if (data.byteLength > bus.maxPayload) {
    data = encodeJson({
      ok: false,
      error: toWire(
        new HubError(
          'PAYLOAD_TOO_LARGE',
          `the answer (${data.byteLength} bytes) does not fit the NATS server's max_payload ` +
            `(${bus.maxPayload} bytes)`,
          { data: { size: data.byteLength, limit: bus.maxPayload } }
        )
      ),
    } satisfies OwnerReply<R>);
  }
  msg.respond(data);
}

/**
 * Sends `req` to the owner of `partition`. `local` is asked before each attempt: when it returns a
 * promise (this node owns the partition now) the request is served in-process without encoding.
 */
export async function callOwner<R>(
  o: OwnerRpcOptions,
  partition: number,
  op: string,
  req: unknown,
  local: () => Promise<OwnerReply<R>> | undefined
): Promise<R> {
  const deadline = Date.now() + (o.handoverWaitMs ?? 20_000);
  // Built only for a request that leaves the node: most are served here.
  let subject: string | undefined;
  let payload: Uint8Array | undefined;
  for (let attempt = 0; ; attempt++) {
    const here = local();
    if (here) {
      const r = await here;
      if (r.ok) return r.result;
      const err = fromWire(r.error);
      if (err.code !== 'UNAVAILABLE') throw err;
      if (Date.now() > deadline) throw gaveUp(o, err);
    } else {
      try {
        subject ??= subjects.partitionRequest(partitionLabel(partition, o.partitions), op);
        payload ??= encodeJson(req);
        // No retry can send a request the server refuses: say so instead of "internal error".
        if (payload.byteLength > o.bus.maxPayload) {
          throw new HubError(
            'PAYLOAD_TOO_LARGE',
            `the request (${payload.byteLength} bytes) does not fit the NATS server's max_payload ` +
              `(${o.bus.maxPayload} bytes)`,
            { data: { size: payload.byteLength, limit: o.bus.maxPayload } }
          );
        }
        const msg = await o.bus.nc.request(subject, payload, {
          timeout: o.requestTimeoutMs ?? 10_000,
        });
        const r = decodeJson<OwnerReply<R>>(msg.data);
        if (r.ok) return r.result;
        // UNAVAILABLE (the partition moved on) is retried below like no responders.
        throw fromWire(r.error);
      } catch (err) {
        const transient =
          (err instanceof RequestError && err.isNoResponders()) || err instanceof TimeoutError;
        if (!transient && !(err instanceof HubError && err.code === 'UNAVAILABLE')) throw err;
        if (Date.now() > deadline) {
          throw gaveUp(
            o,
            new UnavailableError(`partition ${partition} has no owner right now`, err)
          );
        }
      }
    }
    // Jittered backoff while the partition moves between nodes.
    await new Promise((r) =>
      setTimeout(r, Math.min(1000, 25 * 2 ** attempt) * (0.5 + Math.random()))
    );
  }
}

/** The retry loop's end, counted: the caller sees `err` (retryable UNAVAILABLE). */
function gaveUp(o: OwnerRpcOptions, err: HubError): HubError {
  o.metrics?.retryGiveUps.inc({ loop: 'owner_request' });
  return err;
}
