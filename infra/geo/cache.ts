// Remembers answers by address for a while, so re-saving the same tags does not ask the service
// again (Nominatim's public instance allows one request per second). Failures are not cached.
import type { GeocodedPlace, Geocoder } from './geocoder.js';

export interface GeocoderCacheOptions {
  maxEntries: number;
  ttlMs: number;
  now?: () => number;
}

export function cachedGeocoder(inner: Geocoder, opts: GeocoderCacheOptions): Geocoder {
  const now = opts.now ?? Date.now;
  // Insertion order makes the first key the oldest: FIFO eviction.
  const entries = new Map<string, { at: number; place: GeocodedPlace | null }>();
  return {
    async geocode(address) {
      const key = address.trim().toLowerCase();
      const hit = entries.get(key);
      if (hit !== undefined && now() - hit.at < opts.ttlMs) return hit.place;
      const place = await inner.geocode(address);
      entries.delete(key);
      if (entries.size >= opts.maxEntries) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(key, { at: now(), place });
      return place;
    },
  };
}
