// The lobbying agent through a running hub against an LDA API fixture: every skill (top-spenders,
// company, issue, search) in text and JSON, DRF paging with `next`, amounts as decimal strings or
// null summed over the filings read (amendments folded, the coverage said), the optional token
// (sent, never shown; without it LDA's 15 a minute), a refused token, the cache, Retry-After, a 5xx,
// the input-required answer, discovery and the concierge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { startFakeLda } from '../support/fake-lda.js';
import type { FixtureServer } from '../support/fixture-server.js';

interface Provenance {
  source: string;
  endpoint: string;
  params: Record<string, string>;
  url: string;
  cached: boolean;
}
interface Spender {
  client: string;
  total: number;
  reports: number;
  inHouse: boolean;
}
interface Filing {
  filingUuid: string;
  year: number;
  client: { name: string };
  amount: number | null;
  issues: Array<{ code: string }>;
}

const JSON_OUT = { accept: ['application/json'] };
const TOKEN = 'lda-token-0123456789';

let h: AgentHub;
let lda: FixtureServer;
let key: string;

beforeAll(async () => {
  lda = await startFakeLda({ token: TOKEN });
  h = await startAgentHub({
    LOBBYING_URL: `${lda.origin}/api/v1`,
    LOBBYING_API_KEY: TOKEN,
    PUBLIC_DATA_MAX_PAGES: '2',
  });
  key = (await h.agent(await h.tenant('lobbying-e2e'), 'analyst')).key;
});
afterAll(async () => {
  await h?.close();
  await lda?.close();
});

const lobbying = (body: string | Record<string, unknown>, o = {}) =>
  ask(h.url, key, 'lobbying', body, o);
const calls = () => lda.to('/api/v1/filings/');

describe('top spenders', () => {
  it('sums income and expenses by client over every page, amendments folded, in text', async () => {
    const before = calls().length;
    const a = await lobbying('top lobbying spenders on healthcare in 2025');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^💰 Top lobbying spenders on Health Issues \(HCR\) in 2025: 10 of 23 clients\n/
    );
    expect(a.text).toContain(
      '📊 Over all 33 filings LDA lists. 1 amendment replaced the report amended. ' +
        'Reported in all: $14,220,000.'
    );
    expect(a.text).toContain('1. PFIZER INC · $13,000,000 · 4 reports · in-house');
    expect(a.text).toContain(
      '2. ACME HEALTH SYSTEMS · $510,000 · 4 reports · via AKIN GUMP STRAUSS HAUER & FELD LLP'
    );
    expect(a.text).toMatch(/📚 Source: LDA \(lda\.gov\) \(2 requests, retrieved /);
    const made = calls().slice(before);
    expect(made.map((c) => c.params.page)).toEqual([undefined, '2']);
    expect(made[0]!.params).toMatchObject({
      filing_year: '2025',
      filing_general_issue_code: 'HCR',
      ordering: '-dt_posted',
      page_size: '25',
    });
    expect(made[0]!.headers.authorization).toBe(`Token ${TOKEN}`);
  });

  it('says which filings a partial total covers, in JSON, with every page’s provenance', async () => {
    const a = await lobbying(
      { skill: 'top-spenders', year: 2024, issue: 'healthcare', limit: 3 },
      JSON_OUT
    );
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as {
      skill: string;
      issue: string;
      filingsListed: number;
      filingsRead: number;
      complete: boolean;
      results: Spender[];
      provenance: Provenance[];
    };
    expect(d).toMatchObject({
      skill: 'top-spenders',
      issue: 'HCR',
      filingsListed: 92,
      filingsRead: 50,
      complete: false,
    });
    expect(d.results).toHaveLength(3);
    expect(d.results[0]).toMatchObject({ client: 'PFIZER INC', inHouse: true });
    expect(d.provenance).toHaveLength(2);
    expect(d.provenance[1]).toMatchObject({
      source: 'LDA (lda.gov)',
      endpoint: '/filings/',
      params: { filing_year: '2024', page: '2' },
      cached: false,
    });
    for (const p of d.provenance) expect(JSON.stringify(p)).not.toContain(TOKEN);
    const text = await lobbying({ skill: 'top-spenders', year: 2024, issue: 'HCR' });
    expect(text.text).toContain(
      'Over the 50 most recently posted of 92 filings LDA lists; the totals cover those only.'
    );
  });

  it('counts reports without an amount, and defaults to the last full year', async () => {
    const a = await lobbying({ skill: 'top-spenders', year: 2025 }, JSON_OUT);
    const d = a.data as { totalReported: number; reportsWithoutAmount: number; results: Spender[] };
    expect(d.totalReported).toBe(20_400_000);
    expect(d.reportsWithoutAmount).toBe(4);
    expect(d.results.map((r) => r.client).slice(0, 2)).toEqual([
      'PFIZER INC',
      'CONTOSO TECHNOLOGIES',
    ]);
    await lobbying('biggest lobbying spenders');
    expect(calls().at(-1)!.params.filing_year).toBe(String(new Date().getUTCFullYear() - 1));
  });
});

