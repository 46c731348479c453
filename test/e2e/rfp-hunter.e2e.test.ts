// The rfp-hunter agent through running hubs against SAM.gov and Grants.gov fixtures: every skill
// (search, recent, detail) in text and JSON, the merge and de-duplication of both sources, SAM's
// amendments, offset and startRecordNum paging, SAM's one-year date range, the shared cache,
// provenance without the key, SAM's 404 for a missing or refused key, Grants.gov's errorcode,
// upstream failures, the input-required answer, discovery and the concierge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { SAM_KEY, startFakeSam } from '../support/fake-sam.js';
import { startFakeGrantsGov } from '../support/fake-grants-gov.js';
import type { FixtureRequest, FixtureServer } from '../support/fixture-server.js';

interface Provenance {
  source: string;
  endpoint: string;
  params: Record<string, string>;
  url: string;
  cached: boolean;
}
interface Opp {
  source: string;
  id: string;
  number: string | null;
  title: string;
  postedDate: string | null;
  notices: number;
  alsoOn: Array<{ source: string; id: string }>;
}
interface ListData {
  skill: string;
  totals: Record<string, number>;
  notes: string[];
  results: Opp[];
  provenance: Provenance[];
}

const JSON_OUT = { accept: ['application/json'] };
const UA = 'Burrow-test/1.0 (rfp-hunter e2e; ops@example.test)';
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const us = (d: string) => `${d.slice(5, 7)}/${d.slice(8, 10)}/${d.slice(0, 4)}`;

let h: AgentHub;
let bad: AgentHub;
let none: AgentHub;
let sam: FixtureServer;
let gg: FixtureServer;
const keys: Record<string, string> = {};

async function hub(env: Record<string, string>, name: string): Promise<AgentHub> {
  const x = await startAgentHub({
    SAM_URL: sam.origin,
    GRANTS_GOV_URL: gg.origin,
    PUBLIC_DATA_USER_AGENT: UA,
    PUBLIC_DATA_TIMEOUT_MS: '1000',
    // SAM.gov's default (10 a minute) would space the tests' requests six seconds apart.
    SAM_REQUESTS_PER_MINUTE: '600',
    ...env,
  });
  keys[name] = (await x.agent(await x.tenant(`rfp-${name}`), 'bidder')).key;
  return x;
}

beforeAll(async () => {
  sam = await startFakeSam();
  gg = await startFakeGrantsGov();
  h = await hub({ SAM_API_KEY: SAM_KEY }, 'h');
  bad = await hub({ SAM_API_KEY: 'revoked-key' }, 'bad');
  none = await hub({}, 'none');
}, 120_000);
afterAll(async () => {
  await h?.close();
  await bad?.close();
  await none?.close();
  await sam?.close();
  await gg?.close();
});

const rfp = (body: string | Record<string, unknown>, o = {}, on = h, k = 'h') =>
  ask(on.url, keys[k]!, 'rfp-hunter', body, o);
const samCalls = () => sam.to('/opportunities/v2/search');
const ggCalls = () => gg.to('/v1/api/search2');
const json = (r: FixtureRequest) => JSON.parse(r.body) as Record<string, unknown>;

