// The research agent through a running hub, over the entity graph that the trials, fda, epa and
// patents agents fill from their fixture upstreams: a profile of a company the four fixtures spell
// four ways (filled by asking the agents as the caller), with every dataset, how each name was
// joined (same normalised name, trigram score) and each link's provenance; related entities; the
// cross-dataset query; the graph written by ordinary agent calls, and never failing their replies;
// failures of the agents asked; bad input; discovery and the concierge's research mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { startFakeClinicalTrials } from '../support/fake-clinicaltrials.js';
import { startFakeEcho, type FakeEcho } from '../support/fake-echo.js';
import { startFakeGrants } from '../support/fake-grants.js';
import { startFakeLda } from '../support/fake-lda.js';
import { startFakeOpenFda } from '../support/fake-openfda.js';
import { startFakeOdp } from '../support/fake-patents.js';
import type { FixtureServer } from '../support/fixture-server.js';

const JSON_OUT = { accept: ['application/json'] };
/** The profile's first line, whichever of the fixtures' ACME PHARMA spellings named the node. */
/** A query result naming the company under any of the fixtures' spellings. */
const ACME_ANY_ITEM =
  /\d\. (Acme Pharma( Inc\.| Corporation)?|ACME PHARMACEUTICALS, INC) \(company\)/;
const ACME_HEAD = (rest: string) => new RegExp(`^🕸️ Acme Pharma( Inc\\.| Corporation)? · ${rest}`);
const ODP_KEY = 'odp-test-key';

interface Link {
  dataset: string;
  agentId: string;
  record: string;
  url: string;
  fetchedAt: string;
}
interface ProfileData {
  skill: string;
  entity: { name: string; kind: string };
  members: Array<{
    node: { name: string };
    join: { method: string; score: number; detail?: string; via?: Link };
  }>;
  sightings: Array<Link & { name: string; joinedBy: string }>;
  relations: Array<
    Link & {
      relation: string;
      method: string;
      score: number | null;
      other: { name: string; kind: string; ids: Record<string, string> };
    }
  >;
  datasets: Array<{ dataset: string; agents: string[]; joins: string[] }>;
  asked: Array<{ alias: string; status: string; reason?: string }> | null;
  provenance: Array<{ source: string; url: string; retrievedAt: string; cached: boolean }>;
}

let h: AgentHub;
let ct: FixtureServer;
let fda: FixtureServer;
let echo: FakeEcho;
let odp: FixtureServer;
let grants: FixtureServer;
let lda: FixtureServer;
let key: string;

beforeAll(async () => {
  [ct, fda, echo, odp, grants, lda] = await Promise.all([
    startFakeClinicalTrials(),
    startFakeOpenFda(),
    startFakeEcho(),
    startFakeOdp(ODP_KEY),
    startFakeGrants(),
    startFakeLda(),
  ]);
  h = await startAgentHub({
    TRIALS_URL: `${ct.origin}/api/v2`,
    FDA_URL: fda.origin,
    EPA_URL: `${echo.origin}/echo`,
    PATENTS_URL: odp.origin,
    PATENTS_API_KEY: ODP_KEY,
    RESEARCH_GRANTS_NIH_URL: grants.origin,
    RESEARCH_GRANTS_NSF_URL: `${grants.origin}/services/v1`,
    LOBBYING_URL: `${lda.origin}/api/v1`,
    PUBLIC_DATA_TIMEOUT_MS: '2000',
  });
  key = (await h.agent(await h.tenant('research-e2e'), 'analyst')).key;
});
afterAll(async () => {
  await h?.close();
  await Promise.all([
    ct?.close(),
    fda?.close(),
    echo?.close(),
    odp?.close(),
    grants?.close(),
    lda?.close(),
  ]);
});

const research = (body: string | Record<string, unknown>, o = {}) =>
  ask(h.url, key, 'research', body, o);

