// A loopback HTTP server for upstream fixtures (public-data agents): it records every request
// (path, query parameters, headers) and hands it to a handler that answers in the upstream's shape.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface FixtureRequest {
  path: string;
  params: Record<string, string>;
  headers: IncomingMessage['headers'];
  at: number;
  method: string;
  /** The request body as text ('' for none), read before the handler runs. */
  body: string;
}

export interface FixtureServer {
  /** http://127.0.0.1:port */
  readonly origin: string;
  readonly requests: FixtureRequest[];
  /** Requests whose path is `path` (or starts with it, for a prefix ending in '/'). */
  to(path: string): FixtureRequest[];
  close(): Promise<void>;
}

export type FixtureHandler = (req: FixtureRequest, res: ServerResponse) => void | Promise<void>;

export async function startFixtureServer(handler: FixtureHandler): Promise<FixtureServer> {
  const requests: FixtureRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture.local');
    const r: FixtureRequest = {
      path: url.pathname,
      params: Object.fromEntries(url.searchParams),
      headers: req.headers,
      at: Date.now(),
      method: req.method ?? 'GET',
      body: '',
    };
    requests.push(r);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      r.body = Buffer.concat(chunks).toString('utf8');
      Promise.resolve(handler(r, res)).catch((err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    to: (path) =>
      requests.filter((r) => (path.endsWith('/') ? r.path.startsWith(path) : r.path === path)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify(body));
}

/** Great-circle miles, as the fixtures filter by distance. */
export function milesBetween(a: [number, number], b: [number, number]): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b[0] - a[0]) * rad) / 2) ** 2 +
    Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(((b[1] - a[1]) * rad) / 2) ** 2;
  return 2 * 3958.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}