describe('search', () => {
  it('asks both sources and merges them, SAM.gov over the last year, in text', async () => {
    const a = await rfp('cybersecurity opportunities');
    expect(a.state, a.statusText).toBe('completed');
    const today = iso(Date.now());
    const from = iso(Date.now() - 364 * DAY);
    expect(a.text).toMatch(
      new RegExp(
        `^📣 Opportunities for “cybersecurity” \\(SAM\\.gov and Grants\\.gov; SAM\\.gov posted ${from} → ${today}\\): 10 shown\\n` +
          'SAM\\.gov: 10 solicitations of 14 notices · Grants\\.gov: 3 of 3'
      )
    );
    expect(a.text).toContain('📑 Cybersecurity Operations Support Services');
    expect(a.text).toContain('💵 Cybersecurity Workforce Education Program 1');
    expect(a.text).not.toContain('Legacy Cybersecurity Tooling');
    expect(a.text).toMatch(/📚 Source: SAM\.gov \(2 requests, .*\); Grants\.gov \(1 request/);
    const s = samCalls().at(-1)!;
    expect(s.params).toMatchObject({
      api_key: SAM_KEY,
      title: 'cybersecurity',
      postedFrom: us(from),
      postedTo: us(today),
    });
    expect(s.headers['user-agent']).toBe(UA);
    const g = ggCalls().at(-1)!;
    expect(g.method).toBe('POST');
    expect(json(g)).toMatchObject({
      keyword: 'cybersecurity',
      oppStatuses: 'forecasted|posted',
      startRecordNum: 0,
    });
  });

  it('folds a solicitation’s amendments and follows offset paging, never showing the key', async () => {
    const before = samCalls().length;
    const a = await rfp(
      { skill: 'search', query: 'cybersecurity', source: 'sam', limit: 5 },
      JSON_OUT
    );
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as ListData;
    expect(d.results).toHaveLength(5);
    expect(d.results[0]).toMatchObject({ number: 'W912DY26R0001', notices: 3, source: 'SAM.gov' });
    expect(d.results.filter((r) => r.number === 'W912DY26R0001')).toHaveLength(1);
    const calls = samCalls().slice(before);
    expect(calls.map((c) => [c.params.offset, c.params.limit])).toEqual([
      ['0', '5'],
      ['5', '5'],
    ]);
    expect(ggCalls().filter((c) => c.at >= calls[0]!.at)).toHaveLength(0);
    expect(d.provenance).toHaveLength(2);
    for (const p of d.provenance) {
      expect(p.source).toBe('SAM.gov');
      expect(p.params.api_key).toBeUndefined();
      expect(p.url).not.toContain(SAM_KEY);
    }
  });

  it('shows an opportunity listed on both sources once, linking the other', async () => {
    const a = await rfp({ skill: 'search', query: 'wildfire' }, JSON_OUT);
    const d = a.data as ListData;
    expect(d.totals).toEqual({ 'SAM.gov': 1, 'Grants.gov': 1 });
    expect(d.results).toHaveLength(1);
    expect(d.results[0]).toMatchObject({
      source: 'SAM.gov',
      number: 'USDA-FS-2026-WILDFIRE-01',
      alsoOn: [{ source: 'Grants.gov', id: '350200' }],
    });
    const t = await rfp('wildfire opportunities');
    expect(t.text).toContain(
      '· also on Grants.gov: https://www.grants.gov/search-results-detail/350200'
    );
  });

  it('keeps SAM.gov’s range within a year, as SAM.gov does', async () => {
    const before = samCalls().length;
    const a = await rfp({ skill: 'search', query: 'cyber', from: '2025-01-01', to: '2026-06-30' });
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(/^search: `to`: SAM\.gov searches at most one year at a time/);
    expect(samCalls().length).toBe(before);
    const res = await fetch(
      `${sam.origin}/opportunities/v2/search?api_key=${SAM_KEY}&postedFrom=01/01/2025&postedTo=06/30/2026`
    );
    expect(res.status).toBe(400);
    const missing = await fetch(`${sam.origin}/opportunities/v2/search?api_key=${SAM_KEY}`);
    expect(missing.status).toBe(400);
    const ok = await rfp(
      { skill: 'search', query: 'cybersecurity', from: iso(Date.now() - 10 * DAY) },
      JSON_OUT
    );
    expect(ok.state, ok.statusText).toBe('completed');
    expect(samCalls().at(-1)!.params.postedTo).toBe(us(iso(Date.now())));
    for (const r of (ok.data as ListData).results) {
      expect(r.postedDate! >= iso(Date.now() - 10 * DAY)).toBe(true);
    }
  });

  it('answers the same request from the shared cache, saying so', async () => {
    await rfp({ skill: 'search', query: 'broadband' });
    const s = sam.requests.length;
    const g = gg.requests.length;
    const again = await rfp({ skill: 'search', query: 'broadband' }, JSON_OUT);
    expect(sam.requests.length).toBe(s);
    expect(gg.requests.length).toBe(g);
    expect((again.data as ListData).provenance.every((p) => p.cached)).toBe(true);
  });

  it('says when nothing matches', async () => {
    const a = await rfp('zeppelin hangar opportunities');
    expect(a.state).toBe('completed');
    expect(a.text).toMatch(/^📣 No opportunities found for “zeppelin hangar”/);
  });
});

describe('recent', () => {
  it('asks SAM.gov for the last week only, for “RFPs this week”', async () => {
    const a = await rfp('new cybersecurity RFPs this week');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^📣 Opportunities for “cybersecurity” posted .* \(SAM\.gov\): 3 shown/);
    expect(samCalls().at(-1)!.params).toMatchObject({
      postedFrom: us(iso(Date.now() - 7 * DAY)),
      postedTo: us(iso(Date.now())),
    });
  });

  it('pages Grants.gov and keeps what opened within the days, in JSON', async () => {
    const before = ggCalls().length;
    const a = await rfp(
      { skill: 'recent', query: 'broadband', days: 30, source: 'grants', limit: 5 },
      JSON_OUT
    );
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as ListData & { from: string };
    expect(d.results.map((r) => r.id)).toEqual(['350300', '350301', '350302']);
    expect(d.from).toBe(iso(Date.now() - 30 * DAY));
    const calls = ggCalls().slice(before);
    expect(calls.map((c) => json(c).startRecordNum)).toEqual([0, 5]);
    expect(json(calls[0]!)).toMatchObject({ rows: 5, sortBy: 'openDate|desc' });
  });
});

