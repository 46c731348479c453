// Parsing of the discovery query strings and the rating body: defaults, limits, and a 400 naming
// the parameter for every mistake.
import { describe, expect, it } from 'vitest';
import { HubError } from '../../runtime/errors/index.js';
import { parseNearby, parseRate, parseSearch, queryWords } from './params.js';

function fieldOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    if (err instanceof HubError) {
      expect(err.httpStatus).toBe(400);
      return (err.data as { field?: unknown }).field;
    }
    throw err;
  }
  throw new Error('accepted');
}

describe('parseSearch', () => {
  it('applies the spec defaults', () => {
    expect(parseSearch('')).toEqual({
      tenantOnly: false,
      search: { words: [], sort: 'rating', tenantOnly: false, limit: 10, offset: 0 },
    });
    expect(parseSearch('q=weather').search).toMatchObject({
      words: ['weather'],
      sort: 'relevance',
    });
  });

  it('reads every parameter', () => {
    const { search, tenantOnly } = parseSearch(
      'query=rain%20radar&category=Weather&tag=forecast&skillTag=radar&contentMode=IMAGE/PNG' +
        '&owner=Acme%20Weather&verified=true&sort=popular&limit=50&offset=20&country=fr'
    );
    expect(tenantOnly).toBe(false);
    expect(search).toEqual({
      words: ['rain', 'radar'],
      category: 'Weather',
      tag: 'forecast',
      skillTag: 'radar',
      contentMode: 'image/png',
      owner: 'Acme Weather',
      verified: true,
      sort: 'popular',
      limit: 50,
      offset: 20,
      country: 'FR',
      tenantOnly: false,
    });
    expect(parseSearch('verified=0').search.verified).toBe(false);
    expect(parseSearch('contentMode=image/*').search.contentMode).toBe('image/*');
  });

  it('reads pricing: free and all match every agent, only paid filters', () => {
    expect(parseSearch('q=echo&pricing=free').search).not.toHaveProperty('pricing');
    expect(parseSearch('pricing=all').search).not.toHaveProperty('pricing');
    expect(parseSearch('pricing=paid').search.pricing).toBe('paid');
  });

  it('ignores limit with scope=tenant (but still checks it), and an empty q', () => {
    expect(parseSearch('scope=tenant&limit=5')).toMatchObject({
      tenantOnly: true,
      search: { limit: undefined, tenantOnly: true },
    });
    expect(fieldOf(() => parseSearch('scope=tenant&limit=500'))).toBe('limit');
    expect(parseSearch('q=').search.words).toEqual([]);
  });

  it("reads the GopherHole clients' organization (owner) and sort=smart (the default order)", () => {
    expect(parseSearch('organization=Acme&sort=smart').search).toMatchObject({
      owner: 'Acme',
      sort: 'rating',
    });
    expect(parseSearch('owner=Acme&organization=Acme&q=kayak&sort=smart').search).toMatchObject({
      owner: 'Acme',
      sort: 'relevance',
    });
    expect(fieldOf(() => parseSearch('owner=Acme&organization=Other'))).toBe('organization');
  });

  it('refuses bad values naming the parameter', () => {
    const cases: Array<[string, string]> = [
      ['limit=0', 'limit'],
      ['limit=51', 'limit'],
      ['limit=ten', 'limit'],
      ['limit=1.5', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=1000001', 'offset'],
      ['sort=best', 'sort'],
      ['sort=relevance', 'sort'],
      ['scope=all', 'scope'],
      ['verified=yes', 'verified'],
      ['country=FRA', 'country'],
      ['country=XX', 'country'],
      ['country=ZZ', 'country'],
      ['country=EU', 'country'],
      ['contentMode=png', 'contentMode'],
      ['category=', 'category'],
      ['tag=%20', 'tag'],
      [`skillTag=${'x'.repeat(201)}`, 'skillTag'],
      ['owner=', 'owner'],
      [`q=${'a'.repeat(201)}`, 'q'],
      ['q=!!!', 'q'],
      ['q=a&query=b', 'query'],
      ['limt=5', 'limt'],
      ['tag=a&tag=b', 'tag'],
      ['pricing=cheap', 'pricing'],
    ];
    for (const [query, field] of cases)
      expect(
        fieldOf(() => parseSearch(query)),
        query
      ).toBe(field);
  });

  it('splits q into at most eight words of letters and digits', () => {
    expect(queryWords("it's   o'clock, Zürich-2024!")).toEqual([
      'it',
      's',
      'o',
      'clock',
      'Zürich',
      '2024',
    ]);
    expect(queryWords('a b c d e f g h i j')).toHaveLength(8);
  });
});

describe('parseNearby', () => {
  it('requires lat and lng and applies the defaults', () => {
    expect(parseNearby('lat=48.85&lng=-2.35')).toEqual({
      lat: 48.85,
      lng: -2.35,
      radiusKm: 10,
      limit: 20,
      offset: 0,
    });
    expect(fieldOf(() => parseNearby('lng=2'))).toBe('lat');
    expect(fieldOf(() => parseNearby('lat=2'))).toBe('lng');
  });

  it('range-checks every parameter', () => {
    const cases: Array<[string, string]> = [
      ['lat=90.1&lng=0', 'lat'],
      ['lat=-91&lng=0', 'lat'],
      ['lat=abc&lng=0', 'lat'],
      ['lat=1e3&lng=0', 'lat'],
      ['lat=0&lng=180.5', 'lng'],
      ['lat=0&lng=0&radius=0', 'radius'],
      ['lat=0&lng=0&radius=500.01', 'radius'],
      ['lat=0&lng=0&radius=-3', 'radius'],
      ['lat=0&lng=0&limit=51', 'limit'],
      ['lat=0&lng=0&offset=x', 'offset'],
      ['lat=0&lng=0&tag=', 'tag'],
      ['lat=0&lng=0&q=x', 'q'],
    ];
    for (const [query, field] of cases)
      expect(
        fieldOf(() => parseNearby(query)),
        query
      ).toBe(field);
    expect(parseNearby('lat=-90&lng=180&radius=500&limit=50').radiusKm).toBe(500);
  });
});

describe('parseRate', () => {
  const body = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));

  it('reads an integer rating 1..5 and an optional review', () => {
    expect(parseRate(body({ rating: 4, review: 'good' }))).toEqual({ rating: 4, review: 'good' });
    expect(parseRate(body({ rating: 1 }))).toEqual({ rating: 1, review: '' });
  });

  it('refuses anything else naming the field', () => {
    const cases: Array<[unknown, string]> = [
      [{ rating: 0 }, 'rating'],
      [{ rating: 6 }, 'rating'],
      [{ rating: 4.5 }, 'rating'],
      [{ rating: '5' }, 'rating'],
      [{}, 'rating'],
      [{ rating: 3, review: 7 }, 'review'],
      [{ rating: 3, review: 'x'.repeat(2001) }, 'review'],
      [{ rating: 3, stars: 3 }, 'stars'],
      ['not json', 'body'],
      [[1], 'body'],
    ];
    for (const [value, field] of cases) {
      expect(
        fieldOf(() => parseRate(body(value))),
        JSON.stringify(value)
      ).toBe(field);
    }
  });
});
