// The sec-filings agent through a running hub against an SEC EDGAR fixture (www, data and EFTS):
// company filings by ticker, name and CIK with older submissions pages, a filing's detail from its
// index, executives from the proxy's inline XBRL and the raw Form 4 XML, full-text search, the
// day-long ticker cache, the User-Agent the SEC requires, the per-node SEC limiter, failures,
// discovery and the concierge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { startFakeEdgar } from '../support/fake-edgar.js';
import type { FixtureServer } from '../support/fixture-server.js';

interface Provenance {
  source: string;
  endpoint: string;
  params: Record<string, string>;
  retrievedAt: string;
  url: string;
  cached: boolean;
}
interface FilingsData {
  skill: string;
  cik: number;
  olderPagesUnread: boolean;
  results: Array<{ accession: string; form: string; filingDate: string; documentUrl: string }>;
  provenance: Provenance[];
}

const JSON_OUT = { accept: ['application/json'] };
const UA = 'Burrow-test/1.0 (sec e2e; ops@example.test)';
const RPS = 5;

let h: AgentHub;
let sec: FixtureServer;
let key: string;

beforeAll(async () => {
  sec = await startFakeEdgar();
  h = await startAgentHub({
    SEC_URL: sec.origin,
    SEC_DATA_URL: sec.origin,
    SEC_EFTS_URL: `${sec.origin}/LATEST`,
    SEC_USER_AGENT: UA,
    SEC_REQUESTS_PER_SECOND: String(RPS),
    PUBLIC_DATA_TIMEOUT_MS: '2000',
  });
  key = (await h.agent(await h.tenant('sec-e2e'), 'analyst')).key;
});
afterAll(async () => {
  await h?.close();
  await sec?.close();
});

const filings = (body: string | Record<string, unknown>, o = {}) =>
  ask(h.url, key, 'sec-filings', body, o);

describe('filings', () => {
  it('reads "Apple’s last 10-K" as one 10-K of the company the ticker file names', async () => {
    const a = await filings('Apple’s last 10-K');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^🏛️ Apple Inc\. \(CIK 320193, AAPL\): 10-K filings, newest first \(1\)\n/
    );
    expect(a.text).toContain(
      '1. 10-K · filed 2025-10-31 · period 2025-09-27 · 0000320193-25-000079'
    );
    expect(a.text).toContain(
      '🔗 https://www.sec.gov/Archives/edgar/data/320193/000032019325000079/aapl-20250927.htm'
    );
    expect(a.text).toContain(
      'Other companies by that name: Apple Hospitality REIT, Inc. (APLE, CIK 1418121)'
    );
    expect(a.text).toMatch(/📚 Source: SEC EDGAR \(2 requests, retrieved \d{4}-/);
    const call = sec.to('/submissions/CIK0000320193.json').at(-1)!;
    expect(call.headers['user-agent']).toBe(UA);
    expect(sec.to('/files/company_tickers.json')).toHaveLength(1);
  });

  it('follows the older submissions pages (files[]) while more filings are wanted', async () => {
    const a = await filings(
      { skill: 'filings', company: 'AAPL', forms: ['10-K'], limit: 5 },
      JSON_OUT
    );
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as FilingsData;
    expect(d.cik).toBe(320193);
    expect(d.results.map((f) => f.filingDate)).toEqual([
      '2025-10-31',
      '2024-11-01',
      '2023-11-03',
      '2022-10-28',
      '2021-10-29',
    ]);
    expect(d.olderPagesUnread).toBe(false);
    expect(sec.to('/submissions/CIK0000320193-submissions-001.json')).toHaveLength(1);
    expect(d.provenance.map((p) => p.endpoint)).toEqual([
      '/files/company_tickers.json',
      '/submissions/CIK0000320193.json',
      '/submissions/CIK0000320193-submissions-001.json',
    ]);
    expect(d.provenance[0]!.cached).toBe(true);
    expect(d.provenance[2]!.url).toBe(
      `${sec.origin}/submissions/CIK0000320193-submissions-001.json`
    );
  });

  it('does not read older pages when the recent filings suffice', async () => {
    const a = await filings(
      { skill: 'filings', company: 'Apple Inc.', forms: ['10-K'], limit: 2 },
      JSON_OUT
    );
    const d = a.data as FilingsData;
    expect(d.results.map((f) => f.filingDate)).toEqual(['2025-10-31', '2024-11-01']);
    expect(d.provenance.map((p) => p.endpoint)).toEqual([
      '/files/company_tickers.json',
      '/submissions/CIK0000320193.json',
    ]);
  });

  it('keeps company_tickers.json for a day, and takes a CIK or a share-class ticker', async () => {
    const rows = await h.hub.sql<Array<{ hours: number }>>`
      select extract(epoch from expires_at - retrieved_at)::float8 / 3600 as hours
      from public_data_cache where source = 'SEC EDGAR' and body like '%cik_str%'`;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.hours).toBeCloseTo(24, 0);
    const byCik = await filings('filings of CIK 789019');
    expect(byCik.text).toMatch(/^🏛️ MICROSOFT CORP \(CIK 789019, MSFT\): filings/);
    const brk = await filings({ skill: 'filings', company: 'brk.b' }, JSON_OUT);
    expect(brk.state, brk.statusText).toBe('completed');
    expect(sec.to('/submissions/CIK0001067983.json')).toHaveLength(1);
    expect(sec.to('/files/company_tickers.json')).toHaveLength(1);
  });

  it('says when EDGAR has no such company (its XML 404)', async () => {
    const a = await filings('filings of Qwzx Widgets');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🏛️ SEC EDGAR lists no company “Qwzx Widgets”/);
    const c = await filings({ skill: 'filings', company: '99999999' }, JSON_OUT);
    expect(c.state, c.statusText).toBe('completed');
    expect((c.data as FilingsData).results).toEqual([]);
  });
});

