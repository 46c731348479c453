// The patents agent through a running hub against patent fixtures: every skill (search, similar,
// detail, assignee) in text and JSON against the USPTO Open Data Portal (X-API-KEY, offset/limit
// paging, 404 as no matches) and against a PatentsView-compatible host (JSON q, cursor paging);
// relevance percentages from the hub's embedder, stated in the reply; "not configured" without a
// key; failures, the cache, discovery and the concierge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { PATENTS, startFakeOdp, startFakePatentsView } from '../support/fake-patents.js';
import type { FixtureServer } from '../support/fixture-server.js';

interface Provenance {
  source: string;
  endpoint: string;
  params: Record<string, string>;
  url: string;
  cached: boolean;
}
interface Result {
  patentNumber?: string;
  applicationNumber?: string;
  title: string;
  assignees: string[];
  relevance: number | null;
}
interface Data {
  skill: string;
  total?: number;
  relevance?: { method: string; embedder?: string; over?: string };
  results: Result[];
  provenance: Provenance[];
}

const JSON_OUT = { accept: ['application/json'] };
const ODP_KEY = 'odp-key-not-for-sharing-1';
const PV_KEY = 'pv-key-2';
const SEARCH = '/api/v1/patent/applications/search';

function descending(xs: Result[]): boolean {
  return xs.every((x, i) => i === 0 || (xs[i - 1]!.relevance ?? 0) >= (x.relevance ?? 0));
}

