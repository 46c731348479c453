// The usaspending agent through a running hub against a USAspending.gov API v2 fixture: every skill
// (search, contractor, agency, detail) in text and JSON, one award-type group per request (the
// fixture answers 422 to a mix), page_metadata.hasNext paging, the count endpoint, the autocompletes,
// the shared cache, provenance, failures, the input-required answer, discovery and the concierge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { startFakeUsaspending } from '../support/fake-usaspending.js';
import type { FixtureRequest, FixtureServer } from '../support/fixture-server.js';

interface Provenance {
  source: string;
  endpoint: string;
  params: Record<string, string>;
  retrievedAt: string;
  url: string;
  cached: boolean;
}
interface AwardsData {
  skill: string;
  types: string[];
  counts: Record<string, number>;
  groups: Array<{ group: string; read: number; more: boolean }>;
  results: Array<{
    awardId: string;
    generatedId: string;
    group: string;
    amount: number | null;
    recipient: string;
    agency: string;
    subAgency: string;
  }>;
  provenance: Provenance[];
}

const JSON_OUT = { accept: ['application/json'] };
const UA = 'Burrow-test/1.0 (usaspending e2e; ops@example.test)';
const BY_AWARD = '/api/v2/search/spending_by_award/';

let h: AgentHub;
let us: FixtureServer;
let key: string;

beforeAll(async () => {
  us = await startFakeUsaspending();
  h = await startAgentHub({
    USASPENDING_URL: us.origin,
    PUBLIC_DATA_USER_AGENT: UA,
    PUBLIC_DATA_TIMEOUT_MS: '1000',
  });
  key = (await h.agent(await h.tenant('usaspending-e2e'), 'analyst')).key;
});
afterAll(async () => {
  await h?.close();
  await us?.close();
});

const spend = (body: string | Record<string, unknown>, o = {}) =>
  ask(h.url, key, 'usaspending', body, o);
interface SearchBody {
  filters: {
    keywords?: string[];
    time_period?: Array<{ start_date: string; end_date: string }>;
    award_type_codes: string[];
    recipient_search_text?: string[];
    agencies?: Array<Record<string, string>>;
    award_ids?: string[];
  };
  fields: string[];
  page: number;
  sort: string;
  order: string;
  subawards: boolean;
}
const body = (r: FixtureRequest) => JSON.parse(r.body) as SearchBody;
const searches = () => us.to(BY_AWARD).map((r) => ({ ...r, json: body(r) }));

