// The trials agent through a running hub against a ClinicalTrials.gov API v2 fixture: every skill
// (search, recruiting, sponsor, nearby, detail) in text and JSON, pageToken paging, the shared
// cache, provenance, the User-Agent, Retry-After, upstream failures, the input-required answer,
// discovery of its card, and the concierge routing to it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { startFakeClinicalTrials } from '../support/fake-clinicaltrials.js';
import type { FixtureServer } from '../support/fixture-server.js';

interface Provenance {
  source: string;
  endpoint: string;
  params: Record<string, string>;
  retrievedAt: string;
  url: string;
  cached: boolean;
}
interface TrialsData {
  skill: string;
  total: number | null;
  results: Array<{
    nctId: string;
    status: string;
    phases: string[];
    sponsor: string;
    conditions: string[];
    nearest?: { miles: number; location: { city: string } };
  }>;
  provenance: Provenance[];
}

const JSON_OUT = { accept: ['application/json'] };
const UA = 'Burrow-test/1.0 (trials e2e; ops@example.test)';

let h: AgentHub;
let ct: FixtureServer;
let key: string;

beforeAll(async () => {
  ct = await startFakeClinicalTrials();
  h = await startAgentHub({
    TRIALS_URL: `${ct.origin}/api/v2`,
    PUBLIC_DATA_USER_AGENT: UA,
    PUBLIC_DATA_TIMEOUT_MS: '1000',
    PUBLIC_DATA_MAX_BYTES: String(256 * 1024),
  });
  key = (await h.agent(await h.tenant('trials-e2e'), 'researcher')).key;
});
afterAll(async () => {
  await h?.close();
  await ct?.close();
});

const trials = (body: string | Record<string, unknown>, o = {}) =>
  ask(h.url, key, 'trials', body, o);
const studyCalls = () => ct.to('/api/v2/studies');

