// The companies agent through a running hub against fixtures of SEC EDGAR, GLEIF (JSON:API paging)
// and UK Companies House (HTTP Basic), plus the ClinicalTrials.gov, openFDA and EPA ECHO fixtures
// for data presence: lookup, officers and presence in text and JSON; Companies House "not
// configured" on a hub without its key; discovery and the concierge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { startFakeEdgar } from '../support/fake-edgar.js';
import { startFakeCompaniesHouse, startFakeGleif } from '../support/fake-registries.js';
import { startFakeClinicalTrials } from '../support/fake-clinicaltrials.js';
import { startFakeOpenFda } from '../support/fake-openfda.js';
import { startFakeEcho } from '../support/fake-echo.js';
import type { FixtureServer } from '../support/fixture-server.js';

const JSON_OUT = { accept: ['application/json'] };
const UA = 'Burrow-test/1.0 (companies e2e; ops@example.test)';
const CH_KEY = 'ch-test-key-123';

let h: AgentHub;
let key: string;
let sec: FixtureServer,
  gleif: FixtureServer,
  ch: FixtureServer,
  ct: FixtureServer,
  fda: FixtureServer,
  echo: FixtureServer;

const upstreams = () => ({
  SEC_URL: sec.origin,
  SEC_DATA_URL: sec.origin,
  SEC_EFTS_URL: `${sec.origin}/LATEST`,
  SEC_USER_AGENT: UA,
  GLEIF_URL: `${gleif.origin}/api/v1`,
  COMPANIES_HOUSE_URL: ch.origin,
  TRIALS_URL: `${ct.origin}/api/v2`,
  FDA_URL: fda.origin,
  EPA_URL: `${echo.origin}/echo`,
});

beforeAll(async () => {
  [sec, gleif, ch, ct, fda, echo] = await Promise.all([
    startFakeEdgar(),
    startFakeGleif(),
    startFakeCompaniesHouse(CH_KEY),
    startFakeClinicalTrials(),
    startFakeOpenFda(),
    startFakeEcho(),
  ]);
  h = await startAgentHub({ ...upstreams(), COMPANIES_HOUSE_API_KEY: CH_KEY });
  key = (await h.agent(await h.tenant('companies-e2e'), 'analyst')).key;
});
afterAll(async () => {
  await h?.close();
  await Promise.all([sec, gleif, ch, ct, fda, echo].map((s) => s?.close()));
});

const companies = (body: string | Record<string, unknown>, o = {}) =>
  ask(h.url, key, 'companies', body, o);

