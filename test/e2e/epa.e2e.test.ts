// The epa agent through a running hub against an EPA ECHO fixture: every skill (search, company,
// state, violators) in text and JSON, get_facilities → get_qid paging, a query id that expired
// between requests (asked afresh, not failed), the cache, upstream failures, discovery and the
// concierge. Expected counts come from the fixture's rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { facilities, startFakeEcho, type FakeEcho } from '../support/fake-echo.js';

interface Provenance {
  source: string;
  endpoint: string;
  params: Record<string, string>;
  cached: boolean;
}
interface Facility {
  registryId: string;
  name: string;
  city: string;
  state: string;
  snc: boolean;
  quartersInViolation: number;
  complianceStatus: string;
}
interface Data {
  skill: string;
  totals: { facilities: number; totalPenalties?: number };
  results: Facility[];
  provenance: Provenance[];
}

const JSON_OUT = { accept: ['application/json'] };
const ROWS = facilities();
const FACILITIES = '/echo/echo_rest_services.get_facilities';
const QID = '/echo/echo_rest_services.get_qid';

let h: AgentHub;
let echo: FakeEcho;
let key: string;

beforeAll(async () => {
  echo = await startFakeEcho();
  h = await startAgentHub({ EPA_URL: `${echo.origin}/echo`, EPA_REQUESTS_PER_MINUTE: '30' });
  key = (await h.agent(await h.tenant('epa-e2e'), 'inspector')).key;
});
afterAll(async () => {
  await h?.close();
  await echo?.close();
});

const epa = (body: string | Record<string, unknown>, o = {}) => ask(h.url, key, 'epa', body, o);

describe('search', () => {
  it('finds facilities by city and state, in text', async () => {
    const a = await epa('facilities in Houston, TX');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^🏭 EPA ECHO facilities in Houston, Texas: 10 of 40\n\n1\. ACME CHEMICAL PLANT 1 · 100 INDUSTRIAL WAY, HOUSTON, TX 77001/
    );
    expect(a.text).toContain('🔗 https://echo.epa.gov/detailed-facility-report?fid=');
    expect(a.text).toMatch(/📚 Source: EPA ECHO \(2 requests, retrieved /);
    expect(echo.to(FACILITIES).at(-1)!.params).toMatchObject({
      output: 'JSON',
      p_ct: 'Houston',
      p_st: 'TX',
      p_act: 'Y',
      responseset: '25',
    });
    expect(echo.to(QID).at(-1)!.params).toMatchObject({ pageno: '1' });
  });

  it('pages through get_qid in JSON, with every request’s provenance', async () => {
    const before = echo.to(QID).length;
    const a = await epa({ skill: 'search', state: 'Texas', limit: 30 }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as Data;
    expect(d.skill).toBe('search');
    expect(d.totals.facilities).toBe(60);
    expect(d.results).toHaveLength(30);
    expect(new Set(d.results.map((f) => f.registryId)).size).toBe(30);
    expect(
      echo
        .to(QID)
        .slice(before)
        .map((r) => r.params.pageno)
    ).toEqual(['1', '2']);
    expect(d.provenance.map((p) => p.endpoint)).toEqual([
      '/echo_rest_services.get_facilities',
      '/echo_rest_services.get_qid',
      '/echo_rest_services.get_qid',
    ]);
  });

  it('says when nothing matches', async () => {
    const a = await epa({ skill: 'search', name: 'Nonexistent Widgets' });
    expect(a.state).toBe('completed');
    expect(a.text).toMatch(/^🏭 EPA ECHO has no active facilities named “Nonexistent Widgets”\./);
  });
});

describe('state', () => {
  it('gives a state’s totals and facilities, in text and JSON', async () => {
    const a = await epa('facilities in Texas');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^🗺️ EPA ECHO, Texas\n📊 60 active facilities · \$[\d,]+ in penalties · by program: /
    );
    const j = await epa({ skill: 'state', state: 'oh' }, JSON_OUT);
    const d = j.data as Data & { state: string };
    expect(d.state).toBe('OH');
    expect(d.totals.facilities).toBe(ROWS.filter((r) => r.FacState === 'OH').length);
    expect(d.results.every((f) => f.state === 'OH')).toBe(true);
  });
});

describe('company', () => {
  it('lists a company’s facilities with violations and penalties, in text and JSON', async () => {
    const a = await epa('facilities owned by Buckeye Steel in Ohio');
    expect(a.state, a.statusText).toBe('completed');
    const buckeye = ROWS.filter((r) => r.FacName!.startsWith('BUCKEYE STEEL'));
    const violating = buckeye.filter((r) => r.FacComplianceStatus !== 'No Violation Identified');
    expect(a.text).toMatch(
      new RegExp(
        `^🏢 EPA ECHO, facilities of “Buckeye Steel” in Ohio: ${buckeye.length}\\n⚖️ Of ${buckeye.length} shown: ${violating.length} in violation`
      )
    );
    expect(echo.to(FACILITIES).at(-1)!.params).toMatchObject({ p_fn: 'Buckeye Steel', p_st: 'OH' });
    const j = await epa({ skill: 'company', company: 'lone star' }, JSON_OUT);
    const d = j.data as Data & { summary: { facilities: number; inViolation: number } };
    expect(d.summary.facilities).toBe(20);
    expect(d.results).toHaveLength(10);
  });
});

