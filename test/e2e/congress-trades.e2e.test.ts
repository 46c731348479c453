// The congress-trades agent through a running hub against fixtures of the House Clerk (a real zip
// with its XML index, e-filed PTR PDFs with text and a scanned one) and the Senate eFD (agreement
// step with its CSRF cookie and token, DataTables paging, the PTR table): every skill (stock,
// member, recent, search) in text and JSON, the Ethics in Government Act notice, scans and paper
// filings named and not parsed, the report bound, the shared cache, provenance, upstream failures,
// the input-required answer, discovery and the concierge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { congressData, startFakeCongress, type FakeCongress } from '../support/fake-congress.js';

interface Provenance {
  source: string;
  endpoint: string;
  params: Record<string, string>;
  retrievedAt: string;
  url: string;
  cached: boolean;
}
interface Trade {
  chamber: string;
  member: string;
  state: string | null;
  ticker: string | null;
  asset: string;
  type: string;
  owner: string;
  amount: string;
  date: string;
  reportUrl: string;
}
interface TradesData {
  skill: string;
  total: number;
  results: Trade[];
  reports: { found: number; read: Array<{ member: string; status: string; chamber: string }> };
  notice: string;
  provenance: Provenance[];
}

const JSON_OUT = { accept: ['application/json'] };
const UA = 'Burrow-test/1.0 (congress e2e; ops@example.test)';
const NOTICE = /⚖️ Notice: the Ethics in Government Act \(5 U\.S\.C\. § 13107\(c\)\)/;
const HOUSE = 'House Clerk (disclosures-clerk.house.gov)';
const SENATE = 'Senate eFD (efdsearch.senate.gov)';

let h: AgentHub;
let fake: FakeCongress;
let key: string;
const lastYear = congressData().thisYear - 1;

beforeAll(async () => {
  fake = await startFakeCongress();
  h = await startAgentHub({
    CONGRESS_HOUSE_URL: `${fake.origin}/public_disc`,
    CONGRESS_SENATE_URL: fake.origin,
    CONGRESS_MAX_REPORTS: '6',
    PUBLIC_DATA_USER_AGENT: UA,
    CONGRESS_HOUSE_REQUESTS_PER_MINUTE: '6000',
    CONGRESS_SENATE_REQUESTS_PER_MINUTE: '6000',
  });
  key = (await h.agent(await h.tenant('congress-e2e'), 'analyst')).key;
}, 60_000);
afterAll(async () => {
  await h?.close();
  await fake?.close();
});

const congress = (body: string | Record<string, unknown>, o = {}) =>
  ask(h.url, key, 'congress-trades', body, o);

describe('stock', () => {
  it('reads both chambers for a ticker, naming the scan and the paper filing it could not read', async () => {
    const a = await congress('which members of Congress traded $NVDA');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🏛️ Congressional trades in NVDA \(filed in the last 90 days\): 3\n/);
    expect(a.text).toContain(
      '🟢 Purchase · NVDA NVIDIA Corporation - Common Stock [OP]\n   👤 Hon. Nancy Pelosi (House, CA11) · owner spouse · 💵 $1,000,001 - $5,000,000'
    );
    expect(a.text).toContain('🔴 Sale · NVDA NVIDIA Corporation - Common Stock [ST]');
    expect(a.text).toContain('👤 Tommy Tuberville (Senate) · owner spouse · 💵 $15,001 - $50,000');
    expect(a.text).toMatch(/⚠️ Hon\. Jason Smith \(House\), filed .*: scanned, not parsed · http/);
    expect(a.text).toMatch(
      /⚠️ Tommy Tuberville \(Senate\), filed .*: paper filing \(images\), not parsed/
    );
    expect(a.text).toMatch(NOTICE);
    expect(a.text).toMatch(/📚 Source: House Clerk .*; Senate eFD/);
    expect(a.text).not.toContain('Coca-Cola');
  });

  it('answers JSON with every trade’s fields and the provenance of each request', async () => {
    const a = await congress({ skill: 'stock', ticker: 'nvda' }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as TradesData;
    expect(d.skill).toBe('stock');
    expect(d.total).toBe(3);
    expect(d.results.every((t) => t.ticker === 'NVDA')).toBe(true);
    expect(d.results.map((t) => t.chamber).sort()).toEqual(['house', 'house', 'senate']);
    expect(d.results.find((t) => t.chamber === 'house' && t.type === 'sale')).toMatchObject({
      member: 'Hon. Marjorie Taylor Greene',
      state: 'GA14',
      owner: 'self',
      amount: '$1,001 - $15,000',
    });
    // 7 in the window; CONGRESS_MAX_REPORTS=6 reads the newest 6 (the oldest, Capito's, is left).
    expect(d.reports.found).toBe(7);
    expect(d.reports.read.map((r) => r.status).sort()).toEqual([
      'paper',
      'parsed',
      'parsed',
      'parsed',
      'parsed',
      'scanned',
    ]);
    expect(d.notice).toMatch(/Ethics in Government Act/);
    const sources = new Set(d.provenance.map((p) => p.source));
    expect(sources).toEqual(new Set([HOUSE, SENATE]));
    expect(d.provenance.find((p) => p.endpoint.endsWith('FD.zip'))!.url).toBe(
      `${fake.origin}/public_disc/financial-pdfs/${lastYear + 1}FD.zip`
    );
  });
});