describe('filing detail', () => {
  it('lists a filing’s documents from its index, with its dates from the submissions', async () => {
    const a = await filings('details of filing 0000320193-25-000079');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^🏛️ Filing 0000320193-25-000079 · 10-K · Apple Inc\. \(CIK 320193, AAPL\)\n/
    );
    expect(a.text).toContain('📅 filed 2025-10-31 · period 2025-09-27');
    expect(a.text).toContain('🗂️ Files (4):');
    expect(a.text).toContain('• aapl-20250927.htm (');
    expect(sec.to('/Archives/edgar/data/320193/000032019325000079/index.json')).toHaveLength(1);
    const j = await filings({ skill: 'filing', accession: '000032019325000079' }, JSON_OUT);
    const d = j.data as { accession: string; files: Array<{ name: string; url: string }> };
    expect(d.accession).toBe('0000320193-25-000079');
    expect(d.files.map((f) => f.name)).toContain('aapl-20250927_htm.xml');
  });

  it('says when there is no such filing, and names a bad accession', async () => {
    const a = await filings('filing 0000320193-19-999999');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🏛️ EDGAR has no filing 0000320193-19-999999 under CIK 320193/);
    const bad = await filings({ skill: 'filing', accession: '12-34' });
    expect(bad.state).toBe('failed');
    expect(bad.statusText).toMatch(/^filing: `accession`: must be an accession number/);
  });
});

describe('executives', () => {
  it('names the proxy’s PEO and the officers and directors of the raw Form 4 XML, with sources', async () => {
    const before = sec.requests.length;
    const a = await filings('who are Apple’s executives');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^👔 Apple Inc\. \(CIK 320193, AAPL\): executives and directors\n/);
    expect(a.text).toContain(
      'From the latest proxy: DEF 14A filed 2026-01-10 (0000320193-26-000011), inline XBRL ecd:PeoName'
    );
    expect(a.text).toContain('• Timothy D. Cook — principal executive officer (PEO)');
    expect(a.text).toMatch(
      /• Cook Timothy D — Director, Chief Executive Officer · Form 4 filed \d{4}-\d{2}-\d{2} \(0000320193-26-000120\)/
    );
    expect(a.text).toContain('• Maestri Luca — Senior Vice President, CFO');
    expect(a.text).toContain('• Levinson Arthur D — Director ·');
    const calls = sec.requests.slice(before);
    const xml = calls.filter((c) => c.path.includes('wf-form4_'));
    expect(xml).toHaveLength(7);
    expect(xml.every((c) => !c.path.includes('xslF345X05'))).toBe(true);
    // The SEC limiter: RPS a second after a burst of RPS, whatever the fixture could take.
    const span = calls.at(-1)!.at - calls[0]!.at;
    expect(span).toBeGreaterThanOrEqual(((calls.length - RPS - 1) / RPS) * 1000 - 100);
    const j = await filings({ skill: 'executives', company: 'AAPL' }, JSON_OUT);
    const d = j.data as {
      proxy: { peo: Array<{ name: string }> };
      executives: Array<{ name: string; cik: number; role: string; sourceUrl: string }>;
    };
    expect(d.proxy.peo.map((p) => p.name)).toEqual(['Timothy D. Cook']);
    expect(d.executives.find((e) => e.cik === 1496686)).toMatchObject({
      name: 'Williams Jeffrey E',
      role: 'Chief Operating Officer',
    });
    expect(d.executives[0]!.sourceUrl).toMatch(/\/000032019326000120\/wf-form4_000120\.xml$/);
  });

  it('says when a company has neither a proxy nor ownership forms', async () => {
    const a = await filings('Tesla executives');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toContain('No proxy statement (DEF 14A) among its recent filings.');
    expect(a.text).toContain('No ownership filings (Forms 3/4/5) among its recent filings.');
  });
});

