// The news agent through a running hub against a GDELT DOC 2.0 fixture: every skill (search,
// company, topic, sentiment) in text and JSON; GDELT's quirks (`{}` for no matches, plain-text
// errors with HTTP 200, FIPS country codes, a 429 without Retry-After past one request per
// interval); requests from many callers waiting in line instead of failing; the 4-hour cache;
// sentiment from GDELT's tone or the local classifier, saying which; failures; discovery and the
// concierge routing to it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { startFakeGdelt, type FakeGdelt } from '../support/fake-gdelt.js';

interface Provenance {
  source: string;
  endpoint: string;
  params: Record<string, string>;
  retrievedAt: string;
  url: string;
  cached: boolean;
}
interface Article {
  title: string;
  url: string;
  domain: string;
  country: string;
  seenAt: string;
  sentiment: { label: string; score: number; method: string };
}
interface NewsData {
  skill: string;
  country: string | null;
  timespan: string;
  gdeltQuery: string;
  note?: string;
  theme?: string | null;
  results: Article[];
  provenance: Provenance[];
}
interface SentimentData extends NewsData {
  sentiment: { label: string; method: string; tone?: number; meanScore?: number };
  headlines: Article[];
}

const JSON_OUT = { accept: ['application/json'] };
const UA = 'Burrow-test/1.0 (news e2e; ops@example.test)';
/** The fixture's GDELT interval, scaled down from 5 s; the hub keeps to 50 a minute (1.2 s). */
const INTERVAL_MS = 1_000;

let h: AgentHub;
let g: FakeGdelt;
let key: string;

beforeAll(async () => {
  g = await startFakeGdelt(INTERVAL_MS);
  h = await startAgentHub({
    NEWS_URL: `${g.origin}/api/v2`,
    NEWS_REQUESTS_PER_MINUTE: '50',
    PUBLIC_DATA_USER_AGENT: UA,
    PUBLIC_DATA_TIMEOUT_MS: '1500',
  });
  key = (await h.agent(await h.tenant('news-e2e'), 'reader')).key;
});
afterAll(async () => {
  await h?.close();
  await g?.close();
});

const news = (body: string | Record<string, unknown>, o = {}) => ask(h.url, key, 'news', body, o);
const calls = () => g.to('/api/v2/doc/doc');

