// The fda agent through a running hub against an openFDA fixture: every skill (search,
// adverse-events, recent-approvals, sponsor) in text and JSON, skip/limit paging, count= tallies,
// the 404 NOT_FOUND quirk as "no results", the optional api_key (sent, never shown), the cache,
// upstream failures, discovery and the concierge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { startFakeOpenFda } from '../support/fake-openfda.js';
import type { FixtureServer } from '../support/fixture-server.js';

interface Provenance {
  source: string;
  endpoint: string;
  params: Record<string, string>;
  retrievedAt: string;
  url: string;
  cached: boolean;
}
interface App {
  applicationNumber: string;
  sponsor: string;
  approvedOn?: string;
}

const JSON_OUT = { accept: ['application/json'] };
const KEY = 'fda-key-0123456789';

let h: AgentHub;
let fda: FixtureServer;
let key: string;

beforeAll(async () => {
  fda = await startFakeOpenFda({ apiKey: KEY });
  h = await startAgentHub({ FDA_URL: fda.origin, FDA_API_KEY: KEY });
  key = (await h.agent(await h.tenant('fda-e2e'), 'pharmacist')).key;
});
afterAll(async () => {
  await h?.close();
  await fda?.close();
});

const ask_ = (body: string | Record<string, unknown>, o = {}) => ask(h.url, key, 'fda', body, o);
const today = () => new Date().toISOString().slice(0, 10);

describe('search', () => {
  it('finds labels and recalls by brand or generic name, in text', async () => {
    const a = await ask_('ibuprofen');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^💊 openFDA for “ibuprofen”: 2 labels, 1 recall\n/);
    expect(a.text).toContain('1. ADVIL (IBUPROFEN) · Haleon US Holdings LLC · label 2025-06-01');
    expect(a.text).toContain('⚠️ Boxed warning');
    expect(a.text).toContain(
      '🟠 Class II · D-0456-2026 · Ongoing · 2026-03-04 · Example Pharma Inc.'
    );
    expect(a.text).toMatch(/📚 Source: openFDA \(2 requests, retrieved /);
    const label = fda.to('/drug/label.json').at(-1)!;
    expect(label.params.search).toBe(
      'openfda.brand_name:"ibuprofen" OR openfda.generic_name:"ibuprofen"'
    );
    expect(label.params.api_key).toBe(KEY);
  });

  it('answers JSON with provenance that never shows the key', async () => {
    const a = await ask_({ skill: 'search', drug: 'glucophage' }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as {
      skill: string;
      labels: { total: number; results: Array<{ brandName: string; boxedWarning: boolean }> };
      recalls: { total: number; results: unknown[] };
      provenance: Provenance[];
    };
    expect(d.skill).toBe('search');
    expect(d.labels.results).toEqual([
      expect.objectContaining({ brandName: 'GLUCOPHAGE', boxedWarning: true }),
    ]);
    // openFDA's 404 NOT_FOUND for the recalls is "no results", not a failure.
    expect(d.recalls).toEqual({ total: 0, results: [] });
    expect(d.provenance.map((p) => p.endpoint)).toEqual([
      '/drug/label.json',
      '/drug/enforcement.json',
    ]);
    const raw = JSON.stringify(d.provenance);
    expect(raw).not.toContain(KEY);
    expect(raw).not.toContain('api_key');
  });

  it('says when openFDA has nothing (its 404)', async () => {
    const a = await ask_('unobtainium');
    expect(a.state).toBe('completed');
    expect(a.text).toMatch(/^💊 openFDA has no drug labels or recalls for “unobtainium”\./);
  });
});

describe('adverse events', () => {
  it('tallies reactions with count= and the serious reports, in text', async () => {
    const a = await ask_('side effects of ibuprofen, top 3');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^⚠️ Adverse event reports for “ibuprofen” \(FAERS\): 40 reports, 10 serious\n/
    );
    expect(a.text).toContain('1. Nausea — 14');
    expect(a.text).toMatch(/\n3\. \w[\w ]* — 7\n/);
    expect(a.text).not.toContain('\n4. ');
    const calls = fda.to('/drug/event.json').slice(-2);
    expect(calls.map((c) => c.params.count)).toEqual([
      'patient.reaction.reactionmeddrapt.exact',
      'serious',
    ]);
    expect(calls[0]!.params.limit).toBe('3');
  });

  it('answers JSON', async () => {
    const a = await ask_({ skill: 'adverse-events', drug: 'metformin' }, JSON_OUT);
    const d = a.data as {
      reports: { total: number; serious: number };
      reactions: Array<{ term: string; count: number }>;
      provenance: Provenance[];
    };
    expect(d.reports).toEqual({ total: 10, serious: 3 });
    expect(d.reactions.reduce((n, r) => n + r.count, 0)).toBe(10);
    expect(d.provenance).toHaveLength(2);
  });
});

