// Geocoding both ways, into real PostgreSQL: the Nominatim-compatible HTTP client against a local
// server that answers like Nominatim (request shape, answers, failures, timeouts), and the offline
// gazetteer, each through the PATCH fields that turn `location:` tags into stored locations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAgent,
  createDb,
  createTenant,
  listAgentLocations,
  migrate,
  updateAgentSettings,
  type Db,
} from '../../infra/db/index.js';
import { createGazetteerGeocoder, createNominatimGeocoder } from '../../infra/geo/index.js';
import { directorySettingsFields, type Geocoder } from '../../gateway/discover/index.js';
import type { SettingsField } from '../../gateway/api/agents-routes.js';
import { HubError } from '../../runtime/errors/index.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { startNominatimServer, type NominatimServer } from '../support/nominatim-server.js';

let tdb: TestDatabase;
let db: Db;
let nominatim: NominatimServer;
let tenantId: string;

beforeAll(async () => {
  tdb = await createTestDatabase('burrow_geocode');
  db = createDb(tdb.url, { max: 2 });
  await migrate(db);
  tenantId = (await createTenant(db, { name: 'Geo Org' })).id;
  nominatim = await startNominatimServer({
    'paris, france': {
      lat: 48.8566,
      lng: 2.3522,
      displayName: 'Paris, Île-de-France, France',
      country: 'FR',
    },
    berlin: { lat: 52.517, lng: 13.3889, displayName: 'Berlin, Germany', country: 'DE' },
    'mid atlantic': { lat: 30, lng: -40, displayName: 'North Atlantic Ocean' },
  });
}, 60_000);

afterAll(async () => {
  await nominatim?.close();
  await db?.end({ timeout: 5 });
  await tdb?.drop();
});

async function errorOf(p: Promise<unknown>): Promise<HubError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof HubError) return err;
    throw err;
  }
  throw new Error('resolved');
}

/** PATCH's `tags` field with this geocoder, then the repo write, as the route does them. */
async function setTags(geocoder: Geocoder, agentId: string, tags: unknown) {
  const field = directorySettingsFields(geocoder).tags as SettingsField;
  const patch = await field(tags);
  return updateAgentSettings(db, agentId, patch);
}

describe('Nominatim-compatible HTTP geocoder', () => {
  const client = () => createNominatimGeocoder({ url: nominatim.url, timeoutMs: 500 });

  it('asks /search for one JSON result with the country, naming itself', async () => {
    const place = await client().geocode('Paris, France');
    expect(place).toEqual({
      lat: 48.8566,
      lng: 2.3522,
      displayName: 'Paris, Île-de-France, France',
      country: 'FR',
    });
    const req = nominatim.requests.at(-1)!;
    expect(req.path).toBe('/geo/search');
    expect(req.params).toMatchObject({
      q: 'Paris, France',
      format: 'jsonv2',
      limit: '1',
      addressdetails: '1',
    });
    expect(req.userAgent).toBe('burrow-hub');
  });

  it('answers null for no result and for a place in no country', async () => {
    expect(await client().geocode('Nowhere Special')).toBeNull();
    expect(await client().geocode('Mid Atlantic')).toBeNull();
  });

  it('is UNAVAILABLE (503) when the service fails, times out or cannot be reached', async () => {
    const broken = await errorOf(client().geocode('broken'));
    expect([broken.code, broken.httpStatus]).toEqual(['UNAVAILABLE', 503]);
    expect(broken.message).toContain('HTTP 500');
    const slow = await errorOf(client().geocode('slow'));
    expect(slow.code).toBe('UNAVAILABLE');
    expect(slow.message).toContain('timed out');
    const closed = createNominatimGeocoder({ url: 'http://127.0.0.1:1/geo', timeoutMs: 500 });
    expect((await errorOf(closed.geocode('Berlin'))).code).toBe('UNAVAILABLE');
  });

  it('stores geocoded location tags with the agent, in tag order', async () => {
    const { agent } = await createAgent(db, { tenantId, name: 'Mapped', visibility: 'public' });
    await setTags(client(), agent.id, '["maps","location:Paris, France","location:Berlin"]');
    expect(await listAgentLocations(db, {}, agent.id)).toEqual([
      {
        tag: 'location:Paris, France',
        lat: 48.8566,
        lng: 2.3522,
        displayName: 'Paris, Île-de-France, France',
        country: 'FR',
        visibility: 'public',
      },
      {
        tag: 'location:Berlin',
        lat: 52.517,
        lng: 13.3889,
        displayName: 'Berlin, Germany',
        country: 'DE',
        visibility: 'public',
      },
    ]);
  });

  it('saves nothing when one address cannot be geocoded (422 naming the tag)', async () => {
    const { agent } = await createAgent(db, { tenantId, name: 'Unmapped', tags: ['old'] });
    const err = await errorOf(
      setTags(client(), agent.id, '["location:Berlin","location:Nowhere Special"]')
    );
    expect([err.code, err.httpStatus]).toEqual(['UNPROCESSABLE', 422]);
    expect(err.data).toEqual({ field: 'tags', tag: 'location:Nowhere Special' });
    expect(err.message).toContain('location:Nowhere Special');
    const unavailable = await errorOf(setTags(client(), agent.id, '["location:broken"]'));
    expect(unavailable.httpStatus).toBe(503);
    const [row] = await db<
      Array<{ tags: string[] }>
    >`select tags from agents where id = ${agent.id}`;
    expect(row?.tags).toEqual(['old']);
    expect(await listAgentLocations(db, {}, agent.id)).toBeNull(); // private: hidden from anonymous
    expect(await listAgentLocations(db, { tenantId }, agent.id)).toEqual([]);
  });
});

describe('offline gazetteer geocoder', () => {
  const gazetteer = createGazetteerGeocoder();

  it('stores the city, its coordinates and ISO country', async () => {
    const { agent } = await createAgent(db, { tenantId, name: 'Offline', visibility: 'public' });
    await setTags(gazetteer, agent.id, ['location:Paris, Texas', 'location:Köln']);
    const stored = await listAgentLocations(db, {}, agent.id);
    expect(stored?.map((l) => [l.tag, l.displayName, l.country])).toEqual([
      ['location:Paris, Texas', 'Paris, TX, United States', 'US'],
      ['location:Köln', 'Köln, Germany', 'DE'],
    ]);
    expect(stored?.[1]).toMatchObject({ lat: 50.93333, lng: 6.95 });
  }, 20_000);

  it('refuses an address it cannot place, and bad tag lists, changing nothing', async () => {
    const { agent } = await createAgent(db, { tenantId, name: 'Offline 2', tags: ['keep'] });
    const err = await errorOf(setTags(gazetteer, agent.id, '["location:Qwxzy Plinth"]'));
    expect(err.code).toBe('UNPROCESSABLE');
    expect(err.data).toEqual({ field: 'tags', tag: 'location:Qwxzy Plinth' });
    const bad: unknown[] = [
      'not json',
      '{"a":1}',
      '[1]',
      JSON.stringify(Array.from({ length: 11 }, (_, i) => `t${i}`)),
      '["location:a","location:b","location:c","location:d"]',
      '["location:  "]',
    ];
    for (const tags of bad) {
      const e = await errorOf(setTags(gazetteer, agent.id, tags));
      expect([e.code, (e.data as { field?: string }).field], String(tags)).toEqual([
        'INVALID_PARAMS',
        'tags',
      ]);
    }
    const [row] = await db<
      Array<{ tags: string[] }>
    >`select tags from agents where id = ${agent.id}`;
    expect(row?.tags).toEqual(['keep']);
  });
});
