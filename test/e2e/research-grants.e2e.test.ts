// The research-grants agent through a running hub against NIH RePORTER and NSF Award Search
// fixtures: every skill (search, investigator, institution, recent) in text and JSON, rows of both
// sources merged with the source of each, RePORTER's POST search, NSF's 1-based offset and rpp ≤ 25
// and string amounts, the cache (a POST's body in its key), one source failing beside the other,
// both failing, Retry-After, the request rate, input-required, discovery and the concierge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { startFakeGrants } from '../support/fake-grants.js';
import type { FixtureServer } from '../support/fixture-server.js';

interface Provenance {
  source: string;
  endpoint: string;
  params: Record<string, string>;
  url: string;
  cached: boolean;
}
interface Grant {
  source: 'NIH' | 'NSF';
  id: string;
  institution: string;
  investigators: string[];
  amount: number | null;
  startDate?: string;
}
interface GrantsData {
  skill: string;
  totals: Record<string, number | null>;
  failures: Array<{ source: string; message: string }>;
  results: Grant[];
  provenance: Provenance[];
}

const JSON_OUT = { accept: ['application/json'] };
const UA = 'Burrow-test/1.0 (research-grants e2e; ops@example.test)';

let h: AgentHub;
let up: FixtureServer;
let key: string;

beforeAll(async () => {
  up = await startFakeGrants();
  h = await startAgentHub({
    RESEARCH_GRANTS_NIH_URL: up.origin,
    RESEARCH_GRANTS_NSF_URL: `${up.origin}/services/v1`,
    RESEARCH_GRANTS_NIH_REQUESTS_PER_MINUTE: '30',
    PUBLIC_DATA_USER_AGENT: UA,
  });
  key = (await h.agent(await h.tenant('grants-e2e'), 'scientist')).key;
});
afterAll(async () => {
  await h?.close();
  await up?.close();
});

const grants = (body: string | Record<string, unknown>, o = {}) =>
  ask(h.url, key, 'research-grants', body, o);
const nihCalls = () => up.to('/v2/projects/search');
const nsfCalls = () => up.to('/services/v1/awards.json');
const nihBody = (i = -1) =>
  JSON.parse(nihCalls().at(i)!.body) as {
    criteria: Record<string, unknown>;
    offset: number;
    limit: number;
    sort_field: string;
  };

describe('search', () => {
  it('asks both sources and merges their rows, newest first, each naming its source', async () => {
    const a = await grants('research grants on CRISPR');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^🎓 Research grants for “CRISPR”: 10 shown \(found: NIH 17 · NSF 10 read\)\n/
    );
    expect(a.text).toContain('[🧬 NIH] New CRISPR screening platform (1)');
    expect(a.text).toContain('[🔭 NSF] CAREER: CRISPR tools for plant biology');
    expect(a.text).toMatch(
      /📚 Source: NIH RePORTER \(1 request, .*\); NSF Award Search \(1 request/
    );
    const nih = nihCalls().at(-1)!;
    expect(nih.method).toBe('POST');
    expect(nih.headers['user-agent']).toBe(UA);
    expect(nihBody()).toMatchObject({
      criteria: {
        advanced_text_search: {
          operator: 'and',
          search_field: 'projecttitle,terms,abstracttext',
          search_text: 'CRISPR',
        },
      },
      offset: 0,
      limit: 10,
      sort_field: 'project_start_date',
    });
    expect(nsfCalls().at(-1)!.params).toMatchObject({ keyword: 'CRISPR', offset: '1', rpp: '10' });
  });

  it('pages NSF from offset 1 with rpp ≤ 25, and reads its string amounts, in JSON', async () => {
    const before = nsfCalls().length;
    const a = await grants(
      { skill: 'search', query: 'CRISPR', sources: ['nsf'], limit: 30 },
      JSON_OUT
    );
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as GrantsData;
    expect(d.skill).toBe('search');
    expect(d.results).toHaveLength(30);
    expect(d.results.every((g) => g.source === 'NSF' && typeof g.amount === 'number')).toBe(true);
    expect(new Set(d.results.map((g) => g.id)).size).toBe(30);
    const calls = nsfCalls().slice(before);
    expect(calls.map((c) => [c.params.offset, c.params.rpp])).toEqual([
      ['1', '25'],
      ['26', '5'],
    ]);
    expect(d.provenance.map((p) => p.params.offset)).toEqual(['1', '26']);
    expect(d.provenance[0]).toMatchObject({
      source: 'NSF Award Search',
      endpoint: '/awards.json',
      cached: false,
    });
    expect(d.totals).toEqual({ NSF: null });
  });

  it('caches POST searches by their body, and answers a repeat from the cache', async () => {
    const before = nihCalls().length;
    await grants({ skill: 'search', query: 'malaria', sources: ['nih'] });
    await grants({ skill: 'search', query: 'vaccine', sources: ['nih'] });
    expect(nihCalls().length).toBe(before + 2);
    const again = await grants({ skill: 'search', query: 'malaria', sources: ['nih'] }, JSON_OUT);
    expect(nihCalls().length).toBe(before + 2);
    const d = again.data as GrantsData;
    expect(d.provenance[0]).toMatchObject({ source: 'NIH RePORTER', cached: true });
    expect(JSON.parse(d.provenance[0]!.params.criteria!)).toMatchObject({
      advanced_text_search: { search_text: 'malaria' },
    });
    expect(d.results).toHaveLength(4);
  });

  it('says when nothing matches', async () => {
    const a = await grants('research grants on zebrafish fin regrowth');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🎓 No research grants found for “zebrafish fin regrowth”/);
  });
});