describe('recent approvals', () => {
  it('lists original approvals in the window, newest first, in text', async () => {
    const a = await ask_('recent approvals in the last 30 days');
    expect(a.state, a.statusText).toBe('completed');
    // Approvals every 4 days from today: days 0, 4, …, 28 are inside 30 days.
    expect(a.text).toMatch(
      /^✅ Original FDA drug approvals, \d{4}-\d{2}-\d{2} → \d{4}-\d{2}-\d{2}: 8\n/
    );
    expect(a.text).toContain(`1. ${today()} · PFIZADRUG 1 (EXAMPLEMAB 1) · NDA200000 · PFIZER INC`);
    const call = fda.to('/drug/drugsfda.json').at(-1)!;
    expect(call.params.search).toMatch(
      /^submissions\.submission_type:"ORIG" AND submissions\.submission_status:"AP" AND submissions\.submission_status_date:\[\d{8} TO \d{8}\]$/
    );
    expect(call.params.sort).toBe('submissions.submission_status_date:desc');
  });

  it('pages with skip/limit in JSON, for a range of dates', async () => {
    const before = fda.to('/drug/drugsfda.json').length;
    const from = new Date(Date.now() - 200 * 86_400_000).toISOString().slice(0, 10);
    const a = await ask_({ skill: 'recent-approvals', from, to: today(), limit: 30 }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as { total: number; results: App[]; provenance: Provenance[] };
    expect(d.total).toBe(35);
    expect(d.results).toHaveLength(30);
    const calls = fda.to('/drug/drugsfda.json').slice(before);
    expect(calls.map((c) => [c.params.skip, c.params.limit])).toEqual([
      ['0', '25'],
      ['25', '5'],
    ]);
    expect(d.provenance).toHaveLength(2);
  });
});

describe('sponsor', () => {
  it('lists a sponsor’s applications in text and JSON', async () => {
    const a = await ask_('drugs by Merck');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🏢 FDA drug applications of sponsor “Merck”: 4\n/);
    expect(a.text).toContain('💊 EXAMPLEMAB 32 10MG · TABLET · ORAL');
    expect(fda.to('/drug/drugsfda.json').at(-1)!.params.search).toBe('sponsor_name:"Merck"');
    const j = await ask_({ skill: 'sponsor', sponsor: 'Pfizer', limit: 5 }, JSON_OUT);
    const d = j.data as { total: number; results: App[] };
    expect(d.total).toBe(31);
    expect(d.results).toHaveLength(5);
    expect(d.results.every((r) => r.sponsor === 'PFIZER INC')).toBe(true);
  });
});

describe('cache, failures, unmapped requests', () => {
  it('answers a repeated request from the cache', async () => {
    await ask_({ skill: 'sponsor', sponsor: 'Merck' });
    const before = fda.requests.length;
    const a = await ask_({ skill: 'sponsor', sponsor: 'Merck' }, JSON_OUT);
    expect(fda.requests.length).toBe(before);
    expect((a.data as { provenance: Provenance[] }).provenance[0]!.cached).toBe(true);
  });

  it('fails with the source named on a 5xx', async () => {
    const a = await ask_({ skill: 'search', drug: 'outage' });
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(
      /^openFDA answered HTTP 500 Internal Server Error; try again later/
    );
  });

  it('asks what to do when the text names nothing', async () => {
    const a = await ask_('hello');
    expect(a.state).toBe('input-required');
    for (const s of ['Adverse events', 'Recent approvals', 'Drugs by sponsor', 'Search drugs']) {
      expect(a.text).toContain(s);
    }
  });
});

describe('without FDA_API_KEY', () => {
  it('works, and sends no api_key', async () => {
    const h2 = await startAgentHub({ FDA_URL: fda.origin });
    try {
      const k = (await h2.agent(await h2.tenant('fda-nokey'), 'p')).key;
      const a = await ask(h2.url, k, 'fda', 'advil');
      expect(a.state, a.statusText).toBe('completed');
      expect(fda.to('/drug/label.json').at(-1)!.params.api_key).toBeUndefined();
    } finally {
      await h2.close();
    }
  });
});

describe('discovery and the concierge', () => {
  it('is in the directory with its card and category', async () => {
    const res = await fetch(`${h.url}/agents/agent-fda/.well-known/agent.json`);
    const card = (await res.json()) as { name: string; skills: Array<{ id: string }> };
    expect(card.skills.map((s) => s.id)).toEqual([
      'adverse-events',
      'recent-approvals',
      'sponsor',
      'search',
    ]);
    const rows = await h.hub.sql`select alias, category from agents where id = 'agent-fda'`;
    expect(rows[0]).toMatchObject({ alias: 'fda', category: 'data' });
  });

  it('is where the concierge routes a drug side-effects question', async () => {
    const a = await ask(h.url, key, 'concierge', 'adverse event reports for the drug ibuprofen');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🛎️ Routed to FDA Drugs \(fda, agent-fda\)/);
    expect(a.text).toContain('Adverse event reports for “ibuprofen”');
  });
});