describe('the Senate agreement step', () => {
  it('posts the agreement with the form’s CSRF token, then searches with the cookie’s', async () => {
    const home = fake.to('/search/home/', 'GET')[0]!;
    expect(home.headers['user-agent']).toBe(UA);
    const agree = fake.to('/search/home/', 'POST')[0]!;
    expect(agree.form.prohibition_agreement).toBe('1');
    expect(agree.form.csrfmiddlewaretoken).toMatch(/^[0-9a-f]{64}$/);
    expect(agree.headers.cookie).toMatch(/csrftoken=[0-9a-f]{32}/);
    expect(agree.headers.referer).toBe(`${fake.origin}/search/home/`);
    const search = fake.to('/search/report/data/', 'POST')[0]!;
    expect(search.headers.cookie).toMatch(/sessionid=/);
    expect(search.headers['x-csrftoken']).toMatch(/^[0-9a-f]{32}$/);
    expect(search.form).toMatchObject({ report_types: '[11]', start: '0', length: '100' });
    expect(search.form.submitted_start_date).toMatch(/^\d{2}\/\d{2}\/\d{4} 00:00:00$/);
    // Nothing the session needs (token, cookies) is shown in provenance.
    const a = await congress({ skill: 'recent', chamber: 'senate', days: 3 }, JSON_OUT);
    const d = a.data as TradesData;
    const shown = JSON.stringify(d.provenance);
    expect(shown).not.toContain('csrfmiddlewaretoken');
    expect(shown).not.toMatch(/sessionid|csrftoken/);
  });

  it('agrees again when the session expires in the middle of a request', async () => {
    const before = fake.to('/search/home/', 'POST').length;
    const a = await congress({ skill: 'member', name: 'Expired', chamber: 'senate' });
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🏛️ No congressional trades found by Expired in the Senate/);
    expect(fake.to('/search/home/', 'POST').length - before).toBe(2);
  });
});

describe('member', () => {
  it('finds one member’s PTRs in the House index (annual reports left out), text and JSON', async () => {
    const a = await congress('stock trades by Nancy Pelosi');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^🏛️ Congressional trades by Nancy Pelosi \(filed in the last 365 days\): 4\n/
    );
    for (const s of ['NVDA', 'AAPL', 'MSFT', 'US Treasury Bill [GS]', '🟠 Partial sale']) {
      expect(a.text).toContain(s);
    }
    expect(a.text).not.toContain('Greene');
    expect(fake.to('/public_disc/ptr-pdfs/').some((r) => r.path.includes('10060001'))).toBe(false);
    const senate = fake.to('/search/report/data/', 'POST').at(-1)!;
    expect(senate.form.last_name).toBe('pelosi');
    const j = await congress({ skill: 'member', name: 'Pelosi', year: lastYear }, JSON_OUT);
    const d = j.data as TradesData;
    expect(d.results).toEqual([
      expect.objectContaining({ ticker: 'TSLA', type: 'purchase', owner: 'spouse' }),
    ]);
  });

  it('reads a senator’s e-filed PTR table', async () => {
    const a = await congress('what did Senator Tuberville trade', JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as TradesData & { chamber: string };
    expect(d.skill).toBe('member');
    expect(d.chamber).toBe('senate');
    expect(d.results.map((t) => [t.ticker, t.asset, t.type, t.owner])).toEqual([
      ['NVDA', 'NVIDIA Corporation', 'purchase', 'spouse'],
      [null, 'Alabama St Pub Sch 5% 05/01/2030', 'sale', 'self'],
    ]);
  });
});

describe('recent', () => {
  it('lists the newest reports’ trades from both chambers', async () => {
    const a = await congress('recent congress stock trades');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🏛️ Congressional trades \(filed in the last 30 days\): 6\n/);
    expect(a.text).toMatch(/📄 Reports: 5 of 5 in range read/);
    expect(a.text).toMatch(NOTICE);
  });

  it('follows DataTables pages and says how many reports were past the bound', async () => {
    const before = fake.to('/search/report/data/', 'POST').length;
    const a = await congress({ skill: 'recent', chamber: 'senate', days: 366 }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const pages = fake.to('/search/report/data/', 'POST').slice(before);
    expect(pages.map((p) => p.form.start)).toEqual(['0', '100']);
    const d = a.data as TradesData;
    expect(d.reports.found).toBe(123);
    expect(d.reports.read).toHaveLength(6);
    const t = await congress({ skill: 'recent', chamber: 'senate', days: 366 });
    expect(t.text).toMatch(
      /📄 Reports: 6 of 123 in range read, newest first \(5 parsed\); 117 older not read/
    );
  });
});

