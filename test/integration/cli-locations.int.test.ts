// `burrow agents create|update --tag location:<address>` on a real PostgreSQL: the tags are
// geocoded as PATCH /api/agents/:agentId does, with either geocoder the hub can use (a local
// Nominatim-like server, and the offline gazetteer); an address that names no place fails naming
// the tag and saves nothing. The program runs in-process with the geocoder infra/geo builds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommanderError } from 'commander';
import { buildProgram, type CliContext } from '../../infra/cli/index.js';
import {
  createDb,
  createTenant,
  getAgent,
  listAgentLocations,
  migrate,
  nearbyAgents,
  type Db,
} from '../../infra/db/index.js';
import { createGeocoder, type Geocoder } from '../../infra/geo/index.js';
import { isHubError } from '../../runtime/errors/index.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { startNominatimServer, type NominatimServer } from '../support/nominatim-server.js';

let testDb: TestDatabase;
let db: Db;
let geo: NominatimServer;
let tenantId: string;

const LYON = { lat: 45.764, lng: 4.8357, displayName: 'Lyon, France', country: 'FR' };

/** Run `burrow <args>` in-process with `geocoder`; resolves with what it printed on stdout. */
async function burrow(geocoder: Geocoder, args: string[]): Promise<string> {
  const out: string[] = [];
  const ctx: CliContext = {
    db: () => Promise.resolve(db),
    notify: () => Promise.resolve(),
    fetchCard: () => Promise.reject(new Error('no card fetching in this test')),
    geocoder,
    io: { out: (line) => void out.push(line), err: () => undefined },
  };
  await buildProgram(ctx).parseAsync(['node', 'burrow', ...args]);
  return out.join('\n');
}

/** The error `burrow <args>` fails with. */
async function failure(geocoder: Geocoder, args: string[]): Promise<unknown> {
  const err = await burrow(geocoder, args).then(
    () => undefined,
    (e: unknown) => e
  );
  expect(err).toBeDefined();
  expect(err).not.toBeInstanceOf(CommanderError);
  return err;
}

const locationsOf = async (agentId: string) =>
  ((await listAgentLocations(db, { tenantId }, agentId)) ?? []).map((l) => ({
    tag: l.tag,
    country: l.country,
    lat: l.lat,
  }));

beforeAll(async () => {
  testDb = await createTestDatabase('burrow_test_cli_geo');
  db = createDb(testDb.url, { max: 2 });
  await migrate(db);
  geo = await startNominatimServer({ lyon: LYON });
  tenantId = (await createTenant(db, { name: 'Geo Org' })).id;
});

afterAll(async () => {
  await db?.end({ timeout: 5 });
  await geo?.close();
  await testDb?.drop();
});

describe('burrow agents --tag location:<address>', () => {
  const service = () => createGeocoder({ url: geo.url, timeoutMs: 2_000 });
  const gazetteer = () => createGeocoder({ url: undefined, timeoutMs: 2_000 });

  it('geocodes the location tags of a new agent with the configured service', async () => {
    const printed = await burrow(service(), [
      'agents',
      'create',
      '--tenant',
      tenantId,
      '--name',
      'kayaks',
      '--public',
      '--tag',
      'location:Lyon',
      '--tag',
      'kayak',
      '--json',
    ]);
    const { agentId } = JSON.parse(printed) as { agentId: string };
    expect(await locationsOf(agentId)).toEqual([
      { tag: 'location:Lyon', country: 'FR', lat: 45.764 },
    ]);
    expect(geo.requests.map((r) => r.params.q)).toContain('Lyon');
    // The stored place is what nearby searches find.
    const near = await nearbyAgents(db, {}, { ...LYON, radiusKm: 1, limit: 20, offset: 0 });
    expect(near.agents.map((a) => a.id)).toEqual([agentId]);
    expect(near.agents[0]!.location).toMatchObject({ name: 'Lyon, France', country: 'FR' });
  });

  it('uses the offline gazetteer when no service is configured', async () => {
    const printed = await burrow(gazetteer(), [
      'agents',
      'create',
      '--tenant',
      tenantId,
      '--name',
      'bakery',
      '--tag',
      'location:Paris, France',
      '--json',
    ]);
    const { agentId } = JSON.parse(printed) as { agentId: string };
    const [paris] = await locationsOf(agentId);
    expect(paris).toMatchObject({ tag: 'location:Paris, France', country: 'FR' });
    expect(paris!.lat).toBeCloseTo(48.85, 1);
  });

  it('refuses an address that names no place, naming the tag, and creates nothing', async () => {
    const before = await db`select count(*)::int as n from agents where tenant_id = ${tenantId}`;
    const err = await failure(service(), [
      'agents',
      'create',
      '--tenant',
      tenantId,
      '--name',
      'nowhere',
      '--tag',
      'location:Atlantis',
    ]);
    expect(isHubError(err) && err.code).toBe('UNPROCESSABLE');
    expect((err as Error).message).toContain('"location:Atlantis"');
    const after = await db`select count(*)::int as n from agents where tenant_id = ${tenantId}`;
    expect(after).toEqual(before);
  });

  it('geocodes on update, keeps everything when one address fails, and clears with the tags', async () => {
    const printed = await burrow(service(), [
      'agents',
      'create',
      '--tenant',
      tenantId,
      '--name',
      'mover',
      '--json',
    ]);
    const { agentId } = JSON.parse(printed) as { agentId: string };
    await burrow(service(), ['agents', 'update', '--agent', agentId, '--tag', 'location:lyon']);
    expect(await locationsOf(agentId)).toEqual([
      { tag: 'location:lyon', country: 'FR', lat: 45.764 },
    ]);

    const err = await failure(service(), [
      'agents',
      'update',
      '--agent',
      agentId,
      '--tag',
      'location:Lyon',
      '--tag',
      'location:Atlantis',
      '--description',
      'moved',
    ]);
    expect((err as Error).message).toContain('"location:Atlantis"');
    const agent = await getAgent(db, agentId);
    expect(agent?.tags).toEqual(['location:lyon']);
    expect(agent?.description).toBe('');
    expect(await locationsOf(agentId)).toEqual([
      { tag: 'location:lyon', country: 'FR', lat: 45.764 },
    ]);

    await burrow(service(), ['agents', 'update', '--agent', agentId, '--clear-tags']);
    expect(await locationsOf(agentId)).toEqual([]);
  });

  it('names the tag when the address part is empty', async () => {
    const err = await failure(service(), [
      'agents',
      'create',
      '--tenant',
      tenantId,
      '--name',
      'blank',
      '--tag',
      'location:  ',
    ]);
    expect(isHubError(err) && err.code).toBe('INVALID_PARAMS');
    expect((err as Error).message).toContain('tags');
  });
});
