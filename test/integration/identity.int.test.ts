// Identity against the real PostgreSQL: tenants, agents and their keys, the authenticator's view
// of those keys (cache, revocation), alias resolution, and the official agents' seeding.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDb,
  migrate,
  type Db,
  OFFICIAL_ALIASES,
  OFFICIAL_TENANT,
  createAgent,
  createTenant,
  getAgent,
  getTenant,
  hashApiKey,
  issueAdminKey,
  listAgents,
  listTenants,
  resolveAgent,
  revokeKey,
  rotateAgentKey,
  softDeleteAgent,
  updateAgentCard,
  updateAgentSettings,
  upsertOfficialAgents,
  type OfficialAgentDef,
} from '../../infra/db/index.js';
import { createAuthenticator, type Authenticator } from '../../gateway/auth/index.js';
import { HubError } from '../../runtime/errors/index.js';
import { silentLogger } from '../../runtime/log/index.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';

let testDb: TestDatabase;
let db: Db;
let auth: Authenticator;
const extraPools: Db[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase('burrow_test_identity');
  db = createDb(testDb.url, { max: 4 });
  await migrate(db);
  auth = createAuthenticator({ sql: db, log: silentLogger });
});
afterAll(async () => {
  auth?.close();
  await Promise.all(extraPools.map((p) => p.end({ timeout: 5 })));
  await db?.end({ timeout: 5 });
  await testDb?.drop();
});

/** The HubError a promise rejects with (fails the test if it resolves or rejects otherwise). */
async function hubError(p: Promise<unknown>): Promise<HubError> {
  const err: unknown = await p.then(
    () => undefined,
    (e: unknown) => e
  );
  expect(err).toBeInstanceOf(HubError);
  return err as HubError;
}

let seq = 0;
const uniqueName = (base: string) => `${base} ${++seq}`;

const ECHO: OfficialAgentDef = {
  id: OFFICIAL_ALIASES.echo,
  alias: 'echo',
  name: 'Echo',
  description: 'Echoes text back',
  category: 'utility',
  tags: ['test'],
  card: { name: 'Echo', skills: [{ id: 'echo', input_modes: ['text/plain'] }] },
};
const SEARCH: OfficialAgentDef = {
  id: OFFICIAL_ALIASES.search,
  alias: 'search',
  name: 'Search',
  description: 'Web search',
};

describe('tenants', () => {
  it('creates a tenant with an id, a slug and verified=false by default', async () => {
    const t = await createTenant(db, { name: 'Acme Corp.' });
    expect(t.id).toMatch(/^ten-[0-9a-f]{12}$/);
    expect(t).toMatchObject({ name: 'Acme Corp.', slug: 'acme-corp', verified: false });
    expect(await getTenant(db, t.id)).toEqual(t);
    expect(await getTenant(db, 'acme-corp')).toEqual(t);
    expect(await getTenant(db, 'no-such-tenant')).toBeNull();
    expect((await listTenants(db)).map((x) => x.id)).toContain(t.id);
  });

  it('refuses a duplicate name with 409 CONFLICT naming `name`', async () => {
    await createTenant(db, { name: 'Dup Inc' });
    const err = await hubError(createTenant(db, { name: 'Dup Inc' }));
    expect(err.code).toBe('CONFLICT');
    expect(err.httpStatus).toBe(409);
    expect(err.data).toEqual({ field: 'name' });
    expect(err.message).toContain('Dup Inc');
  });

  it('makes slugs unique with a numeric suffix, and keeps the official slug and name', async () => {
    const a = await createTenant(db, { name: 'Slug Test!', verified: true });
    const b = await createTenant(db, { name: 'slug  test' });
    const c = await createTenant(db, { name: 'SLUG-TEST' });
    expect([a.slug, b.slug, c.slug]).toEqual(['slug-test', 'slug-test-2', 'slug-test-3']);
    expect(a.verified).toBe(true);
    expect((await createTenant(db, { name: 'Official' })).slug).toBe('official-2');
    expect((await hubError(createTenant(db, { name: 'Burrow' }))).code).toBe('CONFLICT');
    expect((await hubError(createTenant(db, { name: '  ' }))).code).toBe('INVALID_PARAMS');
  });

  it('gives each of several concurrent look-alike tenants its own slug', async () => {
    const made = await Promise.all(
      ['Race Co', 'race co.', 'RACE-CO', 'Race  Co!'].map((name) => createTenant(db, { name }))
    );
    expect(new Set(made.map((t) => t.slug)).size).toBe(4);
  });
});