describe('search', () => {
  it('reads the condition and phase from text, through filter.advanced (no filter.phase)', async () => {
    const a = await trials('melanoma phase 3 trials');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🧪 Clinical trials for “melanoma” \(Phase 3\): 10\n/);
    expect(a.text).toContain('🔗 https://clinicaltrials.gov/study/NCT05000003');
    expect(a.text).toContain(
      '🔵 ACTIVE_NOT_RECRUITING · Phase 3 · 🏢 National Cancer Institute (NCI)'
    );
    expect(a.text).toMatch(/📚 Source: ClinicalTrials\.gov \(1 request, retrieved \d{4}-/);
    const call = studyCalls().at(-1)!;
    expect(call.params).toMatchObject({
      'query.term': 'melanoma',
      'filter.advanced': 'AREA[Phase]PHASE3',
      countTotal: 'true',
      format: 'json',
    });
    expect(call.params['filter.phase']).toBeUndefined();
    expect(call.headers['user-agent']).toBe(UA);
  });

  it('follows pageToken to the limit and gives every page’s provenance in JSON', async () => {
    const before = studyCalls().length;
    const a = await trials({ skill: 'search', query: 'melanoma', limit: 25 }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as TrialsData;
    expect(d.skill).toBe('search');
    expect(d.total).toBe(30);
    expect(d.results).toHaveLength(25);
    expect(new Set(d.results.map((r) => r.nctId)).size).toBe(25);
    const calls = studyCalls().slice(before);
    expect(calls.map((c) => c.params.pageSize)).toEqual(['20', '5']);
    expect(calls[0]!.params.pageToken).toBeUndefined();
    expect(calls[1]!.params.pageToken).toBeTruthy();
    expect(d.provenance).toHaveLength(2);
    expect(d.provenance[0]).toMatchObject({
      source: 'ClinicalTrials.gov',
      endpoint: '/studies',
      params: { 'query.term': 'melanoma', pageSize: '20' },
      cached: false,
    });
    expect(d.provenance[0]!.url).toContain(`${ct.origin}/api/v2/studies?`);
    expect(Date.parse(d.provenance[0]!.retrievedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('answers the same request from the shared cache, saying so', async () => {
    const first = (await trials({ skill: 'search', query: 'asthma' }, JSON_OUT)).data as TrialsData;
    const before = ct.requests.length;
    const again = await trials({ skill: 'search', query: 'asthma', format: 'json' });
    expect(ct.requests.length).toBe(before);
    const d = again.data as TrialsData;
    expect(d.results).toEqual(first.results);
    expect(d.provenance[0]).toMatchObject({
      cached: true,
      retrievedAt: first.provenance[0]!.retrievedAt,
    });
    const text = await trials('asthma');
    expect(text.text).toMatch(/📚 Source: ClinicalTrials\.gov \(1 request, retrieved .*, cached\)/);
    expect(ct.requests.length).toBe(before);
    const rows = await h.hub
      .sql`select count(*)::int as n from public_data_cache where source = 'ClinicalTrials.gov'`;
    expect(rows[0]!.n).toBeGreaterThan(0);
  });

  it('says when nothing matches', async () => {
    const a = await trials('zebrafish fin regrowth');
    expect(a.state).toBe('completed');
    expect(a.text).toMatch(/^🧪 No clinical trials found for “zebrafish fin regrowth”/);
  });
});

describe('recruiting', () => {
  it('filters on RECRUITING, in text and JSON', async () => {
    const a = await trials('recruiting type 2 diabetes trials');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🧪 Clinical trials for “type 2 diabetes” \(recruiting\): 2\n/);
    expect(a.text).not.toMatch(/COMPLETED/);
    expect(studyCalls().at(-1)!.params['filter.overallStatus']).toBe('RECRUITING');
    const j = await trials({ skill: 'recruiting', query: 'melanoma', phase: 'PHASE1' }, JSON_OUT);
    const d = j.data as TrialsData;
    expect(d.skill).toBe('recruiting');
    expect(d.results.length).toBeGreaterThan(0);
    for (const r of d.results) {
      expect(r.status).toBe('RECRUITING');
      expect(r.phases).toEqual(['PHASE1']);
    }
  });
});

describe('sponsor', () => {
  it('asks query.spons, in text and JSON', async () => {
    const a = await trials('melanoma trials sponsored by Pfizer');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🧪 Clinical trials for sponsor “Pfizer” and “melanoma”: 10\n/);
    expect(studyCalls().at(-1)!.params).toMatchObject({
      'query.spons': 'Pfizer',
      'query.term': 'melanoma',
    });
    const j = await trials({ skill: 'sponsor', sponsor: 'Merck' }, JSON_OUT);
    const d = j.data as TrialsData;
    expect(d.total).toBe(13);
    expect(d.results.every((r) => r.sponsor === 'Merck Sharp & Dohme LLC')).toBe(true);
  });
});

describe('nearby', () => {
  it('geocodes the place with the hub’s geocoder and filters by distance, nearest first', async () => {
    const a = await trials('recruiting melanoma trials near Boston');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^🧪 Clinical trials for “melanoma” within 50 mi of Boston.*\(recruiting\)/
    );
    expect(a.text).toMatch(
      /📍 Boston Medical Center, Boston, Massachusetts, United States \(\d+\.\d mi\)/
    );
    const geo = studyCalls().at(-1)!.params['filter.geo']!;
    const m = /^distance\((-?[\d.]+),(-?[\d.]+),50mi\)$/.exec(geo)!;
    expect(Math.abs(Number(m[1]) - 42.36)).toBeLessThan(0.2);
    expect(Math.abs(Number(m[2]) + 71.06)).toBeLessThan(0.2);
    const j = await trials(
      { skill: 'nearby', location: 'Chicago', query: 'diabetes', distanceMiles: 25 },
      JSON_OUT
    );
    expect(j.state, j.statusText).toBe('completed');
    const d = j.data as TrialsData & { distanceMiles: number; location: { lat: number } };
    expect(d.distanceMiles).toBe(25);
    expect(d.results.length).toBeGreaterThan(0);
    for (const r of d.results) {
      expect(r.nearest!.location.city).toBe('Chicago');
      expect(r.nearest!.miles).toBeLessThan(25);
    }
    const miles = d.results.map((r) => r.nearest!.miles);
    expect([...miles].sort((x, y) => x - y)).toEqual(miles);
  });

  it('fails, without asking the upstream, for a place the geocoder does not know', async () => {
    const before = ct.requests.length;
    const a = await trials('melanoma trials near Qwxzzyplace');
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(/could not find the place “Qwxzzyplace”/);
    expect(ct.requests.length).toBe(before);
  });
});

describe('detail', () => {
  it('shows one study from its NCT number, in text and JSON', async () => {
    const a = await trials('tell me about nct05000002');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🧪 NCT05000002 · Pembrolizumab for Melanoma \(study 2\)/);
    expect(a.text).toContain('🏢 Sponsor: Pfizer (INDUSTRY)');
    expect(a.text).toContain('📍 Sites (1):');
    expect(ct.to('/api/v2/studies/NCT05000002')).toHaveLength(1);
    const j = await trials({ skill: 'detail', nctId: 'NCT05000002' }, JSON_OUT);
    const d = j.data as {
      trial: { nctId: string; locations: unknown[] };
      provenance: Provenance[];
    };
    expect(d.trial.nctId).toBe('NCT05000002');
    expect(d.provenance[0]).toMatchObject({ endpoint: '/studies/NCT05000002', cached: true });
  });

  it('says when there is no such study (the upstream’s 404)', async () => {
    const a = await trials('NCT09999999');
    expect(a.state).toBe('completed');
    expect(a.text).toMatch(/^🧪 ClinicalTrials\.gov has no study NCT09999999\./);
    const j = await trials({ skill: 'detail', nctId: 'NCT09999999' }, JSON_OUT);
    expect((j.data as { trial: unknown }).trial).toBeNull();
  });
});

describe('requests it cannot map, and bad input', () => {
  it('asks what to do, listing the skills', async () => {
    const a = await trials('help');
    expect(a.state).toBe('input-required');
    expect(a.text).toMatch(/I can:/);
    for (const s of [
      'Search trials',
      'Recruiting trials',
      'Trials by sponsor',
      'Trials near a place',
      'Trial detail',
    ]) {
      expect(a.text).toContain(s);
    }
  });

  it('names the field or skill to fix', async () => {
    const bad = await trials({ skill: 'detail', nctId: '1234' });
    expect(bad.state).toBe('failed');
    expect(bad.statusText).toMatch(/^detail: `nctId`: must be an NCT number/);
    const unknown = await trials({ skill: 'teleport' });
    expect(unknown.statusText).toMatch(/unknown skill "teleport"/);
  });
});

describe('upstream failures', () => {
  it('fails with the source named on a 5xx, and does not cache it', async () => {
    for (let i = 0; i < 2; i++) {
      const a = await trials({ skill: 'search', query: 'upstream down' });
      expect(a.state).toBe('failed');
      expect(a.statusText).toMatch(/^ClinicalTrials\.gov answered HTTP 503 Service Unavailable/);
    }
    expect(studyCalls().filter((c) => c.params['query.term'] === 'upstream down')).toHaveLength(2);
  });

  it('fails when the upstream does not answer in PUBLIC_DATA_TIMEOUT_MS', async () => {
    const a = await trials({ skill: 'search', query: 'slow' });
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(/ClinicalTrials\.gov did not answer within 1000 ms/);
  });

  it('stops reading an answer past PUBLIC_DATA_MAX_BYTES', async () => {
    const a = await trials({ skill: 'search', query: 'huge' });
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(
      /^ClinicalTrials\.gov answered more than 262144 bytes \(PUBLIC_DATA_MAX_BYTES\)/
    );
  });

  it('waits out a short Retry-After, then answers', async () => {
    const a = await trials({ skill: 'search', query: 'throttled' });
    expect(a.state, a.statusText).toBe('completed');
    const calls = studyCalls().filter((c) => c.params['query.term'] === 'throttled');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(950);
  });
});

describe('discovery and the concierge', () => {
  it('is in the directory with its card, category and skills', async () => {
    const res = await fetch(`${h.url}/agents/agent-trials-official/.well-known/agent.json`);
    expect(res.status).toBe(200);
    const card = (await res.json()) as { name: string; skills: Array<{ id: string }> };
    expect(card.name).toBe('Clinical Trials');
    expect(card.skills.map((s) => s.id)).toEqual([
      'detail',
      'nearby',
      'sponsor',
      'recruiting',
      'search',
    ]);
    const rows = await h.hub
      .sql`select alias, category from agents where id = 'agent-trials-official'`;
    expect(rows[0]).toMatchObject({ alias: 'trials', category: 'data' });
  });

  it('is where the concierge routes a clinical-trials question', async () => {
    const a = await ask(h.url, key, 'concierge', 'recruiting melanoma clinical trials near Boston');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🛎️ Routed to Clinical Trials \(trials, agent-trials-official\)/);
    expect(a.text).toContain('🧪 Clinical trials for “melanoma” within 50 mi of Boston');
  });
});
