// The crm agent through the running hub: every action as JSON and its errors, meta:search over
// numbers, dates and strings with exact result sets, ranking by meaning with the local embedder,
// plain-language requests, and one tenant's CRM hidden from every other tenant (forged fields or not).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startAgentHub, type AgentHub, type Answer } from '../support/official-agents.js';
import { forgedEnvelope } from '../support/test-hub.js';

interface EntityData {
  id: string;
  type: string;
  name: string;
  description: string;
  metadata: Record<string, string | number | boolean>;
  metadata_types: Record<string, string>;
  created_by: string;
  updated_by: string;
}
interface FullEntity extends EntityData {
  links: Array<{
    relation: string;
    direction: 'in' | 'out';
    entity: { id: string; type: string; name: string };
  }>;
  interactions: Array<{ kind: string; text: string; occurred_at: string }>;
  interactions_total: number;
}

const JSON_OUT = { accept: ['application/json'] };
const ENT_ID = /^crm_ent_[0-9a-f]{16}$/;

let h: AgentHub;

beforeAll(async () => {
  h = await startAgentHub();
});

afterAll(async () => {
  await h?.close();
});

/** A fresh tenant with one agent: every test starts from an empty CRM. */
async function freshTenant(name: string): Promise<{ tenantId: string; id: string; key: string }> {
  const tenantId = await h.tenant(`crm-${name}`);
  return { tenantId, ...(await h.agent(tenantId, `${name}-agent`)) };
}

function crm(
  key: string,
  body: string | Record<string, unknown>,
  o: Parameters<typeof ask>[4] = {}
): Promise<Answer> {
  return ask(h.url, key, 'crm', body, o);
}

async function ok<T>(
  key: string,
  body: Record<string, unknown>,
  o: Parameters<typeof ask>[4] = {}
): Promise<T> {
  const a = await crm(key, body, { ...JSON_OUT, ...o });
  expect(a.error).toBeUndefined();
  expect(a.state, a.statusText).toBe('completed');
  return a.data as T;
}

async function upsert(key: string, body: Record<string, unknown>): Promise<EntityData> {
  return (await ok<{ entity: EntityData }>(key, { action: 'entity:upsert', ...body })).entity;
}

async function get(key: string, entity: string): Promise<FullEntity> {
  return (await ok<{ entity: FullEntity }>(key, { action: 'entity:get', entity })).entity;
}

function failedWith(a: Answer, pattern: RegExp): void {
  expect(a.error).toBeUndefined();
  expect(a.state).toBe('failed');
  expect(a.statusText).toMatch(pattern);
}