describe('profile of a company four datasets spell four ways', () => {
  it('asks the four agents as the caller, then names every dataset and how each name was joined', async () => {
    const a = await research('profile of Acme Pharma');
    expect(a.state, a.statusText).toBe('completed');
    // Each agent asked its upstream about the company.
    expect(ct.to('/api/v2/studies').at(-1)!.params['query.spons']).toBe('Acme Pharma');
    expect(fda.to('/drug/drugsfda.json').at(-1)!.params.search).toBe('sponsor_name:"Acme Pharma"');
    expect(echo.to('/echo/echo_rest_services.get_facilities').at(-1)!.params.p_fn).toBe(
      'Acme Pharma'
    );
    expect(odp.to('/api/v1/patent/applications/search').at(-1)!.params.q).toContain('Acme Pharma');

    // The agents answer in parallel: the node keeps whichever ACME PHARMA spelling came first.
    expect(a.text).toMatch(ACME_HEAD('company profile from the entity graph'));
    expect(a.text).toContain(
      '📚 Datasets (4): ClinicalTrials.gov · EPA ECHO · openFDA · USPTO Open Data Portal'
    );
    expect(a.text).toMatch(
      /• “ACME PHARMACEUTICALS, INC” — name match 0\.50 \(ACME PHARMA ~ ACME PHARMACEUTICALS\), linked when /
    );
    expect(a.text).toMatch(
      /• “ACME PHARMACEUTICALS, INC” — openFDA NDA212345, fetched .*: first sighting \(created the node\)/
    );
    expect(a.text).toMatch(
      /• “Acme Pharma Corporation” — USPTO Open Data Portal 16000401 \(\+1 more\), fetched .*: (same normalised name ACME PHARMA|first sighting \(created the node\))/
    );
    expect(a.text).toMatch(/• sponsors 2 trials \(ClinicalTrials\.gov, stated by the record\):/);
    expect(a.text).toContain('   – Acmeprant for Migraine (study 1) (nct NCT05000301)');
    expect(a.text).toMatch(
      /• is assignee of 2 patents \(USPTO Open Data Portal, stated by the record\)/
    );
    expect(a.text).toMatch(
      /• operates 2 facilities \(EPA ECHO, inferred from names, score 0\.\d\d\):\n {3}– ACME PHARMACEUTICALS NEWARK PLANT \d \(epa_registry 1100000000\d\d\) · 0\.\d\d/
    );
    expect(a.text).toMatch(
      /• holds the FDA application for 1 product \(openFDA, stated by the record\)/
    );
    expect(a.text).toContain(
      '🔄 Asked first: trials ✅ · fda ✅ · epa ✅ · patents ✅ · research-grants ✅ · lobbying ✅'
    );
    // The agents with nothing on the company were asked too, as the caller, and answered empty.
    const nih = JSON.parse(grants.to('/v2/projects/search').at(-1)!.body) as {
      criteria: { org_names?: string[] };
    };
    expect(nih.criteria.org_names).toEqual(['Acme Pharma']);
    expect(grants.to('/services/v1/awards.json').at(-1)!.params.awardeeName).toBe('Acme Pharma');
    expect(lda.to('/api/v1/filings/').at(-1)!.params.client_name).toBe('Acme Pharma');
    expect(a.text).toMatch(/📚 Source: .*ClinicalTrials\.gov \(\d+ requests?, retrieved /);
  });

  it('gives the links and their provenance in JSON', async () => {
    const a = await research({ skill: 'profile', name: 'acme pharma', fill: false }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as ProfileData;
    expect(d.skill).toBe('profile');
    expect(d.asked).toBeNull();
    expect(d.datasets.map((x) => x.dataset)).toEqual([
      'ClinicalTrials.gov',
      'EPA ECHO',
      'openFDA',
      'USPTO Open Data Portal',
    ]);
    const by = Object.fromEntries(d.datasets.map((x) => [x.dataset, x]));
    expect(by['openFDA']!.joins).toContain('name match 0.50');
    expect(by['openFDA']!.agents).toEqual(['agent-fda']);
    expect(by['EPA ECHO']!.joins.some((j) => /^inferred from names 0\.\d\d$/.test(j))).toBe(true);
    // Three datasets spell it ACME PHARMA once normalised: one created the node, two joined it.
    const exact = ['ClinicalTrials.gov', 'USPTO Open Data Portal', 'EPA ECHO'].map(
      (x) => by[x]!.joins
    );
    expect(exact.filter((j) => j.includes('same node'))).toHaveLength(1);
    for (const j of exact)
      expect(j.some((x) => /^same (node|normalised name)$/.test(x))).toBe(true);
    expect(by['ClinicalTrials.gov']!.joins).toContain('stated by the record');

    const fdaName = d.members.find((m) => m.node.name === 'ACME PHARMACEUTICALS, INC')!;
    expect(fdaName.join).toMatchObject({
      method: 'name',
      detail: 'ACME PHARMA ~ ACME PHARMACEUTICALS',
    });
    expect(fdaName.join.score).toBeCloseTo(0.5, 2);
    // The match was made when the second of the two names was written, by whichever came second.
    expect(['openFDA', 'ClinicalTrials.gov', 'USPTO Open Data Portal', 'EPA ECHO']).toContain(
      fdaName.join.via!.dataset
    );
    expect(Date.parse(fdaName.join.via!.fetchedAt)).toBeGreaterThan(Date.now() - 120_000);
    const seen = d.sightings.find((x) => x.name === 'ACME PHARMACEUTICALS, INC')!;
    expect(seen).toMatchObject({ dataset: 'openFDA', agentId: 'agent-fda', record: 'NDA212345' });
    expect(seen.url).toContain(`${fda.origin}/drug/drugsfda.json?`);

    const trial = d.relations.find((r) => r.other.ids.nct === 'NCT05000302')!;
    expect(trial).toMatchObject({
      relation: 'sponsors',
      method: 'record',
      score: null,
      dataset: 'ClinicalTrials.gov',
      agentId: 'agent-trials-official',
      record: 'NCT05000302',
    });
    expect(trial.url).toContain(`${ct.origin}/api/v2/studies?`);
    expect(Date.parse(trial.fetchedAt)).toBeGreaterThan(Date.now() - 120_000);
    const plants = d.relations.filter((r) => r.relation === 'operates');
    expect(plants).toHaveLength(2);
    for (const p of plants) {
      expect(p.method).toBe('name');
      expect(p.score).toBeGreaterThan(0.8);
      expect(p.other.kind).toBe('facility');
    }
    expect(d.relations.filter((r) => r.relation === 'assignee_of')).toHaveLength(2);
    expect(new Set(d.provenance.map((p) => p.source))).toEqual(
      new Set(['ClinicalTrials.gov', 'EPA ECHO', 'openFDA', 'USPTO Open Data Portal'])
    );
    expect(d.provenance.every((p) => p.cached)).toBe(true);
  });

  it('fills again from the agents’ caches, without duplicating the graph', async () => {
    const count = async () =>
      (await h.hub.sql`select count(*)::int as n from entity_nodes`)[0]!.n as number;
    const before = await count();
    const all = () =>
      ct.requests.length + fda.requests.length + echo.requests.length + odp.requests.length;
    const requests = all();
    const a = await research('tell me about Acme Pharma');
    expect(a.state, a.statusText).toBe('completed');
    expect(all()).toBe(requests);
    expect(await count()).toBe(before);
  });
});

describe('related entities', () => {
  it('lists what is one and two links away, each link with its dataset', async () => {
    const a = await research('entities related to Acme Pharma, from the graph only');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🕸️ Related to Acme Pharma( Inc\.| Corporation)? · company/);
    expect(a.text).toContain(
      '• Acmeprant for Migraine (study 1) (trial) — sponsors · ClinicalTrials.gov, stated by the record'
    );
    expect(a.text).toMatch(
      /• Boston Medical Center \(facility\) — via Acmeprant for Migraine \(study \d\): sponsors it \(ClinicalTrials\.gov\); it has a site at Boston Medical Center/
    );
    expect(a.text).toMatch(/• Inventor 401 Alpha \(person\) — via Extended-release triptan tablet/);
    expect(a.text).not.toContain('Asked first');
  });
});

describe('cross-dataset query', () => {
  it('finds companies every named dataset saw, joining names across them', async () => {
    // Ordinary calls of the agents fill the graph too.
    expect((await ask(h.url, key, 'trials', 'trials sponsored by Pfizer')).state).toBe('completed');
    expect((await ask(h.url, key, 'fda', 'drugs by Pfizer')).state).toBe('completed');
    const a = await research('companies seen by trials and fda');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^🕸️ Entity graph, companies seen by ClinicalTrials\.gov and openFDA: 2\n/
    );
    expect(a.text).toMatch(ACME_ANY_ITEM);
    expect(a.text).toContain('Pfizer (company)');
    expect(a.text).toContain('“PFIZER INC” (openFDA)');
    const j = await research(
      { skill: 'query', datasets: ['epa', 'USPTO Open Data Portal', 'openFDA', 'trials'] },
      JSON_OUT
    );
    const d = j.data as { results: Array<{ node: { name: string }; datasets: string[] }> };
    expect(d.results).toHaveLength(1);
    expect(`1. ${d.results[0]!.node.name} (company)`).toMatch(ACME_ANY_ITEM);
    expect(d.results[0]!.datasets).toHaveLength(4);
  });

  it('searches the graph by name, any kind', async () => {
    const a = await research('acmeprant');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toContain('ACMEPRANT (product)');
  });

  it('names an unknown dataset', async () => {
    const a = await research({ skill: 'query', datasets: ['tarot'] });
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(/^query: unknown dataset “tarot”; the graph holds .*openFDA/);
  });
});

