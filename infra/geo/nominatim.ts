// A Nominatim-compatible HTTP geocoder (decisions.md §10), used when GEOCODER_URL is set:
// GET <url>/search?q=…&format=jsonv2&limit=1&addressdetails=1. No result is "no such place";
// a failed request, an error status or an unreadable answer is UnavailableError (503).
import { z } from 'zod';
import { UnavailableError } from '../../runtime/errors/index.js';
import type { GeocodedPlace, Geocoder } from './geocoder.js';

export interface NominatimOptions {
  /** Base URL; `/search` is appended to its path. */
  url: string;
  timeoutMs: number;
  /** Nominatim's usage policy asks every client to name itself. */
  userAgent?: string;
  fetch?: typeof fetch;
}

const Coordinate = z.union([z.string(), z.number()]).pipe(z.coerce.number());

const NominatimPlace = z.object({
  lat: Coordinate.pipe(z.number().min(-90).max(90)),
  lon: Coordinate.pipe(z.number().min(-180).max(180)),
  display_name: z.string(),
  address: z
    .object({ country_code: z.string().regex(/^[a-zA-Z]{2}$/) })
    .partial()
    .optional(),
});

const NominatimAnswer = z.array(z.unknown());

export function createNominatimGeocoder(opts: NominatimOptions): Geocoder {
  const doFetch = opts.fetch ?? fetch;
  const endpoint = new URL(opts.url);
  endpoint.pathname = `${endpoint.pathname.replace(/\/+$/, '')}/search`;
  return {
    async geocode(address) {
      const url = new URL(endpoint);
      url.searchParams.set('q', address);
      url.searchParams.set('format', 'jsonv2');
      url.searchParams.set('limit', '1');
      url.searchParams.set('addressdetails', '1');
      url.searchParams.set('accept-language', 'en');
      let body: unknown;
      try {
        const res = await doFetch(url, {
          headers: { accept: 'application/json', 'user-agent': opts.userAgent ?? 'burrow-hub' },
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        body = await res.json();
      } catch (err) {
        throw new UnavailableError(`the geocoding service did not answer: ${reason(err)}`, err);
      }
      const list = NominatimAnswer.safeParse(body);
      if (!list.success) {
        throw new UnavailableError('the geocoding service gave an answer that is not a list');
      }
      const first = list.data[0];
      if (first === undefined) return null;
      const hit = NominatimPlace.safeParse(first);
      if (!hit.success) {
        throw new UnavailableError('the geocoding service gave a place without coordinates');
      }
      const country = hit.data.address?.country_code;
      // A place outside any country (an ocean) cannot be filtered by country: not a location.
      if (country === undefined) return null;
      return {
        lat: hit.data.lat,
        lng: hit.data.lon,
        displayName: hit.data.display_name,
        country: country.toUpperCase(),
      } satisfies GeocodedPlace;
    },
  };
}

function reason(err: unknown): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return 'timed out';
  }
  const cause = err instanceof Error ? (err.cause as { code?: unknown } | undefined) : undefined;
  if (cause && typeof cause.code === 'string') return cause.code;
  return err instanceof Error ? err.message : String(err);
}