describe('entity:upsert', () => {
  it('creates an entity with typed metadata, recorded as created by the sender', async () => {
    const t = await freshTenant('upsert-create');
    const a = await crm(
      t.key,
      {
        action: 'entity:upsert',
        type: 'deal',
        name: 'Big Deal',
        description: 'Enterprise licence for 400 seats',
        metadata: {
          probability: 60,
          close_date: '2027-03-01',
          deal_size_estimate: '$50,000',
          seats: 400,
          hot: true,
        },
      },
      JSON_OUT
    );
    expect(a.state, a.statusText).toBe('completed');
    const { created, entity } = a.data as { created: boolean; entity: EntityData };
    expect(created).toBe(true);
    expect(entity.id).toMatch(ENT_ID);
    expect(entity).toMatchObject({
      type: 'deal',
      name: 'Big Deal',
      created_by: t.id,
      updated_by: t.id,
    });
    expect(entity.metadata).toEqual({
      probability: 0.6,
      close_date: '2027-03-01',
      deal_size_estimate: 50000,
      seats: 400,
      hot: true,
    });
    expect(entity.metadata_types).toEqual({
      probability: 'number',
      close_date: 'date',
      deal_size_estimate: 'number',
      seats: 'number',
      hot: 'boolean',
    });
    const text = await crm(t.key, { action: 'entity:upsert', type: 'deal', name: 'Other deal' });
    expect(text.text).toMatch(/^✅ Created 💼 Other deal \(deal, crm_ent_[0-9a-f]{16}\)/);
    expect(text.data).toBeUndefined();
  });

  it('updates by the natural key (tenant, type, name ignoring case); organization is organisation', async () => {
    const t = await freshTenant('upsert-key');
    const first = await upsert(t.key, {
      type: 'organisation',
      name: 'Solaris',
      description: 'solar panels',
      metadata: { employees: 40 },
    });
    const again = await ok<{ created: boolean; entity: EntityData }>(t.key, {
      action: 'entity:upsert',
      type: 'Organization',
      name: 'SOLARIS',
      metadata: { founded: '2011-05-04' },
    });
    expect(again.created).toBe(false);
    expect(again.entity.id).toBe(first.id);
    expect(again.entity.name).toBe('SOLARIS');
    // Description kept when not given; metadata merged.
    expect(again.entity.description).toBe('solar panels');
    expect(again.entity.metadata).toEqual({ employees: 40, founded: '2011-05-04' });
    // Same name, other type: another entity.
    const product = await upsert(t.key, { type: 'product', name: 'Solaris' });
    expect(product.id).not.toBe(first.id);
    // null removes a key.
    const removed = await upsert(t.key, { id: first.id, metadata: { employees: null } });
    expect(removed.metadata).toEqual({ founded: '2011-05-04' });
  });

  it('updates by id, renames, and refuses a rename onto another entity', async () => {
    const t = await freshTenant('upsert-id');
    const a = await upsert(t.key, { type: 'person', name: 'Ada Byron' });
    await upsert(t.key, { type: 'person', name: 'Charles Babbage' });
    const renamed = await upsert(t.key, {
      id: a.id,
      name: 'Ada Lovelace',
      description: 'mathematician',
    });
    expect(renamed).toMatchObject({
      id: a.id,
      type: 'person',
      name: 'Ada Lovelace',
      description: 'mathematician',
    });
    failedWith(
      await crm(t.key, { action: 'entity:upsert', id: a.id, name: 'charles babbage' }),
      /another person is already named "charles babbage"/
    );
  });

  it('re-embeds when the description changes', async () => {
    const t = await freshTenant('upsert-embed');
    const e = await upsert(t.key, {
      type: 'organisation',
      name: 'Acme',
      description: 'bakery selling sourdough bread',
    });
    await upsert(t.key, {
      type: 'organisation',
      name: 'Zenith',
      description: 'wind turbine maintenance',
    });
    const before = await ok<{ results: EntityData[] }>(t.key, {
      action: 'entity:search',
      query: 'sourdough bread bakery',
    });
    expect(before.results[0]?.id).toBe(e.id);
    await upsert(t.key, { id: e.id, description: 'wind farm turbine blades and turbine repair' });
    const after = await ok<{ results: EntityData[] }>(t.key, {
      action: 'entity:search',
      query: 'sourdough bread bakery',
    });
    expect(after.results.map((r) => r.id)).not.toContain(e.id);
    const wind = await ok<{ results: EntityData[] }>(t.key, {
      action: 'entity:search',
      query: 'turbine blades repair',
    });
    expect(wind.results[0]?.id).toBe(e.id);
  });

  it('names the field the caller must fix', async () => {
    const t = await freshTenant('upsert-errors');
    failedWith(
      await crm(t.key, { action: 'entity:upsert', name: 'Ada' }),
      /entity:upsert: `type` is required/
    );
    failedWith(
      await crm(t.key, { action: 'entity:upsert', type: 'person' }),
      /entity:upsert: `name` is required/
    );
    failedWith(await crm(t.key, { action: 'entity:upsert', type: 'person', name: 42 }), /`name`/);
    failedWith(
      await crm(t.key, { action: 'entity:upsert', type: '9 lives', name: 'Cat' }),
      /`type`: "9 lives" is not a type/
    );
    failedWith(
      await crm(t.key, {
        action: 'entity:upsert',
        type: 'person',
        name: 'Ada',
        metadata: { email: 'ada-at-example' },
      }),
      /`metadata.email`: email must be an email address/
    );
    failedWith(
      await crm(t.key, {
        action: 'entity:upsert',
        type: 'deal',
        name: 'D',
        metadata: { probability: 150 },
      }),
      /`metadata.probability`: probability must be a number from 0 to 1/
    );
    failedWith(
      await crm(t.key, {
        action: 'entity:upsert',
        type: 'deal',
        name: 'D',
        metadata: { close_date: 'soon' },
      }),
      /`metadata.close_date`: close_date must be a date/
    );
    failedWith(
      await crm(t.key, { action: 'entity:upsert', id: 'crm_ent_00000000deadbeef', name: 'X' }),
      /`id`: unknown entity crm_ent_00000000deadbeef/
    );
    // Nothing was half-written by the failures.
    const list = await ok<{ results: EntityData[] }>(t.key, {
      action: 'meta:search',
      type: 'person',
      filters: [],
    });
    expect(list.results).toEqual([]);
  });
});

