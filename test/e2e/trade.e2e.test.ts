// The trade agent through running hubs against Census and UN Comtrade fixtures: every skill
// (exports, imports, country, top partners) in text and JSON; Census's 2-D string arrays with a
// header row and its 204 for no data; Comtrade keyed and through the keyless preview with its
// 500-row cap; HS codes and country names resolved both ways; keys sent but never shown;
// discovery and the concierge routing to it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { COMTRADE_KEY, startFakeCensus, startFakeComtrade } from '../support/fake-trade.js';
import type { FixtureServer } from '../support/fixture-server.js';

interface Provenance {
  source: string;
  endpoint: string;
  params: Record<string, string>;
  url: string;
  cached: boolean;
}
interface Ranked {
  code: string;
  name: string;
  value: number;
}
interface TradeData {
  skill: string;
  source: string;
  access?: string;
  capped?: boolean;
  value: number | null;
  commodity: { code: string; name: string } | null;
  partner?: { code: string | number; name: string } | null;
  topPartners?: Ranked[];
  provenance: Provenance[];
}

const JSON_OUT = { accept: ['application/json'] };
const CENSUS_KEY = 'census-test-key';

let h: AgentHub;
let keyedHub: AgentHub;
let census: FixtureServer;
let comtrade: FixtureServer;
let key: string;
let keyedKey: string;

beforeAll(async () => {
  census = await startFakeCensus();
  comtrade = await startFakeComtrade();
  const env = {
    CENSUS_URL: `${census.origin}/data/timeseries/intltrade`,
    CENSUS_API_KEY: CENSUS_KEY,
    COMTRADE_URL: comtrade.origin,
    CENSUS_REQUESTS_PER_MINUTE: '600',
    COMTRADE_REQUESTS_PER_MINUTE: '600',
  };
  h = await startAgentHub(env);
  keyedHub = await startAgentHub({ ...env, COMTRADE_API_KEY: COMTRADE_KEY });
  key = (await h.agent(await h.tenant('trade-e2e'), 'analyst')).key;
  keyedKey = (await keyedHub.agent(await keyedHub.tenant('trade-keyed'), 'analyst')).key;
});
afterAll(async () => {
  await h?.close();
  await keyedHub?.close();
  await census?.close();
  await comtrade?.close();
});

const trade = (body: string | Record<string, unknown>, o = {}) => ask(h.url, key, 'trade', body, o);
const lastCensus = () => census.requests.at(-1)!;
const lastComtrade = () => comtrade.requests.at(-1)!;

describe('exports and imports (Census)', () => {
  it('reads goods, partner and year from text; asks for December’s year-to-date', async () => {
    const a = await trade('US exports of soybeans to China in 2024');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^🚢 U\.S\. exports of SOYBEANS, WHETHER OR NOT BROKEN \[HS 1201\] in 2024 to CHINA \[5700\]: \$536\.8 million \(\d+\.\d% of \$[\d.]+ billion in all\)/
    );
    expect(a.text).toMatch(/📚 Source: .*U\.S\. Census Bureau international trade \(1 request/);
    expect(lastCensus().path).toBe('/data/timeseries/intltrade/exports/hs');
    expect(lastCensus().params).toMatchObject({
      get: 'CTY_CODE,CTY_NAME,ALL_VAL_YR,E_COMMODITY,E_COMMODITY_LDESC',
      time: '2024-12',
      E_COMMODITY: '1201',
      COMM_LVL: 'HS4',
      key: CENSUS_KEY,
    });
  });

  it('ranks partners without the total and group rows, and never shows the key', async () => {
    const a = await trade({ skill: 'imports', commodity: '2709', period: '2025-03' }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as TradeData;
    expect(lastCensus().params).toMatchObject({
      get: expect.stringContaining('GEN_VAL_MO'),
      time: '2025-03',
    });
    expect(d.commodity).toEqual({
      code: '2709',
      name: 'CRUDE OIL FROM PETROLEUM AND BITUMINOUS MINERALS',
    });
    expect(d.topPartners!.map((p) => p.name)).toEqual([
      'CANADA',
      'MEXICO',
      'CHINA',
      'JAPAN',
      'GERMANY',
    ]);
    // The world total is every country's, beyond the five shown.
    expect(d.value!).toBeGreaterThan(d.topPartners!.reduce((s, p) => s + p.value, 0));
    expect(JSON.stringify(d.provenance)).not.toContain(CENSUS_KEY);
    expect(d.provenance[0]!.params.key).toBeUndefined();
  });

  it('reads Census’s 204 as no data', async () => {
    const before = census.requests.length;
    const a = await trade({ skill: 'exports', commodity: '8471', period: '2026-01' });
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🚢 U\.S\. exports of HS 8471 \[HS 8471\] in 2026-01: no data/);
    expect(census.requests.length).toBe(before + 1);
  });

  it('resolves goods from words through the HS reference, and refuses unknown goods', async () => {
    const a = await trade('US imports of motor cars from Germany in 2024');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^🚢 U\.S\. imports of MOTOR CARS AND VEHICLES FOR TRANSPORTING PERSONS \[HS 8703\] in 2024 from GERMANY \[4280\]/
    );
    expect(comtrade.to('/files/v1/app/reference/HS.json').length).toBeGreaterThan(0);
    const bad = await trade({ skill: 'exports', commodity: 'unobtainium' });
    expect(bad.state).toBe('failed');
    expect(bad.statusText).toMatch(/no HS code matches “unobtainium”/);
  });
});