describe('USPTO Open Data Portal', () => {
  let h: AgentHub;
  let odp: FixtureServer;
  let key: string;

  beforeAll(async () => {
    odp = await startFakeOdp(ODP_KEY);
    h = await startAgentHub({ PATENTS_URL: odp.origin, PATENTS_API_KEY: ODP_KEY });
    key = (await h.agent(await h.tenant('patents-odp'), 'analyst')).key;
  });
  afterAll(async () => {
    await h?.close();
    await odp?.close();
  });

  const patents = (body: string | Record<string, unknown>, o = {}) =>
    ask(h.url, key, 'patents', body, o);

  it('searches a concept in text, ranked by the hub’s embedder, which the reply names', async () => {
    const a = await patents('patents on machine learning models');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^📜 Patents for “machine learning models” \(USPTO Open Data Portal\): 10 of 15\n/
    );
    expect(a.text).toContain(
      "Relevance: the hub's embedder (local-hash-v1) over title and abstract (title alone where USPTO Open Data Portal gives no abstract); USPTO Open Data Portal gives no score."
    );
    expect(a.text).toMatch(/\n1\. \d{1,3}% · US 11,000,0\d\d · Machine learning model training/);
    const call = odp.to(SEARCH).at(-1)!;
    expect(call.params.q).toBe('machine learning models');
    expect(call.headers['x-api-key']).toBe(ODP_KEY);
    expect(call.headers['user-agent']).toMatch(/^Burrow-hub\/1\.0/);
  });

  it('pages with offset/limit and gives relevance on every result in JSON, never the key', async () => {
    const before = odp.to(SEARCH).length;
    const a = await patents(
      { skill: 'search', concept: 'battery electrolyte', limit: 15 },
      JSON_OUT
    );
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as Data;
    expect(d.relevance).toEqual({
      method: 'embedder',
      embedder: 'local-hash-v1',
      over: 'title and abstract',
    });
    expect(d.results).toHaveLength(10);
    expect(d.results.every((r) => r.title.startsWith('Solid-state battery'))).toBe(true);
    expect(d.results.every((r) => typeof r.relevance === 'number' && r.relevance > 0)).toBe(true);
    expect(descending(d.results)).toBe(true);
    // 30 candidates asked: one page of 25 answered all 10 (count 10), so no second page.
    expect(
      odp
        .to(SEARCH)
        .slice(before)
        .map((c) => [c.params.offset, c.params.limit])
    ).toEqual([['0', '25']]);
    expect(JSON.stringify(d.provenance)).not.toContain(ODP_KEY);
    const all = await patents(
      { skill: 'search', concept: 'machine learning quantum battery delivery', limit: 20 },
      JSON_OUT
    );
    const calls = odp.to(SEARCH).slice(before + 1);
    expect(calls.map((c) => [c.params.offset, c.params.limit])).toEqual([
      ['0', '25'],
      ['25', '15'],
    ]);
    expect((all.data as Data).results).toHaveLength(20);
    expect((all.data as Data).total).toBe(40);
  });

  it('finds similar patents to one, without itself, in text and JSON', async () => {
    const a = await patents('patents similar to US 11,000,003');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^📜 Patents similar to US 11,000,003 “Machine learning model training with contrastive neural networks \(3\)” \(USPTO Open Data Portal\): 10\n/
    );
    expect(a.text).not.toMatch(/· US 11,000,003 ·/);
    expect(
      odp.to(SEARCH).some((c) => c.params.q === 'applicationMetaData.patentNumber:11000003')
    ).toBe(true);
    const j = await patents({ skill: 'similar', patent: '11000003', limit: 20 }, JSON_OUT);
    const d = j.data as Data & { of: Result };
    expect(d.of.patentNumber).toBe('11000003');
    expect(d.results).toHaveLength(14);
    expect(d.results.some((r) => r.patentNumber === '11000003')).toBe(false);
    expect(descending(d.results)).toBe(true);
    // Same topic ranks above the rest of the field.
    expect(d.results[0]!.title).toMatch(/contrastive/);
  });

  it('details a patent by number, or an application by its number', async () => {
    const a = await patents('patent 11000102');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^📜 US 11,000,102 · Solid-state battery with sulfide electrolyte layer \(2\)/
    );
    expect(a.text).toContain('🏢 Assignees/applicants: Samsung SDI Co., Ltd.');
    expect(a.text).toContain('🔗 https://patents.google.com/patent/US11000102');
    const j = await patents({ skill: 'detail', patent: '16/000,301' }, JSON_OUT);
    expect(j.state, j.statusText).toBe('completed');
    const d = j.data as { result: Result; provenance: Provenance[] };
    expect(d.result).toMatchObject({ applicationNumber: '16000301', patentNumber: '11000301' });
    expect(d.provenance[0]!.endpoint).toBe('/api/v1/patent/applications/16000301');
    const none = await patents({ skill: 'detail', patent: '16/999,999' });
    expect(none.text).toMatch(/^📜 USPTO Open Data Portal has no application 16999999\./);
  });

  it('lists an assignee’s patents, and ranks them on a topic, in text and JSON', async () => {
    const a = await patents('patents assigned to Amazon Technologies');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^📜 Patents of “Amazon Technologies” \(USPTO Open Data Portal\): 7\nIn USPTO Open Data Portal's order; add a topic for relevance percentages\.\n/
    );
    expect(odp.to(SEARCH).at(-1)!.params.q).toBe(
      'applicationMetaData.firstApplicantName:"Amazon Technologies" OR assignmentBag.assigneeBag.assigneeNameText:"Amazon Technologies"'
    );
    const j = await patents(
      {
        skill: 'assignee',
        assignee: 'International Business Machines',
        concept: 'quantum qubit error correction',
        limit: 8,
      },
      JSON_OUT
    );
    const d = j.data as Data;
    expect(d.total).toBe(
      PATENTS.filter((p) => p.assignee.startsWith('International Business')).length
    );
    expect(d.results).toHaveLength(8);
    expect(d.results.every((r) => r.title.startsWith('Quantum computing'))).toBe(true);
    expect(descending(d.results)).toBe(true);
  });

  it('says when nothing matches (ODP’s 404), and answers again from the cache', async () => {
    const a = await patents('zymurgical flux capacitors');
    expect(a.state).toBe('completed');
    expect(a.text).toMatch(
      /^📜 USPTO Open Data Portal has no patents for “zymurgical flux capacitors”\./
    );
    const before = odp.requests.length;
    const again = await patents(
      { skill: 'search', concept: 'zymurgical flux capacitors' },
      JSON_OUT
    );
    expect(odp.requests.length).toBe(before);
    expect((again.data as Data).provenance[0]!.cached).toBe(true);
  });

  it('fails with the source named on a 5xx, and asks what to do for text it cannot map', async () => {
    const a = await patents({ skill: 'search', concept: 'outage' });
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(/^USPTO Open Data Portal answered HTTP 500 Internal Server Error/);
    const bad = await patents({ skill: 'detail', patent: 'banana' });
    expect(bad.statusText).toMatch(/^detail: `patent`: must be a patent number/);
    const hi = await patents('help');
    expect(hi.state).toBe('input-required');
    for (const s of [
      'Similar patents',
      'Patent detail',
      'Patents by assignee',
      'Search by concept',
    ]) {
      expect(hi.text).toContain(s);
    }
  });

  it('is in the directory with its card, and where the concierge routes a patent question', async () => {
    const res = await fetch(`${h.url}/agents/agent-patents-official/.well-known/agent.json`);
    const card = (await res.json()) as { skills: Array<{ id: string }> };
    expect(card.skills.map((s) => s.id)).toEqual(['similar', 'detail', 'assignee', 'search']);
    const rows = await h.hub
      .sql`select alias, category from agents where id = 'agent-patents-official'`;
    expect(rows[0]).toMatchObject({ alias: 'patents', category: 'data' });
    const c = await ask(h.url, key, 'concierge', 'find patents on solid-state battery inventions');
    expect(c.state, c.statusText).toBe('completed');
    expect(c.text).toMatch(/^🛎️ Routed to Patents \(patents, agent-patents-official\)/);
    expect(c.text).toContain('Solid-state battery');
  });
});

