// What a route handler returns: status, headers and a finished body. Helpers build JSON, text and
// REST error replies (decisions.md §6); the route table writes them to the socket.
import type { HttpResponse } from 'uWebSockets.js';
import type { Logger } from '../../runtime/log/index.js';
import { toRestError, type RestErrorBody } from '../../runtime/errors/index.js';
import type { Exchange } from './exchange.js';
import { normalizeError } from './normalize-error.js';

export interface Reply {
  readonly status: number;
  /** Lower-case names; `content-type` included. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array;
  /**
   * Close the connection after this reply. Also done whenever the request body is still arriving
   * when the reply goes out: the rest would otherwise have to be read (and thrown away) first.
   */
  readonly close?: boolean;
  /**
   * A streamed response (SSE): called with the live uWS response instead of writing status,
   * headers and body. It owns the response from then on: it must end it, and it learns of a client
   * that goes away through `exchange.onAbort`. `status` is still what the metrics record.
   */
  readonly stream?: (res: HttpResponse, exchange: Exchange) => void;
}

const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json',
});

/** 204 No Content: no body and no Content-Length (RFC 9110 §8.6), the connection kept. */
export const NO_CONTENT: Reply = Object.freeze({
  status: 204,
  headers: Object.freeze({}),
  body: '',
});

/** A JSON reply. Throws on values JSON cannot hold (BigInt, cycles); the route table maps that. */
export function jsonReply(
  status: number,
  value: unknown,
  headers?: Readonly<Record<string, string>>
): Reply {
  // JSON.stringify(undefined) is undefined, which is not a body.
  const body = JSON.stringify(value) ?? 'null';
  return { status, headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS, body };
}

export function textReply(
  status: number,
  body: string,
  contentType: string,
  headers?: Readonly<Record<string, string>>
): Reply {
  return { status, headers: { 'content-type': contentType, ...headers }, body };
}

/** A REST error body `{"error":{code,message,details?},"message"}` with the HubError's HTTP status. */
export function restErrorReply(
  err: unknown,
  requestId: string,
  log: Logger,
  headers?: Readonly<Record<string, string>>
): Reply {
  const hub = normalizeError(err);
  // Internal details stay in the log; the caller gets the request id to quote.
  if (hub.code === 'INTERNAL') log.error({ err, requestId }, 'internal error in HTTP route');
  const body: RestErrorBody = toRestError(hub, requestId);
  return jsonReply(hub.httpStatus, body, headers);
}