describe('lookup', () => {
  it('finds the company in SEC EDGAR, GLEIF (by its SEC legal name) and Companies House', async () => {
    const a = await companies('look up Pfizer');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🏢 “Pfizer” in company registries\n/);
    expect(a.text).toContain('🇺🇸 SEC EDGAR: PFIZER INC · CIK 78003 · PFE (Nasdaq)');
    expect(a.text).toContain('SIC 2834 Pharmaceutical Preparations · incorporated in DE');
    expect(a.text).toContain('🌐 GLEIF: 1 of 1 LEI records');
    expect(a.text).toContain(
      '765LHXWGK1KXCLTFYQ30 · PFIZER INC · US-DE · ACTIVE/ISSUED · New York, US'
    );
    expect(a.text).toContain('🇬🇧 Companies House: 2 of 2');
    expect(a.text).toContain('00526209 · PFIZER LIMITED · active · since 1953-12-24');
    expect(a.text).toMatch(
      /📚 Source: SEC EDGAR \(2 requests.*; GLEIF \(1 request.*; Companies House \(1 request/
    );
    expect(gleif.requests.at(-1)!.params['filter[entity.legalName]']).toBe('PFIZER INC');
    const chCall = ch.to('/search/companies').at(-1)!;
    expect(chCall.headers.authorization).toBe(
      `Basic ${Buffer.from(`${CH_KEY}:`).toString('base64')}`
    );
  });

  it('follows GLEIF’s page[number] while more records are wanted, and answers JSON', async () => {
    const a = await companies(
      { skill: 'lookup', company: 'Global Trading Limited', limit: 12 },
      JSON_OUT
    );
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as {
      sec: unknown;
      gleif: { total: number; records: Array<{ lei: string }> };
      provenance: Array<{ source: string; params: Record<string, string>; url: string }>;
    };
    expect(d.sec).toBeNull();
    expect(d.gleif.total).toBe(12);
    expect(new Set(d.gleif.records.map((r) => r.lei)).size).toBe(12);
    const pages = d.provenance
      .filter((p) => p.source === 'GLEIF')
      .map((p) => p.params['page[number]']);
    expect(pages).toEqual(['1', '2']);
    expect(d.provenance.some((p) => p.url.includes(CH_KEY))).toBe(false);
  });
});

describe('officers', () => {
  it('lists Companies House officers and the SEC filer’s executives with their sources', async () => {
    const a = await companies('officers of Apple');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toContain('🇺🇸 SEC EDGAR: Apple Inc. (CIK 320193)');
    expect(a.text).toContain(
      'Timothy D. Cook · principal executive officer (latest proxy, ecd:PeoName)'
    );
    expect(a.text).toMatch(/Cook Timothy D · Director, Chief Executive Officer · Form 4 filed/);
    expect(a.text).toContain('🇬🇧 Companies House: no company by that name');
    const j = await companies({ skill: 'officers', companyNumber: '00526209' }, JSON_OUT);
    expect(j.state, j.statusText).toBe('completed');
    const d = j.data as {
      companiesHouse: {
        officers: Array<{ name: string; role: string; resignedOn: string | null }>;
      };
    };
    expect(d.companiesHouse.officers).toEqual([
      expect.objectContaining({ name: 'SMITH, Jane Alice', role: 'director', resignedOn: null }),
      expect.objectContaining({
        name: 'JONES, Robert',
        role: 'secretary',
        resignedOn: '2024-06-30',
      }),
    ]);
    expect(ch.to('/company/00526209/officers')).toHaveLength(1);
  });

  it('names the field to fix', async () => {
    const a = await companies({ skill: 'officers', companyNumber: '12' });
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(/^officers: `companyNumber`: must be a Companies House number/);
  });
});

describe('data presence', () => {
  it('says which datasets hold the company, with identifiers, and which are not configured', async () => {
    const a = await companies('which datasets hold Pfizer');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🧭 Where “Pfizer” appears in the hub’s public datasets:\n/);
    expect(a.text).toContain('✅ SEC EDGAR [sec-filings]: 1 · CIK 78003, PFE');
    expect(a.text).toContain('✅ GLEIF [companies]: 1 · LEI 765LHXWGK1KXCLTFYQ30');
    expect(a.text).toContain('✅ Companies House [companies]: 2 · 00526209 PFIZER LIMITED');
    expect(a.text).toMatch(/✅ ClinicalTrials\.gov \(sponsor\) \[trials\]: \d+ · NCT\d{8}/);
    expect(a.text).toMatch(/✅ openFDA drug applications \(sponsor\) \[fda\]: 31 · NDA\d+/);
    expect(a.text).toContain('— EPA ECHO facilities (name) [epa]: none');
    expect(a.text).toContain(
      '⚙️ USPTO patents (applicant) [patents]: not configured: set PATENTS_API_KEY'
    );
    expect(ct.to('/api/v2/studies').at(-1)!.params['query.spons']).toBe('Pfizer');
    expect(fda.to('/drug/drugsfda.json').at(-1)!.params.search).toBe('sponsor_name:"Pfizer"');
  });

  it('reads ECHO’s query id for facility ids, in JSON', async () => {
    const a = await companies({ skill: 'presence', company: 'Acme Chemical' }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as {
      datasets: Array<{ dataset: string; status: string; ids: string[]; count: number | null }>;
    };
    const epa = d.datasets.find((x) => x.dataset.startsWith('EPA'))!;
    expect(epa.status).toBe('found');
    expect(epa.ids.length).toBeGreaterThan(0);
    expect(d.datasets.find((x) => x.dataset === 'SEC EDGAR')!.status).toBe('none');
    expect(d.datasets.find((x) => x.dataset.startsWith('openFDA'))!.status).toBe('none');
    expect(echo.to('/echo/echo_rest_services.get_qid').length).toBeGreaterThan(0);
  });
});

describe('without a Companies House key', () => {
  it('answers the other registries and says Companies House is not configured', async () => {
    const h2 = await startAgentHub(upstreams());
    try {
      const before = ch.requests.length;
      const k = (await h2.agent(await h2.tenant('companies-nokey'), 'p')).key;
      const a = await ask(h2.url, k, 'companies', 'look up Pfizer');
      expect(a.state, a.statusText).toBe('completed');
      expect(a.text).toContain('🇺🇸 SEC EDGAR: PFIZER INC');
      expect(a.text).toContain('🇬🇧 Companies House: not configured: set COMPANIES_HOUSE_API_KEY');
      const o = await ask(h2.url, k, 'companies', { skill: 'officers', companyNumber: '00526209' });
      expect(o.text).toContain('not configured: set COMPANIES_HOUSE_API_KEY');
      expect(ch.requests.length).toBe(before);
    } finally {
      await h2.close();
    }
  });
});

describe('discovery and the concierge', () => {
  it('asks what to do, and is in the directory with its card', async () => {
    const a = await companies('hello');
    expect(a.state).toBe('input-required');
    const res = await fetch(`${h.url}/agents/agent-companies/.well-known/agent.json`);
    const card = (await res.json()) as { skills: Array<{ id: string }> };
    expect(card.skills.map((s) => s.id)).toEqual(['presence', 'officers', 'lookup']);
  });

  it('is where the concierge routes a company registry question', async () => {
    const c = await ask(
      h.url,
      key,
      'concierge',
      'look up the LEI and company registry records of Pfizer'
    );
    expect(c.state, c.statusText).toBe('completed');
    expect(c.text).toMatch(/^🛎️ Routed to Companies \(companies, agent-companies\)/);
  });
});