describe('investigator', () => {
  it('asks NIH by first and last name and NSF by piFirstName/piLastName, in text and JSON', async () => {
    const a = await grants('grants to PI Jennifer Doudna');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^🎓 Research grants for investigator “Jennifer Doudna”: 3 shown \(found: NIH 2 · NSF 1 read\)\n/
    );
    expect(a.text).toMatch(/1\. \[🔭 NSF\] Collaborative Research: CRISPR in bacterial immunity/);
    expect(a.text).toContain('👤 Jennifer Doudna, Martin Jinek');
    expect(a.text).toContain('💵 $1,250,000 (FY2024)');
    expect(nihBody().criteria.pi_names).toEqual([{ first_name: 'Jennifer', last_name: 'Doudna' }]);
    expect(nsfCalls().at(-1)!.params).toMatchObject({
      piFirstName: 'Jennifer',
      piLastName: 'Doudna',
    });
    const nsfBefore = nsfCalls().length;
    const j = await grants(
      { skill: 'investigator', investigator: 'Doudna', sources: ['nih'] },
      JSON_OUT
    );
    const d = j.data as GrantsData;
    expect(d.results.map((g) => g.source)).toEqual(['NIH', 'NIH']);
    expect(nihBody().criteria.pi_names).toEqual([{ any_name: 'Doudna' }]);
    expect(nsfCalls().length).toBe(nsfBefore);
  });
});

describe('institution', () => {
  it('asks org_names and awardeeName, with a year, in text and JSON', async () => {
    const a = await grants('grants at Johns Hopkins University in 2024');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^🎓 Research grants for “Johns Hopkins University” \(2024\): 3 shown \(found: NIH 2 · NSF 1 read\)/
    );
    expect(nihBody().criteria).toMatchObject({
      org_names: ['Johns Hopkins University'],
      fiscal_years: [2024],
    });
    expect(nsfCalls().at(-1)!.params).toMatchObject({
      awardeeName: 'Johns Hopkins University',
      dateStart: '01/01/2024',
      dateEnd: '12/31/2024',
    });
    const j = await grants(
      {
        skill: 'institution',
        institution: 'Massachusetts Institute of Technology',
        query: 'quantum',
      },
      JSON_OUT
    );
    const d = j.data as GrantsData;
    expect(d.totals).toEqual({ NIH: 0, NSF: null });
    expect(d.results).toHaveLength(3);
    expect(d.results[0]).toMatchObject({
      source: 'NSF',
      institution: 'Massachusetts Institute of Technology',
      amount: 900_000,
    });
  });
});

describe('recent', () => {
  it('asks for starts (NIH) and awards (NSF) since a day, in text and JSON', async () => {
    const since = new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10);
    const a = await grants('recent grants on CRISPR');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      new RegExp(`^🎓 Research grants for “CRISPR” since ${since} \\(last 90 days\\): 4 shown`)
    );
    expect(nihBody().criteria.project_start_date).toEqual({ from_date: since });
    const [y, m, d] = since.split('-');
    expect(nsfCalls().at(-1)!.params.dateStart).toBe(`${m}/${d}/${y}`);
    const j = await grants({ skill: 'recent', days: 365, sources: ['nih'] }, JSON_OUT);
    const data = j.data as GrantsData & { days: number };
    expect(data.days).toBe(365);
    expect(data.results).toHaveLength(3);
    const starts = data.results.map((g) => g.startDate!);
    expect([...starts].sort().reverse()).toEqual(starts);
  });
});

