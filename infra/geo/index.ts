// Geocoding (decisions.md §10): the offline gazetteer by default, a Nominatim-compatible service
// when one is configured; either way behind a small cache.
import { cachedGeocoder } from './cache.js';
import { createGazetteerGeocoder } from './gazetteer.js';
import type { Geocoder } from './geocoder.js';
import { createNominatimGeocoder } from './nominatim.js';

export type { GeocodedPlace, Geocoder } from './geocoder.js';
export { createGazetteerGeocoder, type GazetteerOptions } from './gazetteer.js';
export { createNominatimGeocoder, type NominatimOptions } from './nominatim.js';
export { cachedGeocoder, type GeocoderCacheOptions } from './cache.js';
export { fold, addressParts, countryName } from './address.js';
export { geocodeLocationTags, LOCATION_TAG_PREFIX, type LocatedTag } from './location-tags.js';

export interface GeocoderConfig {
  /** A Nominatim-compatible base URL; undefined uses the offline gazetteer. */
  readonly url: string | undefined;
  readonly timeoutMs: number;
}

const CACHE = { maxEntries: 10_000, ttlMs: 24 * 60 * 60 * 1000 } as const;

export function createGeocoder(config: GeocoderConfig): Geocoder {
  const inner =
    config.url === undefined
      ? createGazetteerGeocoder()
      : createNominatimGeocoder({ url: config.url, timeoutMs: config.timeoutMs });
  return cachedGeocoder(inner, CACHE);
}