describe('detail', () => {
  it('shows a SAM.gov notice by its id', async () => {
    const a = await rfp('notice 0000000000000000000000000000d001');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^📑 Cybersecurity Assessment Services 1\nSAM\.gov · Combined Synopsis\/Solicitation · 🔖 70RCSA26R00001/
    );
    expect(samCalls().at(-1)!.params.noticeid).toBe('0000000000000000000000000000d001');
  });

  it('shows a Grants.gov opportunity with its award range and eligibility', async () => {
    const a = await rfp('grants.gov opportunity 350100');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^💵 Cybersecurity Workforce Education Program 1\nGrants\.gov · Discretionary · 🔖 NSF-26-501/
    );
    expect(a.text).toContain('💰 total $5,000,000 · 10 awards expected · each $50,000 – $500,000');
    expect(a.text).toContain(
      '✅ Eligible: Public and State controlled institutions of higher education'
    );
    expect(a.text).toContain(
      '📝 Supports cybersecurity workforce education program 1 & related work.'
    );
    expect(json(gg.to('/v1/api/fetchOpportunity').at(-1)!)).toEqual({ opportunityId: 350100 });
  });

  it('looks a number up on both sources', async () => {
    const j = await rfp({ skill: 'detail', id: 'USDA-FS-2026-WILDFIRE-01' }, JSON_OUT);
    expect(j.state, j.statusText).toBe('completed');
    const d = j.data as { opportunity: Opp };
    expect(d.opportunity).toMatchObject({
      source: 'SAM.gov',
      alsoOn: [{ source: 'Grants.gov', id: '350200' }],
    });
    expect(samCalls().at(-1)!.params.solnum).toBe('USDA-FS-2026-WILDFIRE-01');
    expect(json(ggCalls().at(-1)!).oppNum).toBe('USDA-FS-2026-WILDFIRE-01');
  });

  it('says when there is no such opportunity', async () => {
    const a = await rfp({ skill: 'detail', id: '999999', source: 'grants' });
    expect(a.state).toBe('completed');
    expect(a.text).toMatch(/^📣 No opportunity 999999 found/);
  });
});

