// The search agent through the running hub, against local servers that answer like SearXNG and
// like the Brave search API: 10 results as text and JSON, the cache (counted at the fake upstream),
// upstream failures (HTTP status, not JSON, wrong shape, timeout) that are reported and not cached,
// and a hub with no search service configured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { startFakeBrave, startFakeSearxng, type FakeServer } from '../support/fake-web.js';

interface SearchData {
  query: string;
  provider: string;
  cached: boolean;
  results: Array<{ title: string; url: string; snippet: string }>;
}

const JSON_OUT = { accept: ['application/json'] };

describe('search with SearXNG', () => {
  let h: AgentHub;
  let searx: FakeServer;
  let key: string;

  beforeAll(async () => {
    searx = await startFakeSearxng();
    h = await startAgentHub({
      SEARCH_URL: searx.url,
      SEARCH_PROVIDER: 'searxng',
      SEARCH_TIMEOUT_MS: '1000',
    });
    key = (await h.agent(await h.tenant('search-a'), 'searcher')).key;
  });
  afterAll(async () => {
    await h?.close();
    await searx?.close();
  });

  const search = (body: string | Record<string, unknown>, o = {}) =>
    ask(h.url, key, 'search', body, o);

  it('answers 10 numbered results as text, from the upstream the first time', async () => {
    const a = await search('burrowing owls');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🔎 Results for “burrowing owls” \(SearXNG\)/);
    for (let i = 1; i <= 10; i++) {
      expect(a.text).toContain(`${i}. burrowing owls — result ${i}\n`);
      expect(a.text).toContain(`🔗 https://site${i}.example/burrowing%20owls`);
      expect(a.text).toContain(`About burrowing owls, snippet number ${i}.`);
    }
    expect(a.text).not.toContain('result 11');
    expect(searx.requests).toContain('/searx/search?q=burrowing+owls&format=json');
  });

  it('answers structured JSON, and the same query again from the cache', async () => {
    const first = await search('prairie dogs', JSON_OUT);
    expect(first.state, first.statusText).toBe('completed');
    const d = first.data as SearchData;
    expect(d).toMatchObject({ query: 'prairie dogs', provider: 'searxng', cached: false });
    expect(d.results).toHaveLength(10);
    expect(d.results[0]).toEqual({
      title: 'prairie dogs — result 1',
      url: 'https://site1.example/prairie%20dogs',
      snippet: 'About prairie dogs, snippet number 1.',
    });
    expect(searx.count('/searx/search')).toBeGreaterThan(0);
    const before = searx.requests.length;
    // Same words, other case and spacing, as a JSON request: served from the cache.
    const again = await search({ query: '  Prairie   DOGS ', format: 'json' });
    expect(again.state, again.statusText).toBe('completed');
    expect(again.data).toEqual({ ...d, query: 'Prairie DOGS', cached: true });
    const text = await search('prairie dogs');
    expect(text.text).toMatch(/^🔎 Results for “prairie dogs” \(SearXNG, cached\)/);
    expect(searx.requests.length).toBe(before);
  });

  it('keeps `limit` results', async () => {
    const a = await search({ query: 'moles', limit: 3 }, JSON_OUT);
    expect((a.data as SearchData).results.map((r) => r.title)).toEqual([
      'moles — result 1',
      'moles — result 2',
      'moles — result 3',
    ]);
  });

  it('says when nothing was found', async () => {
    const a = await search('nothing');
    expect(a.state).toBe('completed');
    expect(a.text).toMatch(/No results for “nothing”/);
  });

  it('fails on upstream errors with a clear message, and does not cache them', async () => {
    const cases: Array<[string, RegExp]> = [
      ['fail', /search service \(SearXNG\) answered HTTP 502 Bad Gateway/],
      ['garbage', /did not answer with JSON/],
      ['odd shape', /answered JSON in an unexpected shape/],
    ];
    for (const [q, message] of cases) {
      for (let round = 0; round < 2; round++) {
        const a = await search(q);
        expect(a.state, q).toBe('failed');
        expect(a.statusText).toMatch(message);
      }
      expect(searx.requests.filter((r) => r.includes(`q=${q.replace(' ', '+')}&`))).toHaveLength(2);
    }
  });

  it('fails when the upstream does not answer within SEARCH_TIMEOUT_MS', async () => {
    const started = Date.now();
    const a = await search('slow');
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(/did not answer within 1000 ms \(SEARCH_TIMEOUT_MS\)/);
    expect(Date.now() - started).toBeLessThan(4_500);
  });

  it('refuses an empty query and a bad limit without asking the upstream', async () => {
    const before = searx.requests.length;
    const empty = await search({ query: '   ' });
    expect(empty.state).toBe('failed');
    expect(empty.statusText).toMatch(/query is empty/);
    const blank = await search('   ');
    expect(blank.statusText).toMatch(/query is empty/);
    const limit = await search({ query: 'x', limit: 50 });
    expect(limit.state).toBe('failed');
    expect(limit.statusText).toMatch(/`limit`/);
    expect(searx.requests.length).toBe(before);
  });
});

describe('search with a Brave-compatible API', () => {
  let h: AgentHub;
  let brave: FakeServer;
  let key: string;

  beforeAll(async () => {
    brave = await startFakeBrave('brave-token-1');
    h = await startAgentHub({
      SEARCH_URL: brave.url,
      SEARCH_PROVIDER: 'brave',
      SEARCH_API_KEY: 'brave-token-1',
    });
    key = (await h.agent(await h.tenant('search-b'), 'searcher')).key;
  });
  afterAll(async () => {
    await h?.close();
    await brave?.close();
  });

  it('sends the key and count, and reads web.results without their markup', async () => {
    const a = await ask(h.url, key, 'search', 'garden moles', JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as SearchData;
    expect(d).toMatchObject({ provider: 'brave', cached: false });
    expect(d.results).toHaveLength(10);
    expect(d.results[1]).toEqual({
      title: 'garden moles — result 2',
      url: 'https://site2.example/garden%20moles',
      snippet: 'About garden moles, snippet number 2.',
    });
    expect(brave.requests).toContain('/res/v1/web/search?q=garden+moles&count=10');
    const text = await ask(h.url, key, 'search', 'garden moles');
    expect(text.text).toMatch(/^🔎 Results for “garden moles” \(Brave Search, cached\)/);
    expect(brave.count('/res/v1/web/search')).toBe(1);
  });

  it('names the HTTP status of a refused call', async () => {
    const a = await ask(h.url, key, 'search', 'limited');
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(/Brave Search\) answered HTTP 429 Too Many Requests/);
  });
});

describe('search without a configured service', () => {
  let h: AgentHub;
  let key: string;

  beforeAll(async () => {
    h = await startAgentHub();
    key = (await h.agent(await h.tenant('search-c'), 'searcher')).key;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('says no search service is configured, naming SEARCH_URL, instead of results', async () => {
    for (const o of [{}, JSON_OUT]) {
      const a = await ask(h.url, key, 'search', 'anything at all', o);
      expect(a.state).toBe('failed');
      expect(a.statusText).toMatch(/no search service is configured/);
      expect(a.statusText).toContain('SEARCH_URL');
      expect(a.text).toBe('');
      expect(a.data).toBeUndefined();
    }
  });
});
