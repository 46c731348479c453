// The reddit agent through running hubs against a Reddit fixture: every skill (search, company,
// subreddit, sentiment) in text and JSON; the keyless .json listings and the OAuth host with a
// client-credentials token; Reddit's User-Agent form; `after` paging; raw_json; X-Ratelimit-*
// obeyed across requests; the 1-hour cache; over-18 posts left out; private, banned and missing
// subreddits; failures; discovery and the concierge routing to it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { CLIENT, startFakeReddit, type FakeReddit } from '../support/fake-reddit.js';

interface Provenance {
  source: string;
  endpoint: string;
  params: Record<string, string>;
  retrievedAt: string;
  url: string;
  cached: boolean;
}
interface Post {
  id: string;
  title: string;
  subreddit: string;
  score: number;
  permalink: string;
  link: string;
  excerpt?: string;
  sentiment: { label: string; score: number; method: string };
}
interface RedditData {
  skill: string;
  access: string;
  hiddenOver18: number;
  unavailable?: string;
  results: Post[];
  subreddits?: Array<{ name: string; count: number }>;
  sentiment?: { label: string; method: string; meanScore: number; counts: Record<string, number> };
  provenance: Provenance[];
}

const JSON_OUT = { accept: ['application/json'] };
const UA = 'test:burrow-e2e:1.0 (by /u/burrow_tester)';

let h: AgentHub;
let oauthHub: AgentHub;
let r: FakeReddit;
let key: string;
let oauthKey: string;

beforeAll(async () => {
  r = await startFakeReddit(500);
  const common = {
    REDDIT_URL: r.origin,
    REDDIT_OAUTH_URL: r.origin,
    REDDIT_USER_AGENT: UA,
    REDDIT_REQUESTS_PER_MINUTE: '600',
    PUBLIC_DATA_TIMEOUT_MS: '1500',
  };
  h = await startAgentHub(common);
  oauthHub = await startAgentHub({
    ...common,
    REDDIT_CLIENT_ID: CLIENT.id,
    REDDIT_CLIENT_SECRET: CLIENT.secret,
  });
  key = (await h.agent(await h.tenant('reddit-e2e'), 'reader')).key;
  oauthKey = (await oauthHub.agent(await oauthHub.tenant('reddit-oauth-e2e'), 'reader')).key;
});
afterAll(async () => {
  await h?.close();
  await oauthHub?.close();
  await r?.close();
});

const reddit = (body: string | Record<string, unknown>, o = {}) =>
  ask(h.url, key, 'reddit', body, o);
const last = () => r.requests.at(-1)!;

