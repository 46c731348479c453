// The insider-trades agent through a running hub against the SEC EDGAR fixture: trades by stock
// and by insider from the raw Form 4 XML (the xslF345X05/ rendering prefix dropped), monthly
// buy/sell sentiment with its method, the latest filings from the getcurrent Atom feed, the SEC
// limiter shared with sec-filings, discovery and the concierge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { monthsAgo, startFakeEdgar } from '../support/fake-edgar.js';
import type { FixtureServer } from '../support/fixture-server.js';

interface Trade {
  accession: string;
  owner: string;
  ownerCik: number;
  relationship: string;
  code: string;
  codeMeaning: string;
  table: string;
  shares: number;
  price: number | null;
  value: number | null;
  sharesAfter: number;
  acquiredDisposed: string;
  date: string;
  ticker: string;
  xmlUrl: string;
}
interface Month {
  month: string;
  buys: number;
  buyValue: number;
  sells: number;
  sellValue: number;
  netValue: number;
  signal: string;
}

const JSON_OUT = { accept: ['application/json'] };
const UA = 'Burrow-test/1.0 (insider e2e; ops@example.test)';

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
  });
  key = (await h.agent(await h.tenant('insider-e2e'), 'analyst')).key;
});
afterAll(async () => {
  await h?.close();
  await sec?.close();
});

const insider = (body: string | Record<string, unknown>, o = {}) =>
  ask(h.url, key, 'insider-trades', body, o);

describe('by stock', () => {
  it('lists every transaction of the company’s Form 4s, read from the raw XML', async () => {
    const a = await insider('insider trades at AAPL');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^🕵️ Insider trades at Apple Inc\. \(CIK 320193, AAPL\): 9 transactions in 7 Form 4 filings\n/
    );
    expect(a.text).toContain(
      `🔴 ${monthsAgo(1, 3)} · Cook Timothy D (Director, Chief Executive Officer) · S open-market or private sale · 1,000 sh @ $230 = $230,000 · holds 3,280,000 after`
    );
    expect(a.text).toContain(
      'M exercise or conversion of a derivative (exempt) (derivative) · 2,000 sh'
    );
    expect(a.text).toContain(
      'F tax or exercise price paid with securities · 800 sh @ $210 = $168,000'
    );
    expect(a.text).toMatch(/📚 Source: SEC EDGAR \(\d+ requests/);
    const xml = sec.requests.filter((r) => r.path.includes('wf-form4_'));
    expect(xml).toHaveLength(7);
    expect(
      xml.every((r) => /^\/Archives\/edgar\/data\/320193\/\d{18}\/wf-form4_\d+\.xml$/.test(r.path))
    ).toBe(true);
    expect(xml[0]!.headers['user-agent']).toBe(UA);
  });

  it('narrows to buys in JSON, with each trade’s fields and source', async () => {
    const before = sec.requests.length;
    const a = await insider({ skill: 'stock', company: 'Apple', codes: ['P'] }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as { cik: number; results: Trade[]; provenance: Array<{ cached: boolean }> };
    expect(d.results.map((t) => [t.owner, t.shares, t.price, t.value])).toEqual([
      ['Levinson Arthur D', 500, 220, 110000],
      ['Levinson Arthur D', 1000, 200, 200000],
      ['Williams Jeffrey E', 100, 199, 19900],
    ]);
    expect(d.results[0]).toMatchObject({
      code: 'P',
      codeMeaning: 'open-market or private purchase',
      acquiredDisposed: 'A',
      sharesAfter: 4200500,
      relationship: 'Director',
      ticker: 'AAPL',
      ownerCik: 1214128,
    });
    expect(d.results[0]!.xmlUrl).toBe(
      'https://www.sec.gov/Archives/edgar/data/320193/000032019326000119/wf-form4_000119.xml'
    );
    // Everything was cached by the text request before it.
    expect(sec.requests.length).toBe(before);
    expect(d.provenance.every((p) => p.cached)).toBe(true);
    const sells = await insider('insider selling at Apple');
    expect(sells.text).toMatch(/: 2 transactions in 7 Form 4 filings\n/);
  });

  it('says when there is no such company', async () => {
    const a = await insider('insider trades at Qwzx Widgets');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🕵️ SEC EDGAR lists no company “Qwzx Widgets”/);
  });
});