describe('search', () => {
  it('asks each award-type group on its own and merges them biggest first, in text', async () => {
    const before = searches().length;
    const a = await spend('largest cybersecurity contracts and grants in 2024');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^💰 Awards for “cybersecurity” 2024-01-01 → 2024-12-31 \(contracts, grants\): 10 largest shown · 23 contracts, 6 grants match\n/
    );
    expect(a.text).toContain('🏢 LOCKHEED MARTIN CORPORATION (UEI ZFN2JJXBLZT3)');
    expect(a.text).toContain(
      '🔗 https://www.usaspending.gov/award/CONT_AWD_W912DY24C0001_9700_-NONE-_-NONE-'
    );
    expect(a.text).toMatch(/📚 Source: USAspending\.gov \(3 requests, retrieved \d{4}-/);
    const calls = searches().slice(before);
    expect(calls).toHaveLength(2);
    for (const c of calls) {
      expect(c.method).toBe('POST');
      expect(c.headers['user-agent']).toBe(UA);
      expect(c.headers['content-type']).toBe('application/json');
      expect(c.json.filters.keywords).toEqual(['cybersecurity']);
      expect(c.json.filters.time_period).toEqual([
        { start_date: '2024-01-01', end_date: '2024-12-31' },
      ]);
      expect(c.json.fields).toContain('Award ID');
      expect(c.json.fields).toContain('Recipient Name');
      expect(c.json).toMatchObject({
        page: 1,
        order: 'desc',
        sort: 'Award Amount',
        subawards: false,
      });
    }
    // The groups are asked at once, so they may arrive in either order.
    const codes = calls.map((c) => c.json.filters.award_type_codes);
    expect(codes.sort((x, y) => x[0]!.localeCompare(y[0]!))).toEqual([
      ['02', '03', '04', '05'],
      ['A', 'B', 'C', 'D'],
    ]);
  });

  it('follows page_metadata.hasNext to the limit and gives every request’s provenance in JSON', async () => {
    const before = searches().length;
    const a = await spend({ skill: 'search', query: 'cybersecurity', limit: 25 }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as AwardsData;
    expect(d.skill).toBe('search');
    expect(d.types).toEqual(['contracts', 'idvs', 'grants']);
    expect(d.counts).toMatchObject({ contracts: 45, idvs: 4, grants: 6 });
    expect(d.results).toHaveLength(25);
    const amounts = d.results.map((r) => r.amount!);
    expect([...amounts].sort((x, y) => y - x)).toEqual(amounts);
    // The two largest IDVs outrank every contract: the groups really are merged.
    expect(d.results[0]!.group).toBe('idvs');
    expect(d.results[0]!.amount).toBe(75_000_000);
    const calls = searches().slice(before);
    const contracts = calls.filter((c) => c.json.filters.award_type_codes[0] === 'A');
    expect(contracts.map((c) => c.json.page)).toEqual([1, 2]);
    expect(calls.filter((c) => c.json.filters.award_type_codes[0] === 'IDV_A')).toHaveLength(1);
    expect(calls.filter((c) => c.json.filters.award_type_codes[0] === '02')).toHaveLength(1);
    expect(d.groups).toEqual([
      { group: 'contracts', read: 40, more: true },
      { group: 'idvs', read: 4, more: false },
      { group: 'grants', read: 6, more: false },
    ]);
    expect(d.provenance).toHaveLength(5);
    expect(d.provenance.find((p) => p.endpoint === BY_AWARD)).toMatchObject({
      source: 'USAspending.gov',
      cached: false,
    });
    expect(d.provenance[0]!.endpoint).toBe('/api/v2/search/spending_by_award_count/');
    expect(JSON.parse(d.provenance[1]!.params.filters!)).toMatchObject({
      keywords: ['cybersecurity'],
    });
    expect(d.provenance[1]!.url).toBe(`${us.origin}${BY_AWARD}`);
  });

  it('reads loans by their Loan Value column', async () => {
    const a = await spend(
      { skill: 'search', query: 'wildfire', types: ['loans', 'grants'] },
      JSON_OUT
    );
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as AwardsData;
    expect(d.results[0]).toMatchObject({ group: 'loans', amount: 20_000_000 });
    const loans =
      searches().at(-2)!.json.filters.award_type_codes[0] === '07'
        ? searches().at(-2)!
        : searches().at(-1)!;
    expect(loans.json.sort).toBe('Loan Value');
    expect(loans.json.fields).toContain('Loan Value');
  });

  it('the fixture refuses a mix of groups with 422, as the upstream does', async () => {
    const res = await fetch(`${us.origin}${BY_AWARD}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        filters: { award_type_codes: ['A', '02'] },
        fields: ['Award ID', 'Award Amount'],
        sort: 'Award Amount',
      }),
    });
    expect(res.status).toBe(422);
  });

  it('answers the same request from the shared cache, saying so', async () => {
    const first = (await spend({ skill: 'search', query: 'wildfire' }, JSON_OUT))
      .data as AwardsData;
    const before = us.requests.length;
    const again = (await spend({ skill: 'search', query: 'wildfire', format: 'json' }))
      .data as AwardsData;
    expect(us.requests.length).toBe(before);
    expect(again.results).toEqual(first.results);
    expect(again.provenance.every((p) => p.cached)).toBe(true);
    const text = await spend('wildfire');
    expect(text.text).toMatch(/📚 Source: USAspending\.gov \(4 requests, retrieved .*, cached\)/);
  });

  it('says when nothing matches', async () => {
    const a = await spend('zeppelin maintenance');
    expect(a.state).toBe('completed');
    expect(a.text).toMatch(
      /^💰 No awards found for “zeppelin maintenance” \(contracts, IDVs, grants\)\./
    );
  });
});

describe('contractor', () => {
  it('finds the recipients by autocomplete and lists their awards, in text and JSON', async () => {
    const a = await spend('contracts awarded to Lockheed Martin in 2023');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^🏢 Recipients matching “Lockheed Martin”: LOCKHEED MARTIN CORPORATION \(UEI ZFN2JJXBLZT3\); LOCKHEED MARTIN AERONAUTICS COMPANY/
    );
    expect(a.text).toContain(
      '💰 Awards for recipient “Lockheed Martin” 2023-01-01 → 2023-12-31 (contracts)'
    );
    const auto = us.to('/api/v2/autocomplete/recipient/').at(-1)!;
    expect(body(auto)).toEqual({ search_text: 'Lockheed Martin', limit: 10 });
    const last = searches().at(-1)!;
    expect(last.json.filters.recipient_search_text).toEqual(['Lockheed Martin']);
    expect(last.json.filters.award_type_codes).toEqual(['A', 'B', 'C', 'D']);
    const j = await spend({ skill: 'contractor', recipient: 'Booz Allen' }, JSON_OUT);
    const d = j.data as AwardsData & { recipients: Array<{ name: string; uei: string }> };
    expect(d.recipients[0]).toMatchObject({
      name: 'BOOZ ALLEN HAMILTON INC.',
      uei: 'BAH4KZ7XQJ21',
    });
    expect(d.results.length).toBeGreaterThan(0);
    expect(d.results.every((r) => r.recipient === 'BOOZ ALLEN HAMILTON INC.')).toBe(true);
  });

  it('says when no recipient matches, without searching awards', async () => {
    const before = searches().length;
    const a = await spend({ skill: 'contractor', recipient: 'Acme Rocket Skates' });
    expect(a.state).toBe('completed');
    expect(a.text).toMatch(
      /^💰 USAspending\.gov knows no recipient matching “Acme Rocket Skates”\./
    );
    expect(searches().length).toBe(before);
  });
});

describe('agency', () => {
  it('resolves an agency through the autocomplete and filters on it, in text and JSON', async () => {
    const a = await spend('cybersecurity contracts from the Department of Homeland Security');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^💰 Awards for Department of Homeland Security \(DHS\) and “cybersecurity” \(contracts\): 10 largest shown · 15 contracts match/
    );
    expect(searches().at(-1)!.json.filters.agencies).toEqual([
      { type: 'awarding', tier: 'toptier', name: 'Department of Homeland Security' },
    ]);
    const j = await spend({ skill: 'agency', agency: 'CISA', types: ['idvs'] }, JSON_OUT);
    expect(j.state, j.statusText).toBe('completed');
    const d = j.data as AwardsData & { resolved: Record<string, string> };
    expect(d.resolved).toMatchObject({
      tier: 'subtier',
      name: 'Cybersecurity and Infrastructure Security Agency',
      toptierName: 'Department of Homeland Security',
    });
    expect(searches().at(-1)!.json.filters.agencies).toEqual([
      {
        type: 'awarding',
        tier: 'subtier',
        name: 'Cybersecurity and Infrastructure Security Agency',
        toptier_name: 'Department of Homeland Security',
      },
    ]);
    expect(d.results.map((r) => r.awardId)).toEqual(['HC102825D0001', 'HC102825D0003']);
  });

  it('resolves an abbreviation to the department', async () => {
    const j = await spend({ skill: 'agency', agency: 'NASA' }, JSON_OUT);
    const d = j.data as AwardsData & { resolved: Record<string, string> };
    expect(d.resolved.name).toBe('National Aeronautics and Space Administration');
    expect(
      d.results.every((r) => r.agency === 'National Aeronautics and Space Administration')
    ).toBe(true);
  });

  it('says when no agency matches', async () => {
    const a = await spend({ skill: 'agency', agency: 'Ministry of Magic' });
    expect(a.state).toBe('completed');
    expect(a.text).toMatch(/knows no awarding agency matching “Ministry of Magic”/);
  });
});

describe('detail', () => {
  it('shows one award by its generated id, in text and JSON', async () => {
    const a = await spend('tell me about award CONT_AWD_W912DY24C0003_9700_-NONE-_-NONE-');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^💰 W912DY24C0003 · DELIVERY ORDER\n💵 Obligated \$48\.00M · potential \$72\.00M/
    );
    expect(a.text).toContain('🏛️ Awarded by: National Aeronautics and Space Administration');
    expect(a.text).toContain('🏭 NAICS 541512 Computer Systems Design Services');
    expect(us.to('/api/v2/awards/CONT_AWD_W912DY24C0003_9700_-NONE-_-NONE-/')).toHaveLength(1);
    const j = await spend(
      { skill: 'detail', awardId: 'CONT_AWD_W912DY24C0003_9700_-NONE-_-NONE-' },
      JSON_OUT
    );
    const d = j.data as {
      award: { awardId: string; recipient: { uei: string } };
      provenance: Provenance[];
    };
    expect(d.award).toMatchObject({ awardId: 'W912DY24C0003', recipient: { uei: 'LMA7QK2XZ1B9' } });
    expect(d.provenance[0]).toMatchObject({ cached: true });
  });

  it('finds a PIID or FAIN through award_ids, one group per request', async () => {
    const before = searches().length;
    const j = await spend({ skill: 'detail', awardId: 'NSFGR000002' }, JSON_OUT);
    expect(j.state, j.statusText).toBe('completed');
    const d = j.data as { award: { generatedId: string; category: string } };
    expect(d.award.generatedId).toBe('ASST_NON_NSFGR000002_049');
    const calls = searches().slice(before);
    expect(calls).toHaveLength(6);
    for (const c of calls) expect(c.json.filters.award_ids).toEqual(['NSFGR000002']);
  });

  it('says when there is no such award (the upstream’s 404)', async () => {
    const a = await spend('award CONT_AWD_NOPE0001_9700_-NONE-_-NONE-');
    expect(a.state).toBe('completed');
    expect(a.text).toMatch(
      /^💰 USAspending\.gov has no award CONT_AWD_NOPE0001_9700_-NONE-_-NONE-\./
    );
  });
});

describe('requests it cannot map, and bad input', () => {
  it('asks what to do, listing the skills', async () => {
    const a = await spend('help');
    expect(a.state).toBe('input-required');
    for (const s of ['Search awards', 'Contractor awards', 'Agency awards', 'Award detail']) {
      expect(a.text).toContain(s);
    }
  });

  it('names the field to fix', async () => {
    const early = await spend({ skill: 'search', query: 'roads', from: '2001-01-01' });
    expect(early.state).toBe('failed');
    expect(early.statusText).toMatch(/^search: `from`: must be on or after 2007-10-01/);
    const types = await spend({ skill: 'search', query: 'roads', types: ['contracts', 'bonds'] });
    expect(types.statusText).toMatch(/^search: `types\.1`/);
    const order = await spend({
      skill: 'agency',
      agency: 'NASA',
      from: '2025-01-01',
      to: '2024-01-01',
    });
    expect(order.statusText).toMatch(/`from`: must not be after `to`/);
  });
});

describe('upstream failures', () => {
  it('fails with the source named on a 5xx, and does not cache it', async () => {
    for (let i = 0; i < 2; i++) {
      const a = await spend({ skill: 'search', query: 'upstream down', types: ['contracts'] });
      expect(a.state).toBe('failed');
      expect(a.statusText).toMatch(/^USAspending\.gov answered HTTP 503 Service Unavailable/);
    }
  });

  it('fails when the upstream does not answer in PUBLIC_DATA_TIMEOUT_MS', async () => {
    const a = await spend({ skill: 'search', query: 'slow', types: ['contracts'] });
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(/USAspending\.gov did not answer within 1000 ms/);
  });

  it('waits out a short Retry-After, then answers', async () => {
    const a = await spend({ skill: 'search', query: 'throttled', types: ['contracts'] });
    expect(a.state, a.statusText).toBe('completed');
    const calls = searches().filter((c) => c.json.filters.keywords?.[0] === 'throttled');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(950);
  });
});

describe('discovery and the concierge', () => {
  it('is in the directory with its card, category and skills', async () => {
    const res = await fetch(`${h.url}/agents/agent-usaspending/.well-known/agent.json`);
    expect(res.status).toBe(200);
    const card = (await res.json()) as { name: string; skills: Array<{ id: string }> };
    expect(card.name).toBe('USAspending');
    expect(card.skills.map((s) => s.id)).toEqual(['detail', 'contractor', 'agency', 'search']);
    const rows = await h.hub.sql`select alias, category from agents where id = 'agent-usaspending'`;
    expect(rows[0]).toMatchObject({ alias: 'usaspending', category: 'data' });
  });

  it('is where the concierge routes a federal-spending question', async () => {
    const a = await ask(
      h.url,
      key,
      'concierge',
      'federal spending: contracts awarded to Lockheed Martin'
    );
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🛎️ Routed to USAspending \(usaspending, agent-usaspending\)/);
    expect(a.text).toContain('🏢 Recipients matching “Lockheed Martin”');
  });
});