describe('search', () => {
  it('matches asset words across members, in text and JSON', async () => {
    const a = await congress('congress trades in Microsoft shares');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^🏛️ Congressional trades matching “Microsoft” \(filed in the last 90 days\): 2\n/
    );
    const j = await congress(
      { skill: 'search', query: 'treasury bill', chamber: 'house' },
      JSON_OUT
    );
    const d = j.data as TradesData;
    expect(d.results).toEqual([
      expect.objectContaining({ asset: 'US Treasury Bill', type: 'partial sale' }),
    ]);
  });
});

describe('the cache', () => {
  it('answers a repeated request from the shared cache, saying so', async () => {
    const first = (await congress({ skill: 'stock', ticker: 'AAPL' }, JSON_OUT)).data as TradesData;
    const before = fake.requests.length;
    const again = await congress({ skill: 'stock', ticker: 'AAPL', format: 'json' });
    expect(fake.requests.length).toBe(before);
    const d = again.data as TradesData;
    expect(d.results).toEqual(first.results);
    expect(d.provenance.every((p) => p.cached)).toBe(true);
  });
});

describe('upstream failures and bad input', () => {
  it('says a year the Clerk has not published has no trades (its 404)', async () => {
    const a = await congress({ skill: 'member', name: 'Pelosi', chamber: 'house', year: 2024 });
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^🏛️ No congressional trades found by Pelosi in the House \(filed in 2024\)/
    );
  });

  it('fails with the source named when an upstream is down, and does not cache it', async () => {
    for (let i = 0; i < 2; i++) {
      const a = await congress({ skill: 'member', name: 'Pelosi', chamber: 'house', year: 2023 });
      expect(a.state).toBe('failed');
      expect(a.statusText).toMatch(
        /^House Clerk \(disclosures-clerk\.house\.gov\) answered HTTP 503/
      );
    }
    expect(fake.to('/public_disc/financial-pdfs/2023FD.zip')).toHaveLength(2);
    const s = await congress({ skill: 'member', name: 'Outage', chamber: 'senate' });
    expect(s.state).toBe('failed');
    expect(s.statusText).toMatch(/^Senate eFD \(efdsearch\.senate\.gov\) answered HTTP 503/);
  });

  it('waits out a short Retry-After on a document, then reads it', async () => {
    const a = await congress({ skill: 'member', name: 'Throttle', year: lastYear }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    expect((a.data as TradesData).results).toEqual([
      expect.objectContaining({ ticker: 'F', type: 'purchase', state: 'OH03' }),
    ]);
    const calls = fake.to(`/public_disc/ptr-pdfs/${lastYear}/20020002.pdf`);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('asks what to do, listing the skills, with the notice', async () => {
    const a = await congress('help');
    expect(a.state).toBe('input-required');
    for (const s of ['Trades in a stock', 'A member’s trades', 'Recent trades', 'Search trades']) {
      expect(a.text).toContain(s);
    }
    expect(a.text).toMatch(NOTICE);
  });

  it('names the field to fix', async () => {
    const bad = await congress({ skill: 'stock', ticker: 'not a ticker' });
    expect(bad.state).toBe('failed');
    expect(bad.statusText).toMatch(/^stock: `ticker`: must be a stock ticker/);
  });
});

describe('discovery and the concierge', () => {
  it('is in the directory with its card, category and skills', async () => {
    const res = await fetch(`${h.url}/agents/agent-congress-trades/.well-known/agent.json`);
    expect(res.status).toBe(200);
    const card = (await res.json()) as { name: string; skills: Array<{ id: string }> };
    expect(card.name).toBe('Congress Trades');
    expect(card.skills.map((s) => s.id)).toEqual(['stock', 'member', 'recent', 'search']);
    const rows = await h.hub
      .sql`select alias, category from agents where id = 'agent-congress-trades'`;
    expect(rows[0]).toMatchObject({ alias: 'congress-trades', category: 'data' });
  });

  it('is where the concierge routes a congressional stock-trades question', async () => {
    const a = await ask(h.url, key, 'concierge', 'which members of congress traded NVDA stock');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^🛎️ Routed to Congress Trades \(congress-trades, agent-congress-trades\)/
    );
    expect(a.text).toContain('🏛️ Congressional trades in NVDA');
  });
});
