// Reads a uWS request body into one Buffer under a byte limit (decisions.md §7: 1 MiB default).
// A declared Content-Length over the limit fails before any byte is read (the route table answers
// those before the handler runs); streamed (chunked) bodies are counted as they arrive. A reply
// written while the body is still arriving closes the connection (Exchange.bodyPending).
import type { HttpResponse } from 'uWebSockets.js';
import { HubError, PayloadTooLargeError } from '../../runtime/errors/index.js';
import type { Exchange } from './exchange.js';

const EMPTY = Buffer.alloc(0);

/**
 * Call synchronously inside the uWS handler (onData must be attached before it returns).
 * Rejects with PayloadTooLargeError over `limit`, or a HubError if the client goes away mid-body,
 * so that the handler awaiting it always settles.
 */
export function readBody(
  res: HttpResponse,
  exchange: Exchange,
  contentLength: string | undefined,
  limit: number,
  chunked = false
): Promise<Buffer> {
  const declared = contentLength ? Number(contentLength) : NaN;
  if (declared > limit) return Promise.reject(new PayloadTooLargeError(limit));
  // An empty body ends in the first onData call, before any reply can be written; only a body
  // with bytes to come can still be in transit when the handler answers.
  exchange.bodyPending = declared > 0 || (contentLength === undefined && chunked);
  return new Promise<Buffer>((resolve, reject) => {
    // With a known length one buffer is filled in place: one copy per byte, no concat.
    const known = Number.isSafeInteger(declared) && declared >= 0;
    const whole = known && declared > 0 ? Buffer.allocUnsafe(declared) : undefined;
    const parts: Buffer[] = [];
    let received = 0;
    let settled = false;

    exchange.onAbort(() => {
      if (settled) return;
      settled = true;
      reject(new HubError('INVALID_REQUEST', 'Client closed the connection before the body ended'));
    });

    res.onData((chunk, isLast) => {
      if (isLast) exchange.bodyPending = false;
      if (settled) return;
      received += chunk.byteLength;
      if (received > limit || (whole !== undefined && received > whole.length)) {
        settled = true;
        reject(new PayloadTooLargeError(limit));
        return;
      }
      // uWS neuters `chunk` when this callback returns, so its bytes are copied now.
      if (whole !== undefined) {
        whole.set(new Uint8Array(chunk), received - chunk.byteLength);
      } else if (chunk.byteLength > 0) {
        parts.push(Buffer.from(new Uint8Array(chunk)));
      }
      if (!isLast) return;
      settled = true;
      if (whole !== undefined) {
        resolve(received === whole.length ? whole : whole.subarray(0, received));
      } else if (parts.length <= 1) {
        resolve(parts[0] ?? EMPTY);
      } else {
        resolve(Buffer.concat(parts, received));
      }
    });
  });
}