describe('full-text search', () => {
  it('searches a quoted phrase through EFTS, by form and in JSON', async () => {
    const a = await filings('search filings mentioning "supply chain disruption"');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🔎 EDGAR full-text search for "supply chain disruption": 2 of 2\n/);
    expect(a.text).toContain('1. 10-K · filed 2025-10-31 · Apple Inc.  (AAPL)  (CIK 0000320193)');
    expect(a.text).toContain(
      '🔗 https://www.sec.gov/Archives/edgar/data/1318605/000162828026000100/tsla-20260930.htm'
    );
    expect(a.text).toMatch(/📚 Source: SEC EDGAR full-text search \(1 request/);
    expect(sec.to('/LATEST/search-index').at(-1)!.params).toMatchObject({
      q: '"supply chain disruption"',
    });
    const j = await filings(
      { skill: 'search', query: '"supply chain"', forms: ['10-Q'], from: '2026-01-01' },
      JSON_OUT
    );
    const d = j.data as { total: number; results: Array<{ accession: string; ciks: number[] }> };
    expect(d.total).toBe(1);
    expect(d.results[0]).toMatchObject({ accession: '0001628280-26-000100', ciks: [1318605] });
    expect(sec.to('/LATEST/search-index').at(-1)!.params).toMatchObject({
      forms: '10-Q',
      dateRange: 'custom',
      startdt: '2026-01-01',
    });
  });

  it('narrows to one company by CIK, and says when nothing matches', async () => {
    const a = await filings({ skill: 'search', query: 'supply', company: 'MSFT' }, JSON_OUT);
    expect((a.data as { results: unknown[] }).results).toHaveLength(1);
    expect(sec.to('/LATEST/search-index').at(-1)!.params.ciks).toBe('0000789019');
    const none = await filings('search filings mentioning "quantum teleportation"');
    expect(none.text).toMatch(/^🔎 No EDGAR filings found for "quantum teleportation"\./);
  });

  it('fails with the source named when EFTS answers 500', async () => {
    const a = await filings({ skill: 'search', query: 'upstream down' });
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(/^SEC EDGAR full-text search answered HTTP 500/);
  });
});

describe('the SEC’s terms', () => {
  it('keeps one rate-limit bucket per node for the SEC', async () => {
    const rows = await h.hub.sql<Array<{ upstream: string }>>`
      select upstream from public_data_buckets where upstream like 'sec%'`;
    expect(rows.map((r) => r.upstream)).toEqual([`sec@${h.hub.config.nodeId}`]);
  });

  it('answers "not configured" without a contact email in the User-Agent, asking nothing', async () => {
    const h2 = await startAgentHub({ SEC_URL: sec.origin, SEC_DATA_URL: sec.origin });
    try {
      const before = sec.requests.length;
      const k = (await h2.agent(await h2.tenant('sec-noua'), 'p')).key;
      const a = await ask(h2.url, k, 'sec-filings', 'Apple’s last 10-K');
      expect(a.state).toBe('failed');
      expect(a.statusText).toMatch(
        /^not configured: set SEC_USER_AGENT \(or PUBLIC_DATA_USER_AGENT\)/
      );
      expect(sec.requests.length).toBe(before);
    } finally {
      await h2.close();
    }
  });
});

describe('requests it cannot map, discovery and the concierge', () => {
  it('asks what to do, listing the skills', async () => {
    const a = await filings('hello');
    expect(a.state).toBe('input-required');
    for (const s of ['Filing detail', 'Executives', 'Full-text search', 'Company filings']) {
      expect(a.text).toContain(s);
    }
  });

  it('is in the directory with its card', async () => {
    const res = await fetch(`${h.url}/agents/agent-sec-filings/.well-known/agent.json`);
    expect(res.status).toBe(200);
    const card = (await res.json()) as { name: string; skills: Array<{ id: string }> };
    expect(card.skills.map((s) => s.id)).toEqual(['filing', 'executives', 'search', 'filings']);
    const rows = await h.hub.sql`select alias, category from agents where id = 'agent-sec-filings'`;
    expect(rows[0]).toMatchObject({ alias: 'sec-filings', category: 'data' });
  });

  it('is where the concierge routes a question about a company’s SEC filings', async () => {
    const a = await ask(
      h.url,
      key,
      'concierge',
      'Apple’s latest 10-K annual report filed with the SEC'
    );
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🛎️ Routed to SEC Filings \(sec-filings, agent-sec-filings\)/);
  });
});