describe('SAM.gov keys', () => {
  it('without a key: Grants.gov answers alone, saying so; SAM.gov alone fails', async () => {
    const before = sam.requests.length;
    const a = await rfp('cybersecurity opportunities', {}, none, 'none');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toContain('⚠️ SAM.gov: not configured: set SAM_API_KEY');
    expect(a.text).toContain('Cybersecurity Workforce Education Program 1');
    const only = await rfp(
      { skill: 'search', query: 'cybersecurity', source: 'sam' },
      {},
      none,
      'none'
    );
    expect(only.state).toBe('failed');
    expect(only.statusText).toMatch(/^SAM\.gov: not configured: set SAM_API_KEY/);
    expect(sam.requests.length).toBe(before);
  });

  it('a refused key (SAM.gov’s 404) is “not configured or key refused”, never cached', async () => {
    const before = samCalls().length;
    const a = await rfp({ skill: 'search', query: 'cybersecurity' }, JSON_OUT, bad, 'bad');
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as ListData;
    expect(d.notes).toEqual([
      'SAM.gov: not configured or key refused (HTTP 404); ask the operator to check SAM_API_KEY; showing Grants.gov only',
    ]);
    expect(d.results.every((r) => r.source === 'Grants.gov')).toBe(true);
    for (let i = 0; i < 2; i++) {
      const only = await rfp('cybersecurity RFPs', {}, bad, 'bad');
      expect(only.state).toBe('failed');
      expect(only.statusText).toMatch(/^SAM\.gov: not configured or key refused \(HTTP 404\)/);
    }
    expect(
      samCalls()
        .slice(before)
        .map((c) => c.params.api_key)
    ).toEqual(['revoked-key', 'revoked-key', 'revoked-key']);
  });
});

describe('requests it cannot map, bad input and failures', () => {
  it('asks what to do, listing the skills', async () => {
    const a = await rfp('help');
    expect(a.state).toBe('input-required');
    for (const s of ['Search opportunities', 'Recent opportunities', 'Opportunity detail']) {
      expect(a.text).toContain(s);
    }
  });

  it('names the field to fix', async () => {
    const a = await rfp({ skill: 'recent', days: 400 });
    expect(a.statusText).toMatch(/^recent: `days`/);
    const b = await rfp({ skill: 'search', query: 'x', state: 'Virginia' });
    expect(b.statusText).toMatch(/^search: `state`: must be a two-letter state code/);
  });

  it('fails with the source named on a 5xx or a timeout', async () => {
    const down = await rfp({ skill: 'search', query: 'upstream down', source: 'grants' });
    expect(down.state).toBe('failed');
    expect(down.statusText).toMatch(/^Grants\.gov answered HTTP 503 Service Unavailable/);
    const slow = await rfp({ skill: 'search', query: 'slow', source: 'sam' });
    expect(slow.statusText).toMatch(/^SAM\.gov did not answer within 1000 ms/);
  });

  it('fails on Grants.gov’s errorcode, and does not cache it', async () => {
    for (let i = 0; i < 2; i++) {
      const a = await rfp({ skill: 'search', query: 'search error', source: 'grants' });
      expect(a.state).toBe('failed');
      expect(a.statusText).toBe(
        'Grants.gov answered an error: Error while searching opportunities'
      );
    }
    expect(ggCalls().filter((c) => json(c).keyword === 'search error')).toHaveLength(2);
  });

  it('waits out a short Retry-After from SAM.gov, then answers', async () => {
    const a = await rfp({ skill: 'search', query: 'throttled', source: 'sam' });
    expect(a.state, a.statusText).toBe('completed');
    const calls = samCalls().filter((c) => c.params.title === 'throttled');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(950);
  });
});

describe('discovery and the concierge', () => {
  it('is in the directory with its card, category and skills', async () => {
    const res = await fetch(`${h.url}/agents/agent-rfp-hunter/.well-known/agent.json`);
    expect(res.status).toBe(200);
    const card = (await res.json()) as { name: string; skills: Array<{ id: string }> };
    expect(card.name).toBe('RFP Hunter');
    expect(card.skills.map((s) => s.id)).toEqual(['detail', 'recent', 'search']);
    const rows = await h.hub.sql`select alias, category from agents where id = 'agent-rfp-hunter'`;
    expect(rows[0]).toMatchObject({ alias: 'rfp-hunter', category: 'data' });
  });

  it('is where the concierge routes a question about open RFPs', async () => {
    const a = await ask(
      h.url,
      keys.h!,
      'concierge',
      'open RFP solicitations and tenders for cybersecurity'
    );
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🛎️ Routed to RFP Hunter \(rfp-hunter, agent-rfp-hunter\)/);
    expect(a.text).toContain('📣 Opportunities for “cybersecurity”');
  });
});
