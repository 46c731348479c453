// One guarded HTTP request from the hub to a URL someone registered (an HTTP agent, a webhook):
// http(s) only, a literal IP judged before connecting, a name resolved through the guard's
// `lookup` so the socket connects only to a checked address. Redirects are never followed (the
// caller sees the 3xx); the body is read up to a byte limit; one deadline covers the exchange.
// Keep-alive agents per guard keep the hot path to one TCP connection per peer.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { HubError } from '../errors/index.js';
import type { OutboundGuard } from './outbound-guard.js';

export interface OutboundRequest {
  readonly method: 'POST' | 'GET';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly timeoutMs: number;
  /** Larger answers fail the request (default 32 MiB). */
  readonly maxBytes?: number;
}

export interface OutboundResponse {
  readonly status: number;
  readonly body: Buffer;
}

/** Thrown when the deadline passes; `name` is 'TimeoutError' like fetch's. */
export class OutboundTimeoutError extends HubError {
  constructor(url: string, timeoutMs: number) {
    super('UNAVAILABLE', `no answer from ${url} within ${timeoutMs} ms`);
    this.name = 'TimeoutError';
  }
}

const agents = new WeakMap<OutboundGuard, { http: http.Agent; https: https.Agent }>();

function agentsOf(guard: OutboundGuard) {
  let a = agents.get(guard);
  if (a === undefined) {
    // The lookup rides on the agent too, so a pooled socket was always opened to a checked address.
    // An idle socket is closed after 4 s, before common servers' 5 s keep-alive timeout, so a
    // request rarely meets a socket the peer is closing. (Deadlines are the caller's signal.)
    const opts = { keepAlive: true, maxSockets: 256, timeout: 4_000, lookup: guard.lookup };
    a = { http: new http.Agent(opts), https: new https.Agent(opts) };
    agents.set(guard, a);
  }
  return a;
}

/** Sends the request; rejects with OutboundRefusedError, OutboundTimeoutError or a socket error. */
export async function outboundRequest(
  guard: OutboundGuard,
  url: URL,
  req: OutboundRequest
): Promise<OutboundResponse> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HubError('FORBIDDEN', `only http and https URLs are called, not ${url.protocol}`);
  }
  const refused = guard.literalRefusal(url.hostname);
  if (refused !== undefined) throw refused;
  const limit = req.maxBytes ?? 32 * 1024 * 1024;
  const secure = url.protocol === 'https:';
  const pool = agentsOf(guard);
  const signal = AbortSignal.timeout(req.timeoutMs);
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const r = (secure ? https : http).request(
      url,
      {
        method: req.method,
        headers: {
          ...req.headers,
          ...(req.body !== undefined ? { 'content-length': Buffer.byteLength(req.body) } : {}),
        },
        agent: secure ? pool.https : pool.http,
        lookup: guard.lookup,
        signal,
      },
      resolve
    );
    r.on('error', (err) =>
      reject(signal.aborted ? new OutboundTimeoutError(url.href, req.timeoutMs) : err)
    );
    r.end(req.body);
  });
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > limit) {
        throw new HubError('PAYLOAD_TOO_LARGE', `${url.href} answered more than ${limit} bytes`);
      }
      chunks.push(chunk);
    }
  } catch (err) {
    res.destroy();
    if (signal.aborted) throw new OutboundTimeoutError(url.href, req.timeoutMs);
    throw err;
  }
  return { status: res.statusCode ?? 0, body: Buffer.concat(chunks) };
}