describe('failures', () => {
  it('answers with one source when the other fails, naming it', async () => {
    const a = await grants({ skill: 'search', query: 'nih down' });
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toContain(
      '⚠️ NIH did not answer: NIH RePORTER answered HTTP 500 Internal Server Error; try again later'
    );
    const j = await grants({ skill: 'search', query: 'nih down', format: 'json' });
    expect((j.data as GrantsData).failures).toEqual([
      { source: 'NIH', message: expect.stringMatching(/^NIH RePORTER answered HTTP 500/) },
    ]);
  });

  it('fails the task, naming both, when neither answers', async () => {
    const a = await grants({ skill: 'search', query: 'upstream down' });
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(/NIH RePORTER answered HTTP 500/);
    expect(a.statusText).toMatch(/NSF Award Search answered HTTP 503/);
  });

  it('waits out a short Retry-After from RePORTER, then answers', async () => {
    const a = await grants({ skill: 'search', query: 'throttled', sources: ['nih'] });
    expect(a.state, a.statusText).toBe('completed');
    const calls = nihCalls().filter((c) => c.body.includes('"throttled"'));
    expect(calls).toHaveLength(2);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(950);
  });
});

describe('requests it cannot map, and bad input', () => {
  it('asks what to do, listing the skills', async () => {
    const a = await grants('help');
    expect(a.state).toBe('input-required');
    for (const s of [
      'Grants of an investigator',
      'Grants to an institution',
      'Recent grants',
      'Search grants',
    ]) {
      expect(a.text).toContain(s);
    }
  });

  it('names the field to fix', async () => {
    const a = await grants({ skill: 'recent', sources: ['arxiv'] });
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(/^recent: `sources\.0`/);
    const b = await grants({ skill: 'investigator' });
    expect(b.statusText).toMatch(/^investigator: `investigator`/);
  });
});

describe('discovery and the concierge', () => {
  it('is in the directory with its card, category and skills', async () => {
    const res = await fetch(`${h.url}/agents/agent-research-grants/.well-known/agent.json`);
    expect(res.status).toBe(200);
    const card = (await res.json()) as { name: string; skills: Array<{ id: string }> };
    expect(card.name).toBe('Research Grants');
    expect(card.skills.map((s) => s.id)).toEqual([
      'investigator',
      'institution',
      'recent',
      'search',
    ]);
    const rows = await h.hub
      .sql`select alias, category from agents where id = 'agent-research-grants'`;
    expect(rows[0]).toMatchObject({ alias: 'research-grants', category: 'data' });
  });

  it('is where the concierge routes a research-funding question', async () => {
    const a = await ask(h.url, key, 'concierge', 'NIH and NSF research grants on CRISPR');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^🛎️ Routed to Research Grants \(research-grants, agent-research-grants\)/
    );
    expect(a.text).toContain('🎓 Research grants for “CRISPR”');
  });
});

describe('the entity graph', () => {
  it('records each grant as an award its institution received and its investigators lead', async () => {
    const a = await grants('grants at Johns Hopkins University in 2024');
    expect(a.state, a.statusText).toBe('completed');
    const rows = await h.hub.sql<Array<{ dataset: string; kind: string; n: number }>>`
      select m.dataset, n.kind, count(distinct n.id)::int as n
        from entity_mentions m join entity_nodes n on n.id = m.node_id
       where m.agent_id = 'agent-research-grants' group by 1, 2 order by 1, 2`;
    expect(rows.map((r) => `${r.dataset} ${r.kind}`)).toEqual(
      expect.arrayContaining(['NIH RePORTER award', 'NIH RePORTER company', 'NIH RePORTER person'])
    );
    expect(rows.some((r) => r.dataset === 'NSF Award Search' && r.kind === 'award')).toBe(true);
    const ids = await h.hub.sql<Array<{ scheme: string }>>`
      select distinct scheme from entity_identifiers where scheme in ('nih_project', 'nsf_award')`;
    expect(ids.map((r) => r.scheme).sort()).toEqual(['nih_project', 'nsf_award']);

    // The research agent reads it back: the institution's profile lists the awards it received.
    const p = await ask(h.url, key, 'research', {
      skill: 'profile',
      name: 'Johns Hopkins University',
      fill: false,
    });
    expect(p.state, p.statusText).toBe('completed');
    expect(p.text).toMatch(/• received \d+ awards? \(NIH RePORTER, stated by the record\)/);
  });
});

describe('rate', () => {
  it('kept to RESEARCH_GRANTS_NIH_REQUESTS_PER_MINUTE (a burst of 5, then one every 2 s)', () => {
    const at = nihCalls().map((r) => r.at);
    const seconds = (at.at(-1)! - at[0]!) / 1000;
    expect(at.length).toBeGreaterThan(6);
    expect(at.length).toBeLessThanOrEqual(5 + Math.floor(seconds / 2) + 1);
  });
});
