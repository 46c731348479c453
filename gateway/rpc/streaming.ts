// A JSON-RPC result that is a stream rather than one response (A2A SendStreamingMessage and
// SubscribeToTask answer with SSE): a handler returns a StreamingResult, and dispatch turns it into
// a Reply that hands the live uWS response to the stream.
import type { HttpResponse } from 'uWebSockets.js';
import type { Exchange } from '../http/exchange.js';
import type { Reply } from '../http/reply.js';
import type { RpcId } from './envelope.js';

/**
 * Takes over the response: writes its own status and headers, every event, and the end. Runs
 * synchronously inside the route's reply; `id` is the JSON-RPC request id each event echoes.
 */
export type StreamStart = (res: HttpResponse, exchange: Exchange, id: RpcId) => void;

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** Returned by an RpcHandler to answer with a stream; checked with `instanceof`. */
export class StreamingResult {
  constructor(private readonly start: StreamStart) {}

  /** The Reply that starts the stream; 200 is what the metrics record for it. */
  reply(id: RpcId): Reply {
    return {
      status: 200,
      headers: NO_HEADERS,
      body: '',
      stream: (res, exchange) => this.start(res, exchange, id),
    };
  }
}