describe('search (keyless .json listings)', () => {
  it('reads words from text, with Reddit’s User-Agent form and raw_json', async () => {
    const a = await reddit('reddit threads about mechanical keyboards');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^👽 Reddit posts for “mechanical keyboards” \(relevance\): 10\n/);
    expect(a.text).toMatch(/📚 Source: Reddit \(1 request, retrieved \d{4}-/);
    expect(last().path).toBe('/search.json');
    expect(last().params).toMatchObject({
      q: 'mechanical keyboards',
      sort: 'relevance',
      raw_json: '1',
    });
    expect(last().headers['user-agent']).toBe(UA);
    expect(last().headers.authorization).toBeUndefined();
  });

  it('follows `after` to the limit, with every page’s provenance', async () => {
    const before = r.requests.length;
    const a = await reddit({ skill: 'search', query: 'mechanical keyboards', limit: 50 }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as RedditData;
    expect(d.access).toBe('keyless');
    expect(d.results).toHaveLength(50);
    expect(new Set(d.results.map((p) => p.id)).size).toBe(50);
    const calls = r.requests.slice(before);
    expect(calls.map((c) => c.params.limit)).toEqual(['25', '25']);
    expect(calls[0]!.params.after).toBeUndefined();
    expect(calls[1]!.params.after).toBe(`t3_${d.results[24]!.id}`);
    expect(d.provenance).toHaveLength(calls.length);
    expect(d.provenance[0]).toMatchObject({
      source: 'Reddit',
      endpoint: '/search.json',
      cached: false,
    });
  });

  it('answers again from the 1-hour cache, saying so', async () => {
    const first = (await reddit({ skill: 'search', query: 'rust', sort: 'top' }, JSON_OUT))
      .data as RedditData;
    const before = r.requests.length;
    const again = (await reddit({ skill: 'search', query: 'rust', sort: 'top', format: 'json' }))
      .data as RedditData;
    expect(r.requests.length).toBe(before);
    expect(again.results).toEqual(first.results);
    expect(again.provenance[0]!.cached).toBe(true);
    const rows = await h.hub.sql<Array<{ ttl: number }>>`
      select extract(epoch from expires_at - retrieved_at)::float8 as ttl
      from public_data_cache where source = 'Reddit'`;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(Math.abs(row.ttl - 3600)).toBeLessThan(60);
  });

  it('reads titles unescaped and leaves posts marked over 18 out', async () => {
    const a = await reddit({ skill: 'search', query: 'tesla' }, JSON_OUT);
    const d = a.data as RedditData;
    expect(d.results.map((p) => p.title)).toContain('Q&A: I love my new Tesla, best car ever');
    expect(d.hiddenOver18).toBe(1);
    expect(d.results.some((p) => p.id === 't5')).toBe(false);
    const t = await reddit('reddit posts about tesla');
    expect(t.text).toContain('🔞 1 post marked over 18 left out.');
  });
});

describe('company', () => {
  it('asks the name newest first over a month, with where it is discussed', async () => {
    const a = await reddit('reddit posts about the company Nvidia');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^👽 Reddit posts for the company “Nvidia” \(past month, newest first\): 3/
    );
    expect(a.text).toContain('🗂️ Discussed in: r/hardware (1), r/nvidia (1), r/stocks (1)');
    expect(last().params).toMatchObject({ q: 'Nvidia', sort: 'new', t: 'month' });
    const j = await reddit({ skill: 'company', company: 'Tesla', time: 'week' }, JSON_OUT);
    const d = j.data as RedditData;
    expect(d.results.map((p) => p.id)).toEqual(['t1', 't2', 't3', 't4']);
    expect(d.subreddits![0]).toEqual({ name: 'electricvehicles', count: 1 });
  });
});

describe('subreddit', () => {
  it('lists a subreddit’s top posts, and searches within it', async () => {
    const a = await reddit('top posts in r/rust this week');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^👽 Reddit posts for r\/rust \(top, past week\): 3\n\n1\. Announcing Rust 1\.99/
    );
    expect(last()).toMatchObject({
      path: '/r/rust/top.json',
      params: expect.objectContaining({ t: 'week' }),
    });
    const j = await reddit({ skill: 'subreddit', subreddit: 'r/rust', query: 'async' }, JSON_OUT);
    const d = j.data as RedditData;
    expect(last()).toMatchObject({
      path: '/r/rust/search.json',
      params: expect.objectContaining({ q: 'async', restrict_sr: '1' }),
    });
    expect(d.results.map((p) => p.title)).toEqual(['Async Rust is finally good']);
    expect(d.results[0]!.link).toBe(d.results[0]!.permalink);
  });

  it('says when a subreddit is private, banned or missing', async () => {
    const priv = await reddit('r/secretclub');
    expect(priv.state, priv.statusText).toBe('completed');
    expect(priv.text).toBe(
      '👽 r/secretclub (hot) is not available on Reddit (private).\n\n' + priv.text.split('\n\n')[1]
    );
    const banned = await reddit({ skill: 'subreddit', subreddit: 'bannedsub' }, JSON_OUT);
    expect((banned.data as RedditData).unavailable).toBe('banned');
    const missing = await reddit({ skill: 'subreddit', subreddit: 'nosuchplace' });
    expect(missing.text).toMatch(
      /^👽 r\/nosuchplace \(hot\) is not available on Reddit \(not found\)/
    );
  });
});