describe('the graph under the other agents', () => {
  it('records what an ordinary call fetched, with its identifiers and provenance', async () => {
    const a = await ask(h.url, key, 'trials', 'NCT05000002');
    expect(a.state).toBe('completed');
    const rows = await h.hub.sql`
      select n.kind, n.name, m.agent_id, m.dataset, m.record, m.url
      from entity_identifiers i join entity_nodes n on n.id = i.node_id
      join entity_mentions m on m.node_id = n.id
      where i.scheme = 'nct' and i.value = 'NCT05000002'`;
    expect(rows[0]).toMatchObject({
      kind: 'trial',
      agentId: 'agent-trials-official',
      dataset: 'ClinicalTrials.gov',
      record: 'NCT05000002',
    });
    expect(String(rows[0]!.url)).toContain('/api/v2/studies/NCT05000002');
  });

  it('joins a label’s manufacturer to the sponsor openFDA spells another way', async () => {
    expect((await ask(h.url, key, 'fda', 'acmeprant')).state).toBe('completed');
    const a = await research(
      { skill: 'profile', name: 'ACME PHARMACEUTICALS', kind: 'company', fill: false },
      JSON_OUT
    );
    const d = a.data as ProfileData;
    const label = d.sightings.find((x) => x.name === 'Acme Pharmaceuticals Inc.')!;
    expect(label).toMatchObject({
      dataset: 'openFDA',
      record: 'a1b2c3d4-0004',
      joinedBy: 'same normalised name ACME PHARMACEUTICALS',
    });
    expect(label.url).toContain(`${fda.origin}/drug/label.json?`);
    expect(d.relations.find((r) => r.relation === 'manufactures')).toMatchObject({
      method: 'record',
      record: 'a1b2c3d4-0004',
      other: { name: 'ACMEPRANT', kind: 'product' },
    });
  });

  it('never fails an agent’s reply when the graph cannot be written', async () => {
    await h.hub.sql`alter table entity_mentions rename to entity_mentions_away`;
    try {
      const a = await ask(h.url, key, 'trials', 'asthma trials');
      expect(a.state, a.statusText).toBe('completed');
      expect(a.text).toContain('Tezepelumab');
    } finally {
      await h.hub.sql`alter table entity_mentions_away rename to entity_mentions`;
    }
    const asthma = async () =>
      (
        await h.hub.sql`select count(*)::int as n from entity_identifiers
                       where scheme = 'nct' and value = 'NCT05000201'`
      )[0]!.n as number;
    // The failed write left nothing behind; the same call now writes it (from the answer cache).
    expect(await asthma()).toBe(0);
    expect((await ask(h.url, key, 'trials', 'asthma trials')).state).toBe('completed');
    expect(await asthma()).toBe(1);
  });
});