describe('violators', () => {
  it('keeps significant non-compliers only when asked, in text', async () => {
    const a = await epa('significant violators in Ohio');
    expect(a.state, a.statusText).toBe('completed');
    const snc = ROWS.filter((r) => r.FacState === 'OH' && r.FacSNCFlg === 'Y');
    expect(snc.length).toBeGreaterThan(0);
    expect(a.text).toMatch(new RegExp(`^🚨 Significant violators in Ohio: ${snc.length}\\n`));
    expect(a.text.match(/🔴 Significant non-compliance/g)).toHaveLength(snc.length);
    expect(a.text).toContain('🔎 8 of 8 active facilities checked.');
  });

  it('scans the pages for violators, worst first, in JSON', async () => {
    const a = await epa({ skill: 'violators', state: 'TX', limit: 50 }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as Data & { checked: number };
    const expected = ROWS.filter(
      (r) => r.FacState === 'TX' && (r.FacSNCFlg === 'Y' || r.FacQtrsWithNC !== '0')
    );
    expect(d.checked).toBe(60);
    expect(d.results).toHaveLength(expected.length);
    const sncFirst = d.results.findIndex((f) => !f.snc);
    expect(d.results.slice(0, sncFirst).every((f) => f.snc)).toBe(true);
    expect(d.results.slice(sncFirst).every((f) => !f.snc && f.quartersInViolation > 0)).toBe(true);
  });
});

describe('query ids, cache and failures', () => {
  it('asks afresh when a cached query id has expired upstream', async () => {
    const q = { skill: 'search', zip: '77001' };
    await epa({ ...q, limit: 10 });
    const facilitiesBefore = echo.to(FACILITIES).length;
    echo.expireQueries();
    // Page 1 comes from the cache; page 2 meets the expired id, so the query is run again.
    const a = await epa({ ...q, limit: 30 }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as Data;
    expect(d.results).toHaveLength(30);
    expect(new Set(d.results.map((f) => f.registryId)).size).toBe(30);
    expect(echo.to(FACILITIES).length).toBe(facilitiesBefore + 1);
    expect(d.provenance[0]!.cached).toBe(true);
    expect(d.provenance.at(-1)!.cached).toBe(false);
  });

  it('answers a repeated request from the cache', async () => {
    await epa({ skill: 'state', state: 'MA' });
    const before = echo.requests.length;
    const a = await epa({ skill: 'state', state: 'Massachusetts' }, JSON_OUT);
    expect(echo.requests.length).toBe(before);
    expect((a.data as Data).provenance.every((p) => p.cached)).toBe(true);
  });

  it('fails with the source named on a 5xx', async () => {
    const a = await epa({ skill: 'search', name: 'outage' });
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(/^EPA ECHO answered HTTP 502 Bad Gateway; try again later/);
  });

  it('names what to fix, and asks what to do for text it cannot map', async () => {
    const bad = await epa({ skill: 'state', state: 'Narnia' });
    expect(bad.statusText).toMatch(/^state: `state`: must be a U\.S\. state name or postal code/);
    const none = await epa({ skill: 'search' });
    expect(none.statusText).toMatch(/give at least one of name, city, state, zip/);
    const hello = await epa('hello');
    expect(hello.state).toBe('input-required');
    for (const s of ['Violators', 'Company facilities', 'State overview', 'Search facilities']) {
      expect(hello.text).toContain(s);
    }
  });
});

describe('discovery and the concierge', () => {
  it('is in the directory with its card and category', async () => {
    const res = await fetch(`${h.url}/agents/agent-epa/.well-known/agent.json`);
    const card = (await res.json()) as { skills: Array<{ id: string }> };
    expect(card.skills.map((s) => s.id)).toEqual(['violators', 'company', 'state', 'search']);
    const rows = await h.hub.sql`select alias, category from agents where id = 'agent-epa'`;
    expect(rows[0]).toMatchObject({ alias: 'epa', category: 'data' });
  });

  it('is where the concierge routes an environmental-violations question', async () => {
    const a = await ask(h.url, key, 'concierge', 'EPA environmental violators in Ohio');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🛎️ Routed to EPA Compliance \(epa, agent-epa\)/);
    expect(a.text).toContain('🚨 Violators in Ohio');
  });
});

describe('rate', () => {
  it('kept to EPA_REQUESTS_PER_MINUTE (a burst of 5, then one every 2 s) over the whole file', () => {
    const at = echo.requests.map((r) => r.at);
    const seconds = (at.at(-1)! - at[0]!) / 1000;
    expect(at.length).toBeGreaterThan(10);
    expect(at.length).toBeLessThanOrEqual(5 + Math.floor(seconds / 2) + 1);
  });
});
