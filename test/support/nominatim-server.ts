// A local HTTP server that answers /search like Nominatim (format=jsonv2, addressdetails=1) from
// a small table, for geocoding tests. "slow" never answers in time; "broken" answers 500.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface NominatimPlace {
  lat: number;
  lng: number;
  displayName: string;
  /** ISO alpha-2; omitted for a place outside any country. */
  country?: string;
}

export interface NominatimServer {
  /** Base URL, with a path prefix as a real deployment may have. */
  readonly url: string;
  /** Every request received: its query parameters and User-Agent. */
  readonly requests: Array<{ path: string; params: Record<string, string>; userAgent: string }>;
  close(): Promise<void>;
}

export async function startNominatimServer(
  places: Readonly<Record<string, NominatimPlace>>
): Promise<NominatimServer> {
  const requests: NominatimServer['requests'] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const params = Object.fromEntries(url.searchParams);
    requests.push({ path: url.pathname, params, userAgent: req.headers['user-agent'] ?? '' });
    const q = (params.q ?? '').trim().toLowerCase();
    if (url.pathname !== '/geo/search') {
      res.writeHead(404).end();
      return;
    }
    if (q === 'slow') return; // never answers: the client's timeout must fire
    if (q === 'broken') {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
      return;
    }
    const place = places[q];
    const body = place
      ? [
          {
            place_id: 1,
            lat: String(place.lat),
            lon: String(place.lng),
            display_name: place.displayName,
            category: 'place',
            type: 'city',
            address: place.country ? { country_code: place.country.toLowerCase() } : {},
          },
        ]
      : [];
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/geo`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