describe('search', () => {
  it('reads words from text and asks ArtList in JSON, with the hub’s User-Agent', async () => {
    const a = await news('news about solid state batteries');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^📰 News for “solid state batteries” \(past 7 days\): 2\n/);
    expect(a.text).toContain('1. Solid state batteries promise longer range');
    expect(a.text).toMatch(
      /🌐 electrek\.co · 📍 United States · 🕒 2026-11-27 08:15 UTC · 🟢 positive/
    );
    expect(a.text).toMatch(/📚 Source: GDELT DOC 2\.0 \(1 request, retrieved \d{4}-/);
    const call = calls().at(-1)!;
    expect(call.params).toMatchObject({
      query: 'solid state batteries',
      mode: 'ArtList',
      format: 'json',
      timespan: '7d',
      sort: 'HybridRel',
    });
    expect(call.headers['user-agent']).toBe(UA);
  });

  it('drops syndicated duplicates and gives provenance in JSON', async () => {
    const a = await news({ skill: 'search', query: 'tesla', language: 'english' }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as NewsData;
    expect(d.skill).toBe('search');
    expect(d.results).toHaveLength(5);
    expect(new Set(d.results.map((r) => r.title)).size).toBe(5);
    expect(calls().at(-1)!.params.query).toBe('tesla sourcelang:english');
    expect(d.results[0]!.seenAt).toMatch(/^2026-11-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(d.results.every((r) => r.sentiment.method === 'local-afinn')).toBe(true);
    expect(d.provenance).toEqual([
      expect.objectContaining({
        source: 'GDELT DOC 2.0',
        endpoint: '/doc/doc',
        params: expect.objectContaining({ mode: 'ArtList', query: 'tesla sourcelang:english' }),
        cached: false,
      }),
    ]);
    expect(d.provenance[0]!.url).toContain(`${g.origin}/api/v2/doc/doc?`);
  });

  it('answers the same request from the cache for 4 hours, saying so', async () => {
    const first = (await news({ skill: 'search', query: 'toyota' }, JSON_OUT)).data as NewsData;
    const before = g.requests.length;
    const again = (await news({ skill: 'search', query: 'toyota', format: 'json' }))
      .data as NewsData;
    expect(g.requests.length).toBe(before);
    expect(again.results).toEqual(first.results);
    expect(again.provenance[0]).toMatchObject({
      cached: true,
      retrievedAt: first.provenance[0]!.retrievedAt,
    });
    const rows = await h.hub.sql<Array<{ ttl: number }>>`
      select extract(epoch from expires_at - retrieved_at)::float8 as ttl
      from public_data_cache where source = 'GDELT DOC 2.0'`;
    for (const r of rows) expect(Math.abs(r.ttl - 4 * 3600)).toBeLessThan(60);
  });

  it('reads GDELT’s `{}` as no matches', async () => {
    const a = await news('news about zebrafish regrowth');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^📰 No news found for “zebrafish regrowth” \(past 7 days\)\.$/m);
  });

  it('reads GDELT’s plain-text error (HTTP 200) as no results, with its words', async () => {
    const a = await news({ skill: 'search', query: 'AI chips' }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as NewsData;
    expect(d.results).toEqual([]);
    expect(d.note).toMatch(/^Your search contained a keyword that was too short/);
    const t = await news('AI chips news');
    expect(t.text).toMatch(/ℹ️ GDELT said: “Your search contained a keyword that was too short/);
  });

  it('sends FIPS country codes (Germany is GM, not DE)', async () => {
    const a = await news('tesla news from German media', JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as NewsData;
    expect(d.country).toBe('GM');
    expect(calls().at(-1)!.params.query).toBe('tesla sourcecountry:GM');
    expect(d.results.map((r) => r.country)).toEqual(['Germany', 'Germany']);
  });
});

describe('company', () => {
  it('asks the name as a phrase, newest first, each headline labelled', async () => {
    const a = await news('latest news about the company Nvidia');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^📰 News for the company “Nvidia” \(past 7 days\): 4\n/);
    expect(a.text).toMatch(/2\. Nvidia wins praise for breakthrough chip design\n.*🟢 positive/);
    expect(calls().at(-1)!.params).toMatchObject({ query: 'Nvidia', sort: 'DateDesc' });
    const j = await news(
      { skill: 'company', company: 'Acme Widgets', country: 'US', limit: 2 },
      JSON_OUT
    );
    const d = j.data as NewsData;
    expect(calls().at(-1)!.params.query).toBe('"Acme Widgets" sourcecountry:US');
    expect(d.results.map((r) => r.title)).toEqual([
      'Acme Widgets wins award for great innovation',
      'Acme Widgets celebrates happy customers and strong growth',
    ]);
  });
});

describe('topic', () => {
  it('uses GDELT’s theme where one fits, else the words', async () => {
    const a = await news('climate change coverage from German media');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(
      /^📰 News for the topic “climate change” \(past 7 days, sources in Germany; by GDELT theme ENV_CLIMATECHANGE\): 2/
    );
    expect(calls().at(-1)!.params.query).toBe('theme:ENV_CLIMATECHANGE sourcecountry:GM');
    const j = await news(
      { skill: 'topic', topic: 'solid state batteries', timespan: '24h' },
      JSON_OUT
    );
    const d = j.data as NewsData;
    expect(d.theme).toBeNull();
    expect(d.gdeltQuery).toBe('"solid state batteries"');
    expect(calls().at(-1)!.params.timespan).toBe('24h');
    expect(d.results).toHaveLength(2);
  });
});

describe('sentiment', () => {
  it('labels from GDELT’s tone where it has one, and says so', async () => {
    const a = await news('sentiment about Tesla this week');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^📊 Sentiment of news about “Tesla” \(past 7 days\): 🔴 negative\n/);
    expect(a.text).toContain('from GDELT’s average tone: -3.02 over 6 points');
    const modes = calls()
      .slice(-2)
      .map((c) => c.params.mode);
    expect(modes).toEqual(['TimelineTone', 'ArtList']);
    const j = await news({ skill: 'sentiment', query: 'Nvidia' }, JSON_OUT);
    const d = j.data as SentimentData;
    expect(d.sentiment).toMatchObject({ label: 'positive', method: 'gdelt-tone' });
    expect(d.headlines.length).toBeGreaterThan(0);
    expect(d.provenance.map((p) => p.params.mode)).toEqual(['TimelineTone', 'ArtList']);
  });

  it('falls back to the local classifier when GDELT has no tone, and says so', async () => {
    const a = await news({ skill: 'sentiment', query: 'Acme Widgets' }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as SentimentData;
    expect(d.sentiment).toMatchObject({ label: 'positive', method: 'local-afinn', meanScore: 7 });
    const t = await news('how positive is the news about Acme Widgets');
    expect(t.text).toMatch(/^📊 Sentiment of news about “Acme Widgets” .*🟢 positive/);
    expect(t.text).toContain('local classifier (AFINN-165');
    expect(t.text).toContain('GDELT had no tone for this query');
  });
});

describe('GDELT’s one request per interval', () => {
  it('serves callers asking at once in turn, never faster than the interval', async () => {
    const refusedBefore = g.refused();
    const before = calls().length;
    const answers = await Promise.all(
      ['germany wind', 'heatwave records', 'rising seas'].map((q) =>
        news({ skill: 'search', query: q })
      )
    );
    for (const a of answers) expect(a.state, a.statusText).toBe('completed');
    expect(g.refused()).toBe(refusedBefore);
    const at = calls()
      .slice(before)
      .map((c) => c.at);
    expect(at).toHaveLength(3);
    for (let i = 1; i < at.length; i++)
      expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(INTERVAL_MS);
  });

  it('holds off after a 429 without Retry-After, then asks again', async () => {
    const a = await news({ skill: 'search', query: 'busyquery' });
    expect(a.state, a.statusText).toBe('completed');
    const tries = calls().filter((c) => c.params.query === 'busyquery');
    expect(tries).toHaveLength(2);
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(4_900);
  });
});

describe('failures and bad input', () => {
  it('fails with the source named on a 5xx, and on no answer in time', async () => {
    const down = await news({ skill: 'search', query: 'gdelt down' });
    expect(down.state).toBe('failed');
    expect(down.statusText).toMatch(/^GDELT DOC 2\.0 answered HTTP 503 Service Unavailable/);
    const slow = await news({ skill: 'search', query: 'slowquery' });
    expect(slow.state).toBe('failed');
    expect(slow.statusText).toMatch(/GDELT DOC 2\.0 did not answer within 1500 ms/);
  });

  it('asks what to do, and names the field to fix', async () => {
    const help = await news('help');
    expect(help.state).toBe('input-required');
    for (const s of ['News sentiment', 'Company news', 'Topic coverage', 'Search news']) {
      expect(help.text).toContain(s);
    }
    const span = await news({ skill: 'search', query: 'tesla', timespan: '1y' });
    expect(span.statusText).toMatch(/^search: `timespan`: must be a span such as 24h/);
    const country = await news({ skill: 'topic', topic: 'inflation', country: 'Atlantis' });
    expect(country.statusText).toMatch(/^topic: `country`: is not a country I know/);
  });
});

describe('discovery and the concierge', () => {
  it('is in the directory with its card, category and skills', async () => {
    const res = await fetch(`${h.url}/agents/agent-news/.well-known/agent.json`);
    expect(res.status).toBe(200);
    const card = (await res.json()) as { name: string; skills: Array<{ id: string }> };
    expect(card.name).toBe('News');
    expect(card.skills.map((s) => s.id)).toEqual(['sentiment', 'company', 'topic', 'search']);
    const rows = await h.hub.sql`select alias, category from agents where id = 'agent-news'`;
    expect(rows[0]).toMatchObject({ alias: 'news', category: 'data' });
  });

  it('is where the concierge routes a news question', async () => {
    const a = await ask(h.url, key, 'concierge', 'news headlines about Toyota');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^🛎️ Routed to News \(news, agent-news\)/);
    expect(a.text).toContain('📰 News for “Toyota”');
  });
});