describe('by insider', () => {
  it('finds the person through full-text search of Form 4s, then reads their own filings', async () => {
    const a = await insider('trades by Timothy Cook');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^🕵️ Insider trades by Cook Timothy D \(CIK 1214156\): 2 transactions in 2 Form 4 filings\n/
    );
    expect(a.text).toContain('A grant or award · 50,000 sh');
    expect(sec.to('/LATEST/search-index').at(-1)!.params).toMatchObject({ forms: '4' });
    expect(sec.to('/submissions/CIK0001214156.json')).toHaveLength(1);
    expect(
      sec.requests.filter(
        (r) => r.path.startsWith('/Archives/edgar/data/1214156/') && r.path.endsWith('.xml')
      )
    ).toHaveLength(2);
  });

  it('takes a CIK in JSON', async () => {
    const a = await insider({ skill: 'insider', insider: '1496686' }, JSON_OUT);
    const d = a.data as { name: string; results: Trade[] };
    expect(d.name).toBe('Williams Jeffrey E');
    expect(d.results.map((t) => t.code)).toEqual(['G', 'P']);
  });

  it('says when no reporting owner has that name', async () => {
    const a = await insider('trades by Nobody Atall');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🕵️ SEC EDGAR lists no insider “Nobody Atall”/);
  });
});

describe('monthly sentiment', () => {
  it('counts open-market buys and sells by value per month, stating the method', async () => {
    const a = await insider('insider sentiment for AAPL over 6 months');
    expect(a.state, a.statusText).toBe('completed');
    const m = (k: number) => monthsAgo(k, 1).slice(0, 7);
    expect(a.text).toMatch(
      /^📊 Insider sentiment for Apple Inc\. \(CIK 320193\), 6 months \(7 Form 4 filings read\)\n/
    );
    expect(a.text).toContain(`🔴 ${m(1)}: 1 buys $110,000 · 1 sells $230,000 · net $-120,000`);
    expect(a.text).toContain(`🔴 ${m(2)}: 0 buys $0 · 1 sells $255,000 · net $-255,000`);
    expect(a.text).toContain(`🟢 ${m(3)}: 2 buys $219,900 · 0 sells $0 · net $219,900`);
    expect(a.text).toContain(`· ${m(4)}: 0 buys $0 · 0 sells $0`);
    expect(a.text).toContain('Total: buys $329,900 · sells $485,000 · net $-155,100');
    expect(a.text).toContain(
      'Method: open-market purchases (code P) against open-market sales (code S)'
    );
    const j = await insider({ skill: 'sentiment', company: 'AAPL', months: 3 }, JSON_OUT);
    const d = j.data as { months: Month[]; method: string; from: string };
    expect(d.from).toBe(`${m(2)}-01`);
    expect(d.months.map((x) => x.month)).toEqual([m(2), m(1), m(0)]);
    expect(d.months[0]).toMatchObject({ buys: 0, sells: 1, sellValue: 255000, signal: 'selling' });
    expect(d.months[2]).toMatchObject({ buys: 0, sells: 0, signal: 'none' });
    expect(d.method).toMatch(/^Method: /);
  });
});

describe('latest filings', () => {
  it('reads the getcurrent Atom feed, once per filing, and each filing’s raw XML', async () => {
    const a = await insider('latest insider trades');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^🕵️ Latest insider filings on EDGAR: 5 transactions in 3 Form 4 filings\n/
    );
    expect(sec.to('/cgi-bin/browse-edgar').at(-1)!.params).toMatchObject({
      action: 'getcurrent',
      type: '4',
      owner: 'include',
      output: 'atom',
    });
    const j = await insider({ skill: 'recent', limit: 1 }, JSON_OUT);
    const d = j.data as { feedEntries: number; results: Trade[] };
    expect(d.feedEntries).toBe(3);
    expect(d.results.map((t) => t.accession)).toEqual(['0000320193-26-000120']);
  });
});

describe('the shared SEC limiter, discovery and the concierge', () => {
  it('draws on the same per-node bucket as sec-filings', async () => {
    const f = await ask(h.url, key, 'sec-filings', 'Tesla’s last 10-Q');
    expect(f.state, f.statusText).toBe('completed');
    const rows = await h.hub.sql<Array<{ upstream: string }>>`
      select upstream from public_data_buckets where upstream like 'sec%'`;
    expect(rows.map((r) => r.upstream)).toEqual([`sec@${h.hub.config.nodeId}`]);
  });

  it('asks what to do, listing the skills', async () => {
    const a = await insider('hello');
    expect(a.state).toBe('input-required');
    expect(a.text).toContain('Monthly insider sentiment');
    expect(a.text).toContain('Insider trades by stock');
    const bad = await insider({ skill: 'stock', company: 'AAPL', codes: ['buy'] });
    expect(bad.statusText).toMatch(/^stock: `codes\.0`: must be a one-letter transaction code/);
  });

  it('is in the directory, and where the concierge routes an insider-trading question', async () => {
    const res = await fetch(`${h.url}/agents/agent-insider-trades/.well-known/agent.json`);
    const card = (await res.json()) as { skills: Array<{ id: string }> };
    expect(card.skills.map((s) => s.id)).toEqual(['sentiment', 'insider', 'recent', 'stock']);
    const c = await ask(
      h.url,
      key,
      'concierge',
      'insider trading Form 4 buying and selling at Apple'
    );
    expect(c.state, c.statusText).toBe('completed');
    expect(c.text).toMatch(/^🛎️ Routed to Insider Trades \(insider-trades, agent-insider-trades\)/);
  });
});