describe('a PatentsView-compatible host', () => {
  let h: AgentHub;
  let pv: FixtureServer;
  let key: string;

  beforeAll(async () => {
    pv = await startFakePatentsView(PV_KEY);
    h = await startAgentHub({
      PATENTS_URL: pv.origin,
      PATENTS_PROVIDER: 'patentsview',
      PATENTS_API_KEY: PV_KEY,
    });
    key = (await h.agent(await h.tenant('patents-pv'), 'analyst')).key;
  });
  afterAll(async () => {
    await h?.close();
    await pv?.close();
  });

  const patents = (body: string | Record<string, unknown>, o = {}) =>
    ask(h.url, key, 'patents', body, o);

  it('searches with the legacy JSON query and follows the `after` cursor', async () => {
    const a = await patents(
      { skill: 'search', concept: 'machine learning quantum battery delivery', limit: 20 },
      JSON_OUT
    );
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as Data;
    expect(d.results).toHaveLength(20);
    expect(d.total).toBe(40);
    expect(descending(d.results)).toBe(true);
    const calls = pv.to('/api/v1/patent/');
    expect(JSON.parse(calls[0]!.params.q!)).toEqual({
      _or: [
        { _text_any: { patent_title: 'machine learning quantum battery delivery' } },
        { _text_any: { patent_abstract: 'machine learning quantum battery delivery' } },
      ],
    });
    expect(calls.map((c) => JSON.parse(c.params.o!) as unknown)).toEqual([
      { size: 25 },
      { size: 15, after: '11000110' },
    ]);
    expect(calls[0]!.headers['x-api-key']).toBe(PV_KEY);
    expect(d.provenance.every((p) => p.source === 'PatentsView')).toBe(true);
  });

  it('answers similar, detail and assignee in text', async () => {
    const s = await patents('patents like 11000301');
    expect(s.state, s.statusText).toBe('completed');
    expect(s.text).toMatch(
      /^📜 Patents similar to US 11,000,301 “Unmanned aerial vehicle package delivery route planning \(1\)” \(PatentsView\): 6\n/
    );
    const d = await patents('US 11,000,105');
    expect(d.text).toMatch(/^📜 US 11,000,105 · Solid-state battery/);
    expect(d.text).toContain('A solid-state lithium battery cell');
    const a = await patents('Tesla’s patents on sulfide electrolytes');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^📜 Patents of “Tesla” on “sulfide electrolytes” \(PatentsView\): 5\n/);
    expect(JSON.parse(pv.to('/api/v1/patent/').at(-1)!.params.q!)).toEqual({
      _contains: { 'assignees.assignee_organization': 'Tesla' },
    });
  });
});

describe('without PATENTS_API_KEY', () => {
  it('says it is not configured, and asks nobody', async () => {
    const odp = await startFakeOdp(ODP_KEY);
    const h = await startAgentHub({ PATENTS_URL: odp.origin });
    try {
      const key = (await h.agent(await h.tenant('patents-nokey'), 'a')).key;
      const a = await ask(h.url, key, 'patents', 'solid-state batteries');
      expect(a.state).toBe('failed');
      expect(a.statusText).toMatch(
        /^not configured: set PATENTS_API_KEY \(a USPTO Open Data Portal key/
      );
      const j = await ask(h.url, key, 'patents', { skill: 'assignee', assignee: 'IBM' });
      expect(j.statusText).toMatch(/^not configured: set PATENTS_API_KEY/);
      expect(odp.requests).toHaveLength(0);
    } finally {
      await h.close();
      await odp.close();
    }
  });
});