describe('country and top partners', () => {
  it('gives U.S. trade with a country both ways, its name matched to Census’s own', async () => {
    const before = census.requests.length;
    const a = await trade('US trade with South Korea in 2024');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^🚢 U\.S\. trade with KOREA, SOUTH \[5800\] in 2024\n📤 Exports: \$[\d.]+ \w+ · 📥 Imports: \$[\d.]+ \w+ · ⚖️ Balance: /
    );
    expect(a.text).toContain('Top exports (HS chapters):');
    const calls = census.requests.slice(before);
    expect(calls).toHaveLength(4);
    expect(calls[2]!.params).toMatchObject({ CTY_CODE: '5800', COMM_LVL: 'HS2' });
  });

  it('ranks the U.S.’s top partners for a product', async () => {
    const a = await trade('top export partners of the US for soybeans in 2024', JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as TradeData;
    expect(d.source).toBe('census');
    expect(d.topPartners![0]).toMatchObject({ code: '1220', name: 'CANADA' });
  });
});

describe('UN Comtrade', () => {
  it('asks the keyless preview with M49 codes resolved from names', async () => {
    const a = await trade(
      { skill: 'exports', reporter: 'Germany', partner: 'USA', commodity: '8703', period: '2023' },
      JSON_OUT
    );
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as TradeData;
    expect(lastComtrade().path).toBe('/public/v1/preview/C/A/HS');
    expect(lastComtrade().params).toMatchObject({
      reporterCode: '276',
      partnerCode: '842',
      cmdCode: '8703',
      flowCode: 'X',
    });
    expect(lastComtrade().headers['ocp-apim-subscription-key']).toBeUndefined();
    expect(d).toMatchObject({ source: 'comtrade', access: 'preview', capped: false });
    expect(d.partner).toEqual({ code: 842, name: 'USA' });
    expect(d.value).toBeGreaterThan(0);
  });

  it('says when the preview’s 500-row cap cut the answer', async () => {
    const a = await trade({ skill: 'top-partners', reporter: 'Japan', period: '2023' });
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🚢 Japan exports in 2023: \$100\.39 billion/);
    expect(a.text).toContain("⚠️ UN Comtrade's keyless preview returns at most 500 rows");
    expect(a.text).not.toMatch(/\d\. (World|EU) /);
  });

  it('uses the key when one is set, and never shows it', async () => {
    const a = await ask(
      keyedHub.url,
      keyedKey,
      'trade',
      { skill: 'imports', reporter: 'Japan', partner: 'China', period: '2023' },
      JSON_OUT
    );
    expect(a.state, a.statusText).toBe('completed');
    expect(lastComtrade().path).toBe('/data/v1/get/C/A/HS');
    expect(lastComtrade().headers['ocp-apim-subscription-key']).toBe(COMTRADE_KEY);
    const d = a.data as TradeData;
    expect(d.access).toBe('key');
    expect(JSON.stringify(d)).not.toContain(COMTRADE_KEY);
  });

  it('asks for a year, not a month', async () => {
    const a = await trade({ skill: 'exports', reporter: 'Germany', period: '2023-05' });
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(/UN Comtrade is asked for annual figures: give a year/);
  });
});

describe('failures and the cache', () => {
  it('fails with the source named when Census or Comtrade fails, and caches neither', async () => {
    for (let i = 0; i < 2; i++) {
      const c = await trade({ skill: 'exports', commodity: '9999', period: '2024' });
      expect(c.state).toBe('failed');
      expect(c.statusText).toMatch(
        /^U\.S\. Census Bureau international trade answered HTTP 503 Service Unavailable; try again later/
      );
    }
    expect(census.requests.filter((r) => r.params.E_COMMODITY === '9999')).toHaveLength(2);
    const u = await trade({ skill: 'exports', reporter: 'Germany', period: '2001' });
    expect(u.state).toBe('failed');
    expect(u.statusText).toMatch(/^UN Comtrade answered HTTP 500/);
  });

  it('reads Comtrade’s reference files once, then from the shared cache', async () => {
    // The skills above asked for them; this hub fetched each once (the keyed hub, with its own
    // database, once more).
    expect(comtrade.to('/files/v1/app/reference/HS.json')).toHaveLength(1);
    const refs = comtrade.requests.filter((r) => r.path.startsWith('/files/')).length;
    const a = await trade(
      { skill: 'exports', reporter: 'Japan', partner: 'France', period: '2023' },
      JSON_OUT
    );
    const d = a.data as TradeData;
    expect(
      d.provenance.filter((p) => p.endpoint.startsWith('/files/')).every((p) => p.cached)
    ).toBe(true);
    expect(comtrade.requests.filter((r) => r.path.startsWith('/files/')).length).toBe(refs);
  });
});

describe('bad input, discovery and the concierge', () => {
  it('asks what to do, and names the field to fix', async () => {
    const help = await trade('help');
    expect(help.state).toBe('input-required');
    for (const s of ['Top partners', 'U.S. trade with a country', 'Exports', 'Imports'])
      expect(help.text).toContain(s);
    const bad = await trade({ skill: 'exports', period: '24' });
    expect(bad.statusText).toMatch(/^exports: `period`: must be a year/);
  });

  it('is in the directory, and where the concierge routes a trade question', async () => {
    const res = await fetch(`${h.url}/agents/agent-trade/.well-known/agent.json`);
    const card = (await res.json()) as { skills: Array<{ id: string }> };
    expect(card.skills.map((s) => s.id)).toEqual(['top-partners', 'country', 'exports', 'imports']);
    const a = await ask(h.url, key, 'concierge', 'US exports of soybeans to China in 2024');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🛎️ Routed to Trade \(trade, agent-trade\)/);
  });
});
