// The hub's geocoder (infra/geo: the offline gazetteer, or GEOCODER_URL's Nominatim), one per hub
// configuration so its cache is reused across requests.
import type { Config } from '../../runtime/config/index.js';
import { createGeocoder, type Geocoder } from '../../infra/geo/index.js';

const geocoders = new WeakMap<Config, Geocoder>();

export function geocoderFor(config: Config): Geocoder {
  let g = geocoders.get(config);
  if (g === undefined) {
    g = createGeocoder(config.geocoder);
    geocoders.set(config, g);
  }
  return g;
}