describe('company', () => {
  it('lists a client’s filings and what it reported, in text and JSON', async () => {
    const a = await lobbying("Pfizer's lobbying in 2025");
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🏛️ Lobbying for client “Pfizer” \(2025\): 4 filings\n/);
    expect(a.text).toContain('💵 Reported: $13,000,000. Over all 4 filings LDA lists.');
    expect(a.text).toContain('🏷️ Issues: Health Issues (HCR) ×4');
    expect(a.text).toContain('🏢 PFIZER INC · 💵 $3,250,000 expenses (in-house)');
    expect(calls().at(-1)!.params).toMatchObject({ client_name: 'Pfizer', filing_year: '2025' });
    const j = await lobbying({ skill: 'company', company: 'Acme', year: 2025 }, JSON_OUT);
    const d = j.data as {
      totalReported: number;
      amendmentsFolded: number;
      filingsListed: number;
      results: Filing[];
    };
    expect(d).toMatchObject({ totalReported: 510_000, amendmentsFolded: 1, filingsListed: 5 });
    expect(d.results).toHaveLength(5);
    expect(d.results.map((f) => f.amount)).toContain(150_000);
  });

  it('waits out LDA’s throttle (429 with Retry-After), then answers', async () => {
    const a = await lobbying({ skill: 'company', company: 'Throttled Corp' });
    expect(a.state, a.statusText).toBe('completed');
    const made = calls().filter((c) => c.params.client_name === 'Throttled Corp');
    expect(made).toHaveLength(2);
    expect(made[1]!.at - made[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('says when LDA has no filings for the client', async () => {
    const a = await lobbying('lobbying by Nonexistent Widgets');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🏛️ No lobbying filings found for client “Nonexistent Widgets”/);
  });
});

describe('the entity graph', () => {
  it('records each filing with its registrant and client, which research reads back', async () => {
    expect((await lobbying({ skill: 'company', company: 'Acme', year: 2025 })).state).toBe(
      'completed'
    );
    const rows = await h.hub.sql<Array<{ relation: string; src: string; dst: string }>>`
      select e.relation, s.name as src, d.name as dst
        from entity_edges e join entity_nodes s on s.id = e.src join entity_nodes d on d.id = e.dst
       where e.agent_id = 'agent-lobbying' order by 1, 2, 3`;
    // same_as too, where the store ties similar names (ACME ~ ACME CORP…).
    const relations = new Set(rows.map((r) => r.relation));
    expect([...relations]).toEqual(
      expect.arrayContaining(['client_of', 'lobbies_for', 'registrant_of'])
    );
    expect(rows.filter((r) => r.relation === 'lobbies_for').every((r) => r.src !== r.dst)).toBe(
      true
    );
    const ids = await h.hub.sql<Array<{ n: number }>>`
      select count(*)::int as n from entity_identifiers where scheme = 'lda_filing'`;
    expect(ids[0]!.n).toBeGreaterThanOrEqual(5);

    const p = await ask(h.url, key, 'research', { skill: 'profile', name: 'Acme', fill: false });
    expect(p.state, p.statusText).toBe('completed');
    expect(p.text).toMatch(/• is the client of \d+ lobbying filings \(.*stated by the record\)/);
    expect(p.text).toMatch(/• is lobbied for by \d+ compan(y|ies) \(/);
  });
});

describe('issue', () => {
  it('lists filings in an issue area with what they lobbied on, in text and JSON', async () => {
    const a = await lobbying('who lobbies on immigration in 2025');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🏛️ Lobbying filings for Immigration \(IMM\), 2025: 8 filings\n/);
    expect(a.text).toContain('📝 H-1B visa program; high-skilled immigration');
    expect(a.text).toContain('💵 no amount reported');
    expect(calls().at(-1)!.params.filing_general_issue_code).toBe('IMM');
    const j = await lobbying({ skill: 'issue', issue: 'TAX', year: 2024, limit: 3 }, JSON_OUT);
    const d = j.data as { issue: string; total: number; results: Filing[] };
    expect(d.issue).toBe('TAX');
    expect(d.total).toBe(8);
    expect(d.results).toHaveLength(3);
    for (const f of d.results) expect(f.issues.map((i) => i.code)).toContain('TAX');
  });
});

describe('search', () => {
  it('finds filings by their specific issues, in text and JSON', async () => {
    const a = await lobbying('lobbying on drone delivery');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🏛️ Lobbying filings for “drone delivery”: 8 filings\n/);
    expect(a.text).toContain('1. AMERICAN DRONE COALITION · 2025 Q4 · 4th Quarter - Report');
    expect(a.text).toContain('📝 Drone delivery rules; FAA reauthorization');
    expect(calls().at(-1)!.params.filing_specific_lobbying_issues).toBe('drone delivery');
    const j = await lobbying({ skill: 'search', query: 'drone delivery', limit: 3 }, JSON_OUT);
    const d = j.data as { total: number; results: Filing[] };
    expect(d.total).toBe(8);
    expect(d.results).toHaveLength(3);
  });

  it('answers a repeated request from the shared cache, saying so', async () => {
    const first = await lobbying({ skill: 'search', query: 'section 174' }, JSON_OUT);
    const before = lda.requests.length;
    const again = await lobbying({ skill: 'search', query: 'section 174', format: 'json' });
    expect(lda.requests.length).toBe(before);
    const p = (again.data as { provenance: Provenance[] }).provenance;
    expect(p[0]!.cached).toBe(true);
    expect((again.data as { results: unknown }).results).toEqual(
      (first.data as { results: unknown }).results
    );
  });

  it('fails with the source named on a 5xx', async () => {
    const a = await lobbying({ skill: 'search', query: 'upstream down' });
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(/^LDA \(lda\.gov\) answered HTTP 503 Service Unavailable/);
  });
});

describe('requests it cannot map, and bad input', () => {
  it('asks what to do, listing the skills', async () => {
    const a = await lobbying('help');
    expect(a.state).toBe('input-required');
    for (const s of [
      'Top lobbying spenders',
      'Company lobbying',
      'Lobbying on an issue',
      'Search lobbying filings',
    ]) {
      expect(a.text).toContain(s);
    }
  });

  it('names the field to fix', async () => {
    const a = await lobbying({ skill: 'issue', issue: 'quantum gravity' });
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(/^issue: `issue`: must be an LDA issue code/);
    const y = await lobbying({ skill: 'top-spenders', year: 1980 });
    expect(y.statusText).toMatch(/^top-spenders: `year`/);
  });
});

describe('without a token, and with a wrong one', () => {
  it('sends no Authorization and keeps to LDA’s 15 requests a minute', async () => {
    const h2 = await startAgentHub({ LOBBYING_URL: `${lda.origin}/api/v1` });
    try {
      const k = (await h2.agent(await h2.tenant('lobbying-anon'), 'a')).key;
      const before = calls().length;
      for (const company of ['Contoso', 'Northwind', 'Pfizer']) {
        const a = await ask(h2.url, k, 'lobbying', { skill: 'company', company, year: 2024 });
        expect(a.state, a.statusText).toBe('completed');
      }
      const made = calls().slice(before);
      expect(made).toHaveLength(3);
      for (const c of made) expect(c.headers.authorization).toBeUndefined();
      // A burst of 2 (ten seconds' worth), then one every 4 s.
      expect(made[2]!.at - made[0]!.at).toBeGreaterThanOrEqual(3_000);
    } finally {
      await h2.close();
    }
  });

  it('says the token was refused', async () => {
    const h3 = await startAgentHub({
      LOBBYING_URL: `${lda.origin}/api/v1`,
      LOBBYING_API_KEY: 'not-the-token',
    });
    try {
      const k = (await h3.agent(await h3.tenant('lobbying-bad'), 'a')).key;
      const a = await ask(h3.url, k, 'lobbying', 'Pfizer lobbying');
      expect(a.state).toBe('failed');
      expect(a.statusText).toMatch(/^LDA \(lda\.gov\) answered HTTP 401.*credentials were refused/);
    } finally {
      await h3.close();
    }
  });
});

describe('discovery and the concierge', () => {
  it('is in the directory with its card, category and skills', async () => {
    const res = await fetch(`${h.url}/agents/agent-lobbying/.well-known/agent.json`);
    expect(res.status).toBe(200);
    const card = (await res.json()) as { name: string; skills: Array<{ id: string }> };
    expect(card.name).toBe('Lobbying Disclosures');
    expect(card.skills.map((s) => s.id)).toEqual(['top-spenders', 'company', 'issue', 'search']);
    const rows = await h.hub.sql`select alias, category from agents where id = 'agent-lobbying'`;
    expect(rows[0]).toMatchObject({ alias: 'lobbying', category: 'data' });
  });

  it('is where the concierge routes a lobbying question', async () => {
    const a = await ask(h.url, key, 'concierge', 'top lobbying spenders on healthcare in 2025');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🛎️ Routed to Lobbying Disclosures \(lobbying, agent-lobbying\)/);
    expect(a.text).toContain('💰 Top lobbying spenders on Health Issues (HCR) in 2025');
  });
});
