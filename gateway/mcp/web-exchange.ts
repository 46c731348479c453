// uWS ↔ Web Fetch API for the /mcp routes: the MCP SDK's Streamable HTTP transport speaks
// Request/Response, the gateway speaks RouteRequest/Reply. An SSE response body is pumped to the
// socket as it comes, pausing while uWS reports backpressure and cancelled when the client leaves.
import type { HttpResponse } from 'uWebSockets.js';
import type { Exchange, Reply, RouteRequest } from '../http/index.js';
import { statusLine } from '../http/status-line.js';

/** Hop-by-hop or recomputed headers: the Request and the uWS reply set their own. */
const DROPPED = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);

export async function toWebRequest(req: RouteRequest): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (!DROPPED.has(name)) headers.set(name, value);
  }
  const host = req.headers.host ?? 'localhost';
  const url = `http://${host}${req.path}${req.query ? `?${req.query}` : ''}`;
  const body = req.method === 'POST' ? await req.body : undefined;
  return new Request(url, { method: req.method, headers, ...(body ? { body } : {}) });
}

export async function fromWebResponse(response: Response): Promise<Reply> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!DROPPED.has(name)) headers[name] = value;
  });
  const type = response.headers.get('content-type') ?? '';
  if (response.body !== null && type.startsWith('text/event-stream')) {
    const body = response.body;
    return {
      status: response.status,
      headers,
      body: '',
      stream: (res, exchange) => pump(res, exchange, response.status, headers, body),
    };
  }
  return { status: response.status, headers, body: new Uint8Array(await response.arrayBuffer()) };
}

function pump(
  res: HttpResponse,
  exchange: Exchange,
  status: number,
  headers: Readonly<Record<string, string>>,
  body: ReadableStream<Uint8Array>
): void {
  const reader = body.getReader();
  let ended = false;
  let waiting = false;
  exchange.onAbort(() => {
    ended = true;
    reader.cancel().catch(() => undefined);
  });
  res.onWritable(() => {
    if (waiting) {
      waiting = false;
      next();
    }
    return true;
  });
  res.cork(() => {
    res.writeStatus(statusLine(status));
    for (const name in headers) res.writeHeader(name, headers[name] ?? '');
    // An SSE comment: the headers leave now, so the client's request resolves before any event.
    res.write(': stream\n\n');
  });
  const finish = (): void => {
    if (ended) return;
    ended = true;
    res.cork(() => res.end());
  };
  const next = (): void => {
    reader.read().then(
      ({ value, done }) => {
        if (ended) return;
        if (done) return finish();
        let ok = true;
        res.cork(() => {
          ok = res.write(value);
        });
        if (ok) next();
        else waiting = true;
      },
      () => finish()
    );
  };
  next();
}