describe('entity:get, link:create, interaction:log', () => {
  it('shows metadata, links both ways and interactions newest first', async () => {
    const t = await freshTenant('get');
    const ada = await upsert(t.key, {
      type: 'person',
      name: 'Ada Lovelace',
      metadata: { email: 'ada@example.com' },
    });
    const org = await upsert(t.key, { type: 'organisation', name: 'Analytical Engines' });
    const rival = await upsert(t.key, { type: 'organisation', name: 'Difference Engines' });
    const link = await ok<{
      link: {
        id: string;
        relation: string;
        created: boolean;
        from: { id: string };
        to: { id: string };
      };
    }>(t.key, { action: 'link:create', from: 'Ada Lovelace', to: org.id, relation: 'works_at' });
    expect(link.link).toMatchObject({
      relation: 'works_at',
      created: true,
      from: { id: ada.id },
      to: { id: org.id },
    });
    const dup = await ok<{ link: { id: string; created: boolean } }>(t.key, {
      action: 'link:create',
      from: ada.id,
      to: 'analytical engines',
      relation: 'works_at',
    });
    expect(dup.link).toEqual(expect.objectContaining({ id: link.link.id, created: false }));
    await ok(t.key, {
      action: 'link:create',
      from: rival.id,
      to: org.id,
      relation: 'Competes With',
    });
    for (const [kind, text, at] of [
      ['call', 'discussed pricing', '2026-03-02T10:00:00Z'],
      ['email', 'sent the proposal', '2026-03-05T09:30:00Z'],
      ['meeting', 'kickoff', '2026-03-01'],
    ] as const) {
      const a = await ok<{
        interaction: { kind: string; occurred_at: string; entity: { id: string } };
      }>(t.key, {
        action: 'interaction:log',
        entity: 'Ada Lovelace',
        kind,
        text,
        occurred_at: at,
      });
      expect(a.interaction).toMatchObject({ kind, entity: { id: ada.id } });
    }
    await ok(t.key, {
      action: 'interaction:log',
      entity: ada.id,
      kind: 'note',
      summary: 'prefers email',
      occurred_at: '2026-02-01T00:00:00+02:00',
    });

    const got = await get(t.key, ada.id);
    expect(got).toMatchObject({
      id: ada.id,
      name: 'Ada Lovelace',
      metadata: { email: 'ada@example.com' },
    });
    expect(got.links).toEqual([
      expect.objectContaining({
        relation: 'works_at',
        direction: 'out',
        entity: { id: org.id, type: 'organisation', name: 'Analytical Engines' },
      }),
    ]);
    expect(got.interactions.map((i) => [i.kind, i.text, i.occurred_at])).toEqual([
      ['email', 'sent the proposal', '2026-03-05T09:30:00.000Z'],
      ['call', 'discussed pricing', '2026-03-02T10:00:00.000Z'],
      ['meeting', 'kickoff', '2026-03-01T00:00:00.000Z'],
      ['note', 'prefers email', '2026-01-31T22:00:00.000Z'],
    ]);
    expect(got.interactions_total).toBe(4);

    const orgView = await get(t.key, 'ANALYTICAL ENGINES');
    expect(orgView.links.map((l) => [l.direction, l.relation, l.entity.name]).sort()).toEqual([
      ['in', 'competes_with', 'Difference Engines'],
      ['in', 'works_at', 'Ada Lovelace'],
    ]);

    const text = await crm(t.key, { action: 'entity:get', entity: 'Ada Lovelace' });
    expect(text.text).toContain('👤 Ada Lovelace · person');
    expect(text.text).toContain('• email: ada@example.com');
    expect(text.text).toMatch(/works_at → 🏢 Analytical Engines \(organisation, crm_ent_/);
    expect(text.text.indexOf('sent the proposal')).toBeLessThan(
      text.text.indexOf('discussed pricing')
    );
  });

  it('answers unknown and ambiguous entities with what to fix', async () => {
    const t = await freshTenant('get-errors');
    const p = await upsert(t.key, { type: 'product', name: 'Nova' });
    await upsert(t.key, { type: 'organisation', name: 'Nova' });
    failedWith(
      await crm(t.key, { action: 'entity:get', entity: 'crm_ent_0123456789abcdef' }),
      /`entity`: unknown entity crm_ent_0123456789abcdef/
    );
    failedWith(
      await crm(t.key, { action: 'entity:get', entity: 'Nobody' }),
      /`entity`: unknown entity "Nobody"/
    );
    failedWith(await crm(t.key, { action: 'entity:get' }), /`entity` is required/);
    failedWith(
      await crm(t.key, { action: 'entity:get', entity: 'nova' }),
      /"nova" names 2 entities .*give the id or a type/
    );
    expect(
      (
        await ok<{ entity: FullEntity }>(t.key, {
          action: 'entity:get',
          entity: 'nova',
          type: 'product',
        })
      ).entity.id
    ).toBe(p.id);
    expect(
      (await ok<{ entity: FullEntity }>(t.key, { action: 'entity:get', id: p.id })).entity.id
    ).toBe(p.id);
  });

  it('link:create and interaction:log name the field at fault', async () => {
    const t = await freshTenant('link-errors');
    const ada = await upsert(t.key, { type: 'person', name: 'Ada' });
    failedWith(
      await crm(t.key, {
        action: 'link:create',
        from: 'Ada',
        to: 'Nowhere Inc',
        relation: 'works_at',
      }),
      /`to`: unknown entity "Nowhere Inc"/
    );
    failedWith(
      await crm(t.key, { action: 'link:create', from: 'Ghost', to: 'Ada', relation: 'knows' }),
      /`from`: unknown entity "Ghost"/
    );
    failedWith(
      await crm(t.key, { action: 'link:create', from: 'Ada', to: 'Ada', relation: 'knows' }),
      /same entity/
    );
    failedWith(
      await crm(t.key, { action: 'link:create', from: 'Ada', to: 'Ada', relation: '!!' }),
      /`relation`/
    );
    failedWith(
      await crm(t.key, { action: 'link:create', from: 'Ada', to: 'Ada' }),
      /`relation` is required/
    );
    failedWith(
      await crm(t.key, { action: 'interaction:log', entity: 'Ada', kind: 'fax', text: 'x' }),
      /interaction:log: `kind`/
    );
    failedWith(
      await crm(t.key, { action: 'interaction:log', entity: 'Ada', kind: 'call' }),
      /`text` is required/
    );
    failedWith(
      await crm(t.key, {
        action: 'interaction:log',
        entity: 'Ada',
        kind: 'call',
        text: 'x',
        occurred_at: 'yesterday',
      }),
      /`occurred_at` must be an ISO 8601/
    );
    failedWith(
      await crm(t.key, { action: 'interaction:log', entity: 'Bob', kind: 'call', text: 'x' }),
      /`entity`: unknown entity "Bob"/
    );
    expect((await get(t.key, ada.id)).interactions_total).toBe(0);
  });
});

describe('meta:set', () => {
  it('stores typed values, validates well-known keys, and removes with null', async () => {
    const t = await freshTenant('meta-set');
    const d = await upsert(t.key, { type: 'deal', name: 'Big Deal' });
    const set = async (key: string, value: unknown) =>
      ok<{ key: string; value: unknown; kind: string }>(t.key, {
        action: 'meta:set',
        entity: 'Big Deal',
        key,
        value,
      });
    expect(await set('probability', 0.6)).toMatchObject({
      key: 'probability',
      value: 0.6,
      kind: 'number',
    });
    expect(await set('Probability', '75%')).toMatchObject({
      key: 'probability',
      value: 0.75,
      kind: 'number',
    });
    expect(await set('close date', '2027-01-15')).toMatchObject({
      key: 'close_date',
      value: '2027-01-15',
      kind: 'date',
    });
    expect(await set('next_step_at', '2026-12-01T09:00:00+01:00')).toMatchObject({
      value: '2026-12-01T08:00:00.000Z',
      kind: 'datetime',
    });
    expect(await set('stage', 'negotiation')).toMatchObject({
      value: 'negotiation',
      kind: 'string',
    });
    expect(await set('signed', false)).toMatchObject({ value: false, kind: 'boolean' });
    expect(
      (
        await ok<{ removed: boolean }>(t.key, {
          action: 'meta:set',
          entity: d.id,
          key: 'signed',
          value: null,
        })
      ).removed
    ).toBe(true);
    expect((await get(t.key, d.id)).metadata).toEqual({
      probability: 0.75,
      close_date: '2027-01-15',
      next_step_at: '2026-12-01T08:00:00.000Z',
      stage: 'negotiation',
    });
    const text = await crm(t.key, {
      action: 'meta:set',
      entity: 'Big Deal',
      key: 'probability',
      value: 0.5,
    });
    expect(text.text).toMatch(
      /✅ 💼 Big Deal \(deal, crm_ent_[0-9a-f]{16}\): probability = 50% \(number\)/
    );

    const p = await upsert(t.key, { type: 'person', name: 'Ada' });
    failedWith(
      await crm(t.key, { action: 'meta:set', entity: p.id, key: 'email', value: 'ada at example' }),
      /meta:set: `value`: email must be an email address/
    );
    failedWith(
      await crm(t.key, { action: 'meta:set', entity: p.id, key: 'email', value: 7 }),
      /email must be an email address/
    );
    failedWith(
      await crm(t.key, { action: 'meta:set', entity: 'Ghost', key: 'stage', value: 'x' }),
      /`entity`: unknown entity "Ghost"/
    );
    failedWith(
      await crm(t.key, { action: 'meta:set', entity: p.id, key: '1st', value: 'x' }),
      /`key` is a letter/
    );
    failedWith(
      await crm(t.key, { action: 'meta:set', entity: p.id, key: 'stage' }),
      /`value`: a value is required/
    );
  });
});

describe('meta:search', () => {
  let key: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    key = (await freshTenant('meta-search')).key;
    const deals = [
      [
        'D1',
        { probability: 0.2, close_date: '2026-12-01', stage: 'lost', deal_size_estimate: 1000 },
      ],
      [
        'D2',
        {
          probability: 0.5,
          close_date: '2026-12-31',
          stage: 'negotiation',
          deal_size_estimate: 5000,
        },
      ],
      [
        'D3',
        { probability: 0.8, close_date: '2027-01-01', stage: 'Won', deal_size_estimate: 20000 },
      ],
      ['D4', { probability: 0.5, close_date: '2027-06-30', stage: 'proposal' }],
      ['D5', {}],
    ] as const;
    for (const [name, metadata] of deals)
      ids[name] = (await upsert(key, { type: 'deal', name, metadata })).id;
    // Another type with the same keys must not appear in deal searches.
    await upsert(key, {
      type: 'product',
      name: 'P1',
      metadata: { probability: 0.9, stage: 'won' },
    });
  });

  async function names(
    filters: Array<{ key: string; op: string; value: unknown }>,
    type = 'deal'
  ): Promise<string[]> {
    const d = await ok<{ results: EntityData[] }>(key, { action: 'meta:search', type, filters });
    return d.results.map((r) => r.name);
  }

  it.each([
    ['gte', 0.5, ['D2', 'D3', 'D4']],
    ['gt', 0.5, ['D3']],
    ['lte', 0.5, ['D1', 'D2', 'D4']],
    ['lt', 0.5, ['D1']],
    ['eq', 0.5, ['D2', 'D4']],
  ])('numbers: probability %s %s', async (op, value, expected) => {
    expect(await names([{ key: 'probability', op, value }])).toEqual(expected);
  });

  it.each([
    ['lt', '2027-01-01', ['D1', 'D2']],
    ['lte', '2026-12-31', ['D1', 'D2']],
    ['gte', '2027-01-01', ['D3', 'D4']],
    ['gt', '2027-01-01', ['D4']],
    ['eq', '2026-12-31', ['D2']],
  ])('dates: close_date %s %s', async (op, value, expected) => {
    expect(await names([{ key: 'close_date', op, value }])).toEqual(expected);
  });

  it.each([
    ['eq', 'won', ['D3']],
    ['gte', 'n', ['D2', 'D3', 'D4']],
    ['lt', 'n', ['D1']],
    ['gt', 'proposal', ['D3']],
    ['lte', 'lost', ['D1']],
  ])('strings (ignoring case): stage %s %s', async (op, value, expected) => {
    expect(await names([{ key: 'stage', op, value }])).toEqual(expected);
  });

  it('combines filters, reads "60%" and numeric strings, and lists all of a type without filters', async () => {
    expect(
      await names([
        { key: 'probability', op: 'gte', value: 0.5 },
        { key: 'close_date', op: 'lt', value: '2027-01-01' },
      ])
    ).toEqual(['D2']);
    expect(await names([{ key: 'probability', op: 'gte', value: '60%' }])).toEqual(['D3']);
    expect(await names([{ key: 'deal_size_estimate', op: 'gte', value: '5000' }])).toEqual([
      'D2',
      'D3',
    ]);
    expect(await names([])).toEqual(['D1', 'D2', 'D3', 'D4', 'D5']);
    expect(await names([{ key: 'stage', op: 'eq', value: 'won' }], 'product')).toEqual(['P1']);
    const text = await crm(key, {
      action: 'meta:search',
      type: 'deal',
      filters: [{ key: 'probability', op: 'gt', value: 0.5 }],
    });
    expect(text.text).toMatch(
      /^🔎 1 deal entity where probability > 0\.5\n• 💼 D3 \(deal, crm_ent_[0-9a-f]{16}\) · probability: 80%$/
    );
  });

  it('refuses unknown ops and values that do not fit, naming the filter', async () => {
    failedWith(
      await crm(key, {
        action: 'meta:search',
        type: 'deal',
        filters: [{ key: 'probability', op: 'between', value: 1 }],
      }),
      /meta:search: `filters\[0\]\.op`: unknown op "between"; use one of eq, gt, gte, lt, lte/
    );
    failedWith(
      await crm(key, {
        action: 'meta:search',
        type: 'deal',
        filters: [
          { key: 'stage', op: 'eq', value: 'won' },
          { key: 'probability', op: 'gte', value: 'high' },
        ],
      }),
      /`filters\[1\]\.value`: probability compares a number/
    );
    failedWith(
      await crm(key, {
        action: 'meta:search',
        type: 'deal',
        filters: [{ key: 'close_date', op: 'lt', value: 2027 }],
      }),
      /`filters\[0\]\.value`: close_date compares a date/
    );
    failedWith(
      await crm(key, {
        action: 'meta:search',
        type: 'deal',
        filters: [{ key: 'stage', op: 'gt', value: 3 }],
      }),
      /`filters\[0\]\.value`: stage holds strings in this CRM/
    );
    failedWith(
      await crm(key, { action: 'meta:search', filters: [] }),
      /meta:search: `type` is required/
    );
    failedWith(
      await crm(key, {
        action: 'meta:search',
        type: 'deal',
        filters: [{ key: 'stage', op: 'eq' }],
      }),
      /`filters\.0\.value`: a value is required/
    );
  });
});