describe('agents and their keys', () => {
  it('issues a key on creation that authenticates as that agent', async () => {
    const tenant = await createTenant(db, { name: uniqueName('Agents') });
    const { agent, apiKey, webhookSecret } = await createAgent(db, {
      tenantId: tenant.id,
      name: 'Bot',
    });
    expect(agent.id).toMatch(/^agent-[0-9a-f]{12}$/);
    expect(agent).toMatchObject({
      tenantId: tenant.id,
      transport: 'websocket',
      visibility: 'private',
      queueMaxPending: 500,
      queueTtlSeconds: 2592000,
      tags: [],
      card: null,
      webhookSecret: null,
    });
    expect(webhookSecret).toBeUndefined();
    expect(apiKey).toMatch(/^bk_[A-Za-z0-9_-]{43}$/);
    // A key made with its agent holds every scope (issue 28).
    await expect(auth.authenticate(`Bearer ${apiKey}`)).resolves.toEqual({
      kind: 'agent',
      agentId: agent.id,
      tenantId: tenant.id,
      keyId: expect.stringMatching(/^key-/),
      scopes: ['messages', 'discovery', 'manage'],
    });
    // The scheme is case-insensitive.
    await expect(auth.authenticate(`bearer  ${apiKey} `)).resolves.toMatchObject({
      agentId: agent.id,
    });
  });

  it('gives an HTTP agent a webhook secret and keeps its card exactly as given', async () => {
    const tenant = await createTenant(db, { name: uniqueName('Http') });
    const card = { name: 'Hook', snake_key: 1, nested: { a_b: [{ c_d: true }] } };
    const created = await createAgent(db, {
      tenantId: tenant.id,
      name: 'Hook',
      url: 'http://127.0.0.1:9999/a2a',
      visibility: 'public',
      category: 'tools',
      tags: ['x', 'location:Paris'],
      card,
      alias: 'hook',
    });
    expect(created.webhookSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const agent = await getAgent(db, created.agent.id);
    expect(agent).toMatchObject({
      transport: 'http',
      url: 'http://127.0.0.1:9999/a2a',
      webhookSecret: created.webhookSecret,
      visibility: 'public',
      category: 'tools',
      tags: ['x', 'location:Paris'],
      alias: 'hook',
      card,
    });
    const updated = await updateAgentCard(db, created.agent.id, { other_key: 'v' });
    expect(updated.card).toEqual({ other_key: 'v' });
  });

  it('rejects bad input naming the field, and an unknown tenant', async () => {
    const tenant = await createTenant(db, { name: uniqueName('Bad') });
    const cases: [Parameters<typeof createAgent>[1], string][] = [
      [{ tenantId: tenant.id, name: '' }, 'name'],
      [{ tenantId: tenant.id, name: 'x', url: 'ftp://x' }, 'url'],
      [{ tenantId: tenant.id, name: 'x', transport: 'http' }, 'url'],
      [{ tenantId: tenant.id, name: 'x', alias: 'agent-abc' }, 'alias'],
      [
        { tenantId: tenant.id, name: 'x', tags: Array.from({ length: 11 }, (_, i) => `t${i}`) },
        'tags',
      ],
      [{ tenantId: tenant.id, name: 'x', card: [1] }, 'card'],
    ];
    for (const [input, field] of cases) {
      const err = await hubError(createAgent(db, input));
      expect(err.code).toBe('INVALID_PARAMS');
      expect(err.data).toMatchObject({ field });
    }
    expect(
      (await hubError(createAgent(db, { tenantId: 'ten-000000000000', name: 'x' }))).code
    ).toBe('NOT_FOUND');
    await createAgent(db, { tenantId: tenant.id, name: 'a', alias: 'same' });
    const dup = await hubError(createAgent(db, { tenantId: tenant.id, name: 'b', alias: 'same' }));
    expect(dup.code).toBe('CONFLICT');
    // Nothing half-made: the failed create left no agent behind.
    expect((await listAgents(db, tenant.id)).map((a) => a.name)).toEqual(['a']);
  });

  it('updates settings and refuses values outside the limits', async () => {
    const tenant = await createTenant(db, { name: uniqueName('Settings') });
    const { agent } = await createAgent(db, { tenantId: tenant.id, name: 'S' });
    const updated = await updateAgentSettings(db, agent.id, {
      queueMaxPending: 10,
      queueTtlSeconds: 60,
      visibility: 'public',
      category: 'news',
      description: 'hello',
      tags: ['a', 'b'],
    });
    expect(updated).toMatchObject({
      queueMaxPending: 10,
      queueTtlSeconds: 60,
      visibility: 'public',
      category: 'news',
      description: 'hello',
      tags: ['a', 'b'],
    });
    expect(updated.updatedAt.getTime()).toBeGreaterThanOrEqual(agent.updatedAt.getTime());
    expect((await updateAgentSettings(db, agent.id, { category: null })).category).toBeNull();
    const bad = await hubError(updateAgentSettings(db, agent.id, { queueMaxPending: 0 }));
    expect(bad.data).toMatchObject({ field: 'queue_max_pending' });
    const ttl = await hubError(updateAgentSettings(db, agent.id, { queueTtlSeconds: 2592001 }));
    expect(ttl.data).toMatchObject({ field: 'queue_ttl_seconds' });
    const loc = ['location:a', 'location:b', 'location:c', 'location:d'];
    expect((await hubError(updateAgentSettings(db, agent.id, { tags: loc }))).code).toBe(
      'INVALID_PARAMS'
    );
    const missing = await hubError(updateAgentSettings(db, 'agent-000000000000', { tags: [] }));
    expect(missing.code).toBe('AGENT_NOT_FOUND');
  });

  it('never stores a key in clear: only its sha256 and a short prefix', async () => {
    const tenant = await createTenant(db, { name: uniqueName('Clear') });
    const { agent, apiKey } = await createAgent(db, { tenantId: tenant.id, name: 'C' });
    const { key: adminKey } = await issueAdminKey(db, tenant.id);
    const rows = await db`select * from api_keys where tenant_id = ${tenant.id}`;
    expect(rows).toHaveLength(2);
    const dump = JSON.stringify(rows);
    for (const key of [apiKey, adminKey]) {
      expect(dump).not.toContain(key);
      expect(dump).not.toContain(key.slice(10));
    }
    const own = rows.find((r) => r.agentId === agent.id);
    expect(own?.keyHash).toBe(createHash('sha256').update(apiKey).digest('hex'));
    expect(own?.keyHash).toBe(hashApiKey(apiKey));
    expect(own?.prefix).toBe(apiKey.slice(0, 10));
  });
});

describe('authenticate', () => {
  it('refuses a missing, malformed or unknown key with UNAUTHENTICATED saying which', async () => {
    const cases: [string | undefined, RegExp][] = [
      [undefined, /missing Authorization header/],
      ['', /missing Authorization header/],
      ['Basic dXNlcjpwYXNz', /malformed Authorization header/],
      ['Bearer', /malformed Authorization header/],
      ['Bearer a b', /malformed Authorization header/],
      ['Bearer not-a-key', /unknown API key/],
      [`Bearer bk_${'A'.repeat(43)}`, /unknown API key/],
    ];
    for (const [header, message] of cases) {
      const err = await hubError(auth.authenticate(header));
      expect(err.code).toBe('UNAUTHENTICATED');
      expect(err.httpStatus).toBe(401);
      expect(err.message).toMatch(message);
    }
  });

  it('authenticates a tenant admin key as an admin principal', async () => {
    const tenant = await createTenant(db, { name: uniqueName('Admin') });
    const { key } = await issueAdminKey(db, tenant.id);
    await expect(auth.authenticate(`Bearer ${key}`)).resolves.toEqual({
      kind: 'admin',
      tenantId: tenant.id,
      keyId: expect.stringMatching(/^key-/),
      scopes: ['messages', 'discovery', 'manage'],
    });
    expect((await hubError(issueAdminKey(db, 'ten-000000000000'))).code).toBe('NOT_FOUND');
  });

  it('stops accepting a rotated key once its hash is invalidated', async () => {
    const tenant = await createTenant(db, { name: uniqueName('Rotate') });
    const { agent, apiKey: oldKey } = await createAgent(db, { tenantId: tenant.id, name: 'R' });
    await auth.authenticate(`Bearer ${oldKey}`); // now cached
    const rotated = await rotateAgentKey(db, agent.id);
    expect(rotated.revokedKeyHashes).toEqual([hashApiKey(oldKey)]);
    // Until told, this node trusts its cache (for at most cacheTtlMs)…
    await expect(auth.authenticate(`Bearer ${oldKey}`)).resolves.toMatchObject({
      agentId: agent.id,
    });
    // …and the broadcast of the revoked hash ends that at once.
    for (const hash of rotated.revokedKeyHashes) auth.invalidateKeyHash(hash);
    expect((await hubError(auth.authenticate(`Bearer ${oldKey}`))).code).toBe('UNAUTHENTICATED');
    await expect(auth.authenticate(`Bearer ${rotated.key}`)).resolves.toMatchObject({
      kind: 'agent',
      agentId: agent.id,
    });
    expect((await hubError(rotateAgentKey(db, 'agent-000000000000'))).code).toBe('AGENT_NOT_FOUND');
  });

  it('stops accepting a revoked key, and keys of a deleted agent', async () => {
    const tenant = await createTenant(db, { name: uniqueName('Revoke') });
    const { key: adminKey, keyId } = await issueAdminKey(db, tenant.id);
    await auth.authenticate(`Bearer ${adminKey}`);
    const revoked = await revokeKey(db, keyId);
    expect(revoked).toEqual({ keyHash: hashApiKey(adminKey), agentId: null });
    expect(await revokeKey(db, keyId)).toBeNull();
    auth.invalidateKeyHash(hashApiKey(adminKey));
    expect((await hubError(auth.authenticate(`Bearer ${adminKey}`))).code).toBe('UNAUTHENTICATED');

    const { agent, apiKey } = await createAgent(db, { tenantId: tenant.id, name: 'D' });
    await auth.authenticate(`Bearer ${apiKey}`);
    expect(await softDeleteAgent(db, agent.id)).toEqual({ revokedKeyHashes: [hashApiKey(apiKey)] });
    expect(await softDeleteAgent(db, agent.id)).toBeNull();
    auth.invalidateAgent(agent.id);
    expect((await hubError(auth.authenticate(`Bearer ${apiKey}`))).code).toBe('UNAUTHENTICATED');
    expect(await getAgent(db, agent.id)).toBeNull();
    expect(await listAgents(db, tenant.id)).toEqual([]);
  });

  it('answers a burst of the same unknown key with one failure each, then from the cache', async () => {
    const header = `Bearer bk_${'B'.repeat(43)}`;
    const errors = await Promise.all(
      Array.from({ length: 20 }, () => hubError(auth.authenticate(header)))
    );
    expect(errors.every((e) => e.code === 'UNAUTHENTICATED')).toBe(true);
  });
});

describe('resolveAgent', () => {
  it('finds agents by id, own alias and official alias, never by another tenant’s alias', async () => {
    await upsertOfficialAgents(db, [ECHO, SEARCH]);
    const mine = await createTenant(db, { name: uniqueName('Mine') });
    const theirs = await createTenant(db, { name: uniqueName('Theirs') });
    const { agent: own } = await createAgent(db, {
      tenantId: mine.id,
      name: 'Own',
      alias: 'helper',
    });
    const { agent: other } = await createAgent(db, {
      tenantId: theirs.id,
      name: 'Other',
      alias: 'secret',
    });
    // A tenant alias that shadows an official one, for that tenant only.
    const { agent: myEcho } = await createAgent(db, {
      tenantId: mine.id,
      name: 'E',
      alias: 'echo',
    });

    const as = { callerTenantId: mine.id };
    expect((await resolveAgent(db, own.id, as))?.id).toBe(own.id);
    expect((await resolveAgent(db, other.id, as))?.id).toBe(other.id); // ids are global
    expect((await resolveAgent(db, 'helper', as))?.id).toBe(own.id);
    expect((await resolveAgent(db, 'search', as))?.id).toBe('agent-search-official');
    expect((await resolveAgent(db, 'echo', as))?.id).toBe(myEcho.id);
    expect((await resolveAgent(db, 'echo', { callerTenantId: theirs.id }))?.id).toBe(
      'agent-echo-official'
    );
    expect((await resolveAgent(db, 'echo'))?.id).toBe('agent-echo-official');
    expect((await resolveAgent(db, 'agent-echo-official', as))?.transport).toBe('official');
    expect(await resolveAgent(db, 'secret', as)).toBeNull();
    expect(await resolveAgent(db, 'helper', { callerTenantId: theirs.id })).toBeNull();
    expect(await resolveAgent(db, 'nobody', as)).toBeNull();
  });
});

describe('upsertOfficialAgents', () => {
  it('creates the official tenant and public official agents, and is idempotent', async () => {
    await upsertOfficialAgents(db, [ECHO, SEARCH]);
    expect(await upsertOfficialAgents(db, [ECHO, SEARCH])).toBe(0);
    const tenant = await getTenant(db, OFFICIAL_TENANT.slug);
    expect(tenant).toMatchObject({ ...OFFICIAL_TENANT });
    const echo = await getAgent(db, ECHO.id);
    expect(echo).toMatchObject({
      tenantId: OFFICIAL_TENANT.id,
      alias: 'echo',
      transport: 'official',
      visibility: 'public',
      category: 'utility',
      tags: ['test'],
      card: ECHO.card,
    });
    // A changed definition is applied; operator queue settings survive a re-seed.
    await updateAgentSettings(db, ECHO.id, { queueMaxPending: 42 });
    expect(await upsertOfficialAgents(db, [{ ...ECHO, description: 'v2' }, SEARCH])).toBe(1);
    expect(await getAgent(db, ECHO.id)).toMatchObject({ description: 'v2', queueMaxPending: 42 });
  });

  it('applies once when two nodes seed at the same moment', async () => {
    const a = createDb(testDb.url, { max: 2 });
    const b = createDb(testDb.url, { max: 2 });
    extraPools.push(a, b);
    const defs: OfficialAgentDef[] = Object.entries(OFFICIAL_ALIASES).map(([alias, id]) => ({
      id,
      alias,
      name: alias,
      description: `the ${alias} agent`,
    }));
    const results = await Promise.all([
      upsertOfficialAgents(a, defs),
      upsertOfficialAgents(b, defs),
    ]);
    expect(results.every((n) => n >= 0)).toBe(true);
    const rows = await db`select id from agents where tenant_id = ${OFFICIAL_TENANT.id}`;
    expect(rows).toHaveLength(25);
    expect(await upsertOfficialAgents(db, defs)).toBe(0);
  });

  it('moves and swaps aliases between official agents in one seed', async () => {
    const a: OfficialAgentDef = {
      id: 'agent-swap-a',
      alias: 'swap-one',
      name: 'A',
      description: '',
    };
    const b: OfficialAgentDef = {
      id: 'agent-swap-b',
      alias: 'swap-two',
      name: 'B',
      description: '',
    };
    await upsertOfficialAgents(db, [a, b]);
    await upsertOfficialAgents(db, [
      { ...a, alias: 'swap-two' },
      { ...b, alias: 'swap-one' },
    ]);
    expect((await resolveAgent(db, 'swap-one'))?.id).toBe(b.id);
    expect((await resolveAgent(db, 'swap-two'))?.id).toBe(a.id);
    // Only b is seeded now, with a's old alias: a keeps its row but gives the alias up.
    await upsertOfficialAgents(db, [{ ...b, alias: 'swap-two' }]);
    expect((await resolveAgent(db, 'swap-two'))?.id).toBe(b.id);
    expect((await getAgent(db, a.id))?.alias).toBeNull();
  });

  it('lists all 25 official aliases of the spec', () => {
    expect(Object.keys(OFFICIAL_ALIASES)).toHaveLength(25);
    expect(OFFICIAL_ALIASES['rfp-hunter']).toBe('agent-rfp-hunter');
    expect(OFFICIAL_ALIASES.concierge).toBe('agent-concierge-official');
  });

  it('refuses an alias that the spec gives to another id', async () => {
    const err = await hubError(upsertOfficialAgents(db, [{ ...ECHO, alias: 'search' }]));
    expect(err.code).toBe('INVALID_PARAMS');
  });
});