describe('failures and bad input', () => {
  it('reports each agent that failed while filling, and says when nothing is known', async () => {
    const a = await research('profile of outage');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🕸️ The entity graph knows no entity like “outage”\. Asked first: /);
    const d = (await research({ skill: 'profile', name: 'outage' }, JSON_OUT)).data as ProfileData;
    const st = Object.fromEntries(d.asked!.map((x) => [x.alias, x]));
    expect(st.trials!.status).toBe('answered');
    expect(st.fda!.status).toBe('failed');
    expect(st.fda!.reason).toMatch(/openFDA answered HTTP 500/);
    expect(st.epa!.reason).toMatch(/EPA ECHO answered HTTP 502/);
    expect(st.patents!.status).toBe('failed');
  });

  it('asks nobody for a graph-only profile', async () => {
    const before = ct.requests.length + fda.requests.length + echo.requests.length;
    const a = await research('profile of Globex Corporation from the graph only');
    expect(a.text).toMatch(/^🕸️ The entity graph knows no entity like “Globex Corporation”\./);
    expect(ct.requests.length + fda.requests.length + echo.requests.length).toBe(before);
  });

  it('names the field to fix, and lists its skills when it cannot tell', async () => {
    const bad = await research({ skill: 'profile', name: '' });
    expect(bad.state).toBe('failed');
    expect(bad.statusText).toMatch(/^profile: `name`/);
    const q = await research({ skill: 'query' });
    expect(q.statusText).toMatch(/^query: `text`: give `text` \(names to look for\) or `datasets`/);
    const hi = await research('help');
    expect(hi.state).toBe('input-required');
    for (const s of ['Related entities', 'Entity profile', 'Cross-dataset query']) {
      expect(hi.text).toContain(s);
    }
  });
});

describe('discovery and the concierge', () => {
  it('is in the directory with its card', async () => {
    const res = await fetch(`${h.url}/agents/agent-research/.well-known/agent.json`);
    expect(res.status).toBe(200);
    const card = (await res.json()) as { name: string; skills: Array<{ id: string }> };
    expect(card.skills.map((s) => s.id)).toEqual(['related', 'profile', 'query']);
    const rows = await h.hub.sql`select alias, category from agents where id = 'agent-research'`;
    expect(rows[0]).toMatchObject({ alias: 'research', category: 'data' });
    const found = await ask(
      h.url,
      key,
      'concierge',
      'find: company profile across public datasets'
    );
    expect(found.text).toMatch(/1\. Research \(research, agent-research\)/);
  });

  it('answers the concierge’s research mode when it is the best match', async () => {
    const a = await ask(h.url, key, 'concierge', 'research: company profile of Acme Pharma');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🔎 Research: 1 of 1 agent answered/);
    expect(a.text).toContain('[1] Research (research, agent-research)');
    expect(a.text).toMatch(
      /Acme Pharma( Inc\.| Corporation)? · company profile from the entity graph/
    );
  });
});