describe('sentiment', () => {
  it('labels posts by the local classifier and says so', async () => {
    const a = await reddit('how does reddit feel about Tesla this week');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^📊 Reddit sentiment about “Tesla” \(past week\): 🔴 negative\n/);
    expect(a.text).toContain('local classifier (AFINN-165');
    expect(a.text).toContain('Reddit has no tone of its own');
    expect(last().params).toMatchObject({ q: 'Tesla', t: 'week', sort: 'relevance' });
    const j = await reddit(
      { skill: 'sentiment', query: 'rust', subreddit: 'rust', time: 'month' },
      JSON_OUT
    );
    const d = j.data as RedditData;
    expect(d.sentiment).toMatchObject({
      method: 'local-afinn',
      label: 'positive',
      counts: { positive: 1, neutral: 1, negative: 0 },
    });
    expect(last()).toMatchObject({ path: '/r/rust/search.json' });
  });
});

describe('Reddit’s rate limits', () => {
  it('holds every request off until X-Ratelimit-Reset once Remaining is 0', async () => {
    const spent = await reddit({ skill: 'search', query: 'window spent' });
    expect(spent.state, spent.statusText).toBe('completed');
    const at = last().at;
    const next = await reddit({ skill: 'search', query: 'borrow checker' });
    expect(next.state, next.statusText).toBe('completed');
    const tries = r.requests.filter((c) => c.params.q === 'borrow checker');
    expect(tries).toHaveLength(1);
    expect(tries[0]!.at - at).toBeGreaterThanOrEqual(1_900);
  });

  it('fails with the source named on a 5xx', async () => {
    const a = await reddit({ skill: 'search', query: 'reddit down' });
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(/^Reddit answered HTTP 503 Service Unavailable/);
  });
});

describe('OAuth client credentials', () => {
  it('gets a token once and asks the OAuth host with it, without .json', async () => {
    const before = r.requests.length;
    const a = await ask(
      oauthHub.url,
      oauthKey,
      'reddit',
      { skill: 'search', query: 'nvidia' },
      JSON_OUT
    );
    expect(a.state, a.statusText).toBe('completed');
    const calls = r.requests.slice(before);
    expect(calls.map((c) => c.path)).toEqual(['/api/v1/access_token', '/search']);
    expect(calls[0]!.headers.authorization).toBe(
      `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`
    );
    expect(calls[0]!.headers['user-agent']).toBe(UA);
    expect(calls[1]!.headers.authorization).toBe(`bearer ${CLIENT.token}`);
    const d = a.data as RedditData;
    expect(d.access).toBe('oauth');
    expect(d.results).toHaveLength(3);
    expect(JSON.stringify(d.provenance)).not.toContain(CLIENT.token);
    const again = await ask(oauthHub.url, oauthKey, 'reddit', 'r/rust', JSON_OUT);
    expect(again.state, again.statusText).toBe('completed');
    expect(r.requests.slice(before).filter((c) => c.path === '/api/v1/access_token')).toHaveLength(
      1
    );
    expect(last().path).toBe('/r/rust/hot');
  });
});

describe('bad input, discovery and the concierge', () => {
  it('asks what to do, and names the field to fix', async () => {
    const help = await reddit('help');
    expect(help.state).toBe('input-required');
    for (const s of ['Reddit sentiment', 'Subreddit posts', 'Company on Reddit', 'Search Reddit']) {
      expect(help.text).toContain(s);
    }
    const bad = await reddit({ skill: 'subreddit', subreddit: 'no such!' });
    expect(bad.statusText).toMatch(/^subreddit: `subreddit`: must be a subreddit name/);
    const time = await reddit({ skill: 'search', query: 'x', time: 'decade' });
    expect(time.statusText).toMatch(/^search: `time`/);
  });

  it('is in the directory, and where the concierge routes a Reddit question', async () => {
    const res = await fetch(`${h.url}/agents/agent-reddit/.well-known/agent.json`);
    const card = (await res.json()) as { name: string; skills: Array<{ id: string }> };
    expect(card.skills.map((s) => s.id)).toEqual(['sentiment', 'subreddit', 'company', 'search']);
    const a = await ask(
      h.url,
      key,
      'concierge',
      'what are people saying on reddit about mechanical keyboards'
    );
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🛎️ Routed to Reddit \(reddit, agent-reddit\)/);
  });
});