describe('entity:search', () => {
  it('ranks by meaning of name and description, filters by type, and honours limit', async () => {
    const t = await freshTenant('search');
    const seed = [
      ['organisation', 'Helios Energy', 'installs rooftop solar panels and home batteries'],
      ['organisation', 'Bread & Co', 'artisan bakery selling sourdough bread'],
      ['organisation', 'Ledger Works', 'accounting software for small businesses'],
      ['organisation', 'Wave Freight', 'container shipping and port logistics'],
      ['person', 'Sunny Sol', 'consultant for solar panel installations'],
      ['product', 'Sun Roof Kit', 'solar panel kit for rooftops'],
    ] as const;
    const byName: Record<string, string> = {};
    for (const [type, name, description] of seed)
      byName[name] = (await upsert(t.key, { type, name, description })).id;

    const all = await ok<{ results: Array<EntityData & { score: number }> }>(t.key, {
      action: 'entity:search',
      query: 'sourdough bakery',
    });
    expect(all.results[0]?.id).toBe(byName['Bread & Co']);
    const scores = all.results.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);

    const orgs = await ok<{ results: EntityData[] }>(t.key, {
      action: 'entity:search',
      query: 'solar panels rooftop',
      type: 'organization',
    });
    expect(orgs.results[0]?.id).toBe(byName['Helios Energy']);
    expect(orgs.results.every((r) => r.type === 'organisation')).toBe(true);

    const accounting = await ok<{ results: EntityData[] }>(t.key, {
      action: 'entity:search',
      query: 'accounting software',
      limit: 1,
    });
    expect(accounting.results.map((r) => r.id)).toEqual([byName['Ledger Works']]);

    const text = await crm(t.key, { action: 'entity:search', query: 'container shipping' });
    expect(text.text).toMatch(
      /^🔍 \d+ entities for "container shipping" \(best first\)\n1\. 🏢 Wave Freight/
    );

    failedWith(await crm(t.key, { action: 'entity:search' }), /entity:search: `query` is required/);
    failedWith(await crm(t.key, { action: 'entity:search', query: 'x', limit: 0 }), /`limit`/);
  });
});

describe('plain language', () => {
  it('maps each request to its action', async () => {
    const t = await freshTenant('nl');
    const add = await crm(
      t.key,
      'Add person Ada Lovelace, email Ada@Example.com, works at Analytical Engines'
    );
    expect(add.state, add.statusText).toBe('completed');
    expect(add.text).toMatch(/✅ Created 👤 Ada Lovelace/);
    expect(add.text).toMatch(/✅ Linked: 👤 Ada Lovelace .*—works_at→ 🏢 Analytical Engines/);
    const ada = await get(t.key, 'Ada Lovelace');
    expect(ada.metadata).toEqual({ email: 'ada@example.com' });
    expect(ada.links.map((l) => [l.relation, l.entity.type, l.entity.name])).toEqual([
      ['works_at', 'organisation', 'Analytical Engines'],
    ]);

    expect(
      (
        await crm(
          t.key,
          'Add organisation Helios: installs rooftop solar panels, batteries and inverters'
        )
      ).state
    ).toBe('completed');
    expect((await crm(t.key, 'Add organisation Bread & Co: artisan sourdough bakery')).state).toBe(
      'completed'
    );
    const found = await crm(t.key, 'Find organisations about solar panels', JSON_OUT);
    expect(found.state, found.statusText).toBe('completed');
    const results = (found.data as { type: string; results: EntityData[] }).results;
    expect(results[0]?.name).toBe('Helios');
    expect((found.data as { type: string }).type).toBe('organisation');

    const byName = await crm(t.key, 'Get Ada Lovelace');
    expect(byName.text).toContain('👤 Ada Lovelace · person');
    const byId = await crm(t.key, `Show entity ${ada.id}`, JSON_OUT);
    expect((byId.data as { entity: EntityData }).entity.id).toBe(ada.id);

    const log = await crm(t.key, 'Log a call with Ada Lovelace: discussed pricing');
    expect(log.text).toMatch(/✅ Logged 📞 call with 👤 Ada Lovelace/);
    expect((await get(t.key, ada.id)).interactions.map((i) => [i.kind, i.text])).toEqual([
      ['call', 'discussed pricing'],
    ]);

    expect((await crm(t.key, 'Add deal Big Deal, close date 2026-11-30')).state).toBe('completed');
    expect(
      (await crm(t.key, 'Add deal Small Deal, probability 30%, close date 2026-10-01')).state
    ).toBe('completed');
    expect(
      (await crm(t.key, 'Add deal Late Deal, probability 0.9, close date 2027-02-01')).state
    ).toBe('completed');
    const set = await crm(t.key, 'Set probability of Big Deal to 0.6');
    expect(set.text).toMatch(/Big Deal .*probability = 60% \(number\)/);
    const setCustom = await crm(t.key, 'Set seats of Big Deal to 250', JSON_OUT);
    expect(setCustom.data).toMatchObject({ key: 'seats', value: 250, kind: 'number' });

    const deals = await crm(
      t.key,
      'Deals with probability >= 0.5 closing before 2027-01-01',
      JSON_OUT
    );
    expect(deals.state, deals.statusText).toBe('completed');
    expect((deals.data as { results: EntityData[] }).results.map((r) => r.name)).toEqual([
      'Big Deal',
    ]);
    const text = await crm(t.key, 'deals with probability at least 0.3');
    expect(text.text).toMatch(/^🔎 3 deal entities where probability ≥ 0\.3/);

    const link = await crm(t.key, 'Link Ada Lovelace to Helios as advises');
    expect(link.text).toMatch(/✅ Linked: .*Ada Lovelace.*—advises→ .*Helios/);
  });

  it('fails on what it cannot map, listing what it understands', async () => {
    const t = await freshTenant('nl-errors');
    const a = await crm(t.key, 'make me a sandwich');
    failedWith(a, /I did not understand "make me a sandwich"/);
    expect(a.statusText).toContain(
      'Add person Ada Lovelace, email ada@example.com, works at Analytical Engines'
    );
    expect(a.statusText).toContain('Deals with probability >= 0.5 closing before 2027-01-01');
    failedWith(await crm(t.key, 'Set probability of Nothing to 0.5'), /unknown entity "Nothing"/);
    failedWith(
      await crm(t.key, 'Add person Bob, email bob-at-nowhere'),
      /`metadata.email`: email must be an email address/
    );
    const help = await crm(t.key, 'help');
    expect(help.state).toBe('completed');
    expect(help.text).toContain('• meta:search:');
    failedWith(await crm(t.key, { type: 'person' }), /say which action to run/);
    failedWith(await crm(t.key, { action: 'entity:delete' }), /unknown action "entity:delete"/);
  });
});

describe('tenant isolation', () => {
  let a: { tenantId: string; id: string; key: string };
  let b: { tenantId: string; id: string; key: string };
  let secret: EntityData;

  beforeAll(async () => {
    a = await freshTenant('iso-a');
    b = await freshTenant('iso-b');
    secret = await upsert(a.key, {
      type: 'deal',
      name: 'Secret Merger',
      description: 'confidential acquisition of a quantum computing startup',
      metadata: { probability: 0.9, close_date: '2027-02-01' },
    });
  });

  /** Every way a caller might claim tenant A: body fields and params, envelope included. */
  const forged = () => ({
    body: {
      tenantId: a.tenantId,
      tenant_id: a.tenantId,
      senderId: a.id,
      created_by: a.id,
      sender: { agentId: a.id, tenantId: a.tenantId },
    },
    params: {
      'x-hub': {
        ...forgedEnvelope('agent-crm-official'),
        sender: { agentId: a.id, tenantId: a.tenantId },
      },
      tenantId: a.tenantId,
      senderId: a.id,
    },
  });

  it('shares one CRM among the agents of a tenant', async () => {
    const colleague = await h.agent(a.tenantId, 'iso-a-colleague');
    expect((await get(colleague.key, secret.id)).name).toBe('Secret Merger');
  });

  it.each([
    ['plainly', () => ({ body: {}, params: {} })],
    ['with forged tenant and sender fields', forged],
  ])('another tenant cannot search, get, meta:search or link to them (%s)', async (_, how) => {
    const { body, params } = how();
    const o = { ...JSON_OUT, params };
    const search = await crm(
      b.key,
      { action: 'entity:search', query: 'quantum computing acquisition', ...body },
      o
    );
    expect(search.state, search.statusText).toBe('completed');
    expect((search.data as { results: unknown[] }).results).toEqual([]);
    failedWith(
      await crm(b.key, { action: 'entity:get', entity: secret.id, ...body }, o),
      /unknown entity/
    );
    failedWith(
      await crm(b.key, { action: 'entity:get', entity: 'Secret Merger', ...body }, o),
      /unknown entity/
    );
    const meta = await crm(
      b.key,
      {
        action: 'meta:search',
        type: 'deal',
        filters: [{ key: 'probability', op: 'gte', value: 0 }],
        ...body,
      },
      o
    );
    expect(meta.state, meta.statusText).toBe('completed');
    expect((meta.data as { results: unknown[] }).results).toEqual([]);
    const mine = await upsert(b.key, { type: 'person', name: `Spy ${Math.random()}` });
    failedWith(
      await crm(
        b.key,
        { action: 'link:create', from: mine.id, to: secret.id, relation: 'works_at', ...body },
        o
      ),
      /`to`: unknown entity crm_ent_/
    );
    failedWith(
      await crm(
        b.key,
        { action: 'interaction:log', entity: secret.id, kind: 'note', text: 'x', ...body },
        o
      ),
      /`entity`: unknown entity/
    );
    failedWith(
      await crm(
        b.key,
        { action: 'meta:set', entity: secret.id, key: 'probability', value: 0, ...body },
        o
      ),
      /`entity`: unknown entity/
    );
    failedWith(
      await crm(b.key, { action: 'entity:upsert', id: secret.id, name: 'Hijacked', ...body }, o),
      /`id`: unknown entity/
    );
    // Plain language too.
    const nl = await crm(b.key, `Show entity ${secret.id}`, { params });
    failedWith(nl, /unknown entity/);
  });

  it("writes land in the sender's own tenant whatever the body claims", async () => {
    const { body, params } = forged();
    const made = await ok<{ entity: EntityData }>(
      b.key,
      {
        action: 'entity:upsert',
        type: 'deal',
        name: 'Secret Merger',
        metadata: { probability: 0.1 },
        ...body,
      },
      { params }
    );
    expect(made.entity.id).not.toBe(secret.id);
    expect(made.entity.created_by).toBe(b.id);
    const still = await get(a.key, secret.id);
    expect(still.metadata).toEqual({ probability: 0.9, close_date: '2027-02-01' });
    expect(still.created_by).toBe(a.id);
  });
});
