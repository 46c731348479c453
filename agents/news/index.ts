// news (agent-news): news from GDELT DOC 2.0: search, a company's news, a topic's coverage (by
// GDELT theme where one fits), and sentiment as positive, neutral or negative, from GDELT's tone
// or else a local classifier, saying which. Answers are cached 4 hours (the spec); GDELT takes one
// request per 5 s per address, so requests wait in line for their turn (data-sources.md §0).
import type { AgentContext } from '../kit/index.js';
import {
  DEFAULT_LIMIT,
  Upstream,
  definePublicDataAgent,
  skill,
  upstreamOptions,
} from '../kit/public-data/index.js';
import { SOURCE, articles, timelineTone, type Article, type NewsQuery } from './gdelt.js';
import {
  CompanyInput,
  DEFAULT_TIMESPAN,
  SearchInput,
  SentimentInput,
  TopicInput,
  companyFromText,
  searchFromText,
  sentimentFromText,
  topicFromText,
} from './parse.js';
import {
  renderArticles,
  renderSentiment,
  scope,
  type Listed,
  type SentimentSummary,
} from './render.js';
import { classify, mean, overall, toneLabel } from './sentiment.js';
import { themeOf } from './topics.js';

/** GDELT documents one request per 5 s per address and a 429 past it. */
const GDELT_INTERVAL_MS = 5_000;
/** Headlines shown with a sentiment answer. */
const SENTIMENT_HEADLINES = 5;

function upstream(ctx: AgentContext): Upstream {
  const s = ctx.config.publicData.news;
  const o = upstreamOptions(ctx, s, { source: SOURCE, bucket: 'gdelt', urlSetting: 'NEWS_URL' });
  return new Upstream({
    ...o,
    cacheTtlMs: s.cacheTtlSeconds * 1000,
    // No burst: GDELT refuses a second request inside its interval.
    burst: 1,
    // Wait in line rather than fail, as long as the answer can still arrive before the deadline.
    queueMs: Math.max(0, ctx.config.agents.deadlineMs - o.timeoutMs - 5_000),
    assumedRetryAfterMs: Math.max(GDELT_INTERVAL_MS, 60_000 / s.requestsPerMinute),
  });
}

/** A name as one GDELT phrase: quoted when it has more than one word. */
function phrase(name: string): string {
  const n = name.replace(/"/g, '').trim();
  return /\s/.test(n) ? `"${n}"` : n;
}

function label(articles: readonly Article[]): Listed[] {
  return articles.map((a) => ({ ...a, sentiment: classify(a.title) }));
}

async function listSkill(
  ctx: AgentContext,
  q: NewsQuery,
  limit: number | undefined,
  sort: 'DateDesc' | 'HybridRel'
) {
  const r = await articles(upstream(ctx), q, limit ?? DEFAULT_LIMIT, sort);
  return { results: label(r.value), note: r.note, provenance: [r.provenance] };
}

function common(q: NewsQuery, note: string | undefined) {
  return {
    country: q.country ?? null,
    timespan: q.timespan,
    gdeltQuery: q.terms,
    ...(note ? { note } : {}),
  };
}

export default definePublicDataAgent({
  id: 'agent-news',
  alias: 'news',
  name: 'News',
  description:
    'News articles from around the world through GDELT: search headlines, a company’s news, a ' +
    'topic’s coverage, and whether coverage is positive, neutral or negative (sentiment). Results ' +
    'are cached 4 hours; text or JSON with the source of every answer.',
  tags: ['news', 'headlines', 'articles', 'media', 'press', 'sentiment', 'gdelt', 'current events'],
  skills: [
    skill({
      id: 'sentiment',
      name: 'News sentiment',
      description:
        'Whether recent news about something is positive, neutral or negative: GDELT’s average ' +
        'tone where it has one, else a local classifier on the headlines; the reply says which.',
      tags: ['sentiment', 'tone', 'positive', 'negative', 'mood'],
      examples: [
        'sentiment about Tesla this week',
        '{"skill": "sentiment", "query": "Boeing", "timespan": "7d"}',
      ],
      input: SentimentInput,
      fromText: sentimentFromText,
      async run(input, _req, ctx) {
        const up = upstream(ctx);
        const q: NewsQuery = {
          terms: phrase(input.query),
          country: input.country,
          timespan: input.timespan ?? DEFAULT_TIMESPAN,
        };
        const tone = await timelineTone(up, q);
        const heads = await articles(up, q, SENTIMENT_HEADLINES, 'DateDesc');
        const headlines = label(heads.value);
        const avg = mean(tone.value.map((p) => p.value));
        const local = overall(headlines.map((h) => h.sentiment.score));
        const summary: SentimentSummary =
          avg !== undefined
            ? {
                label: toneLabel(avg),
                method: 'gdelt-tone',
                tone: avg,
                points: tone.value.length,
                headlines: headlines.length,
              }
            : local !== undefined
              ? {
                  label: local.label,
                  method: 'local-afinn',
                  meanScore: local.mean,
                  headlines: headlines.length,
                }
              : { label: null, method: null, headlines: 0 };
        const note = tone.note ?? heads.note;
        const heading = `“${input.query}” (${scope(q.timespan, q.country)})`;
        return {
          text: renderSentiment(heading, summary, headlines, note),
          data: {
            query: input.query,
            ...common(q, note),
            sentiment: summary,
            headlines,
          },
          provenance: [tone.provenance, heads.provenance],
        };
      },
    }),
    skill({
      id: 'company',
      name: 'Company news',
      description: 'The latest news naming a company, newest first, each headline labelled.',
      tags: ['company', 'business', 'corporate', 'stock'],
      examples: [
        'latest news about the company Nvidia',
        '{"skill": "company", "company": "Boeing", "timespan": "24h"}',
      ],
      input: CompanyInput,
      fromText: companyFromText,
      async run(input, _req, ctx) {
        const q: NewsQuery = {
          terms: phrase(input.company),
          country: input.country,
          timespan: input.timespan ?? DEFAULT_TIMESPAN,
        };
        const r = await listSkill(ctx, q, input.limit, 'DateDesc');
        return {
          text: renderArticles(
            `the company “${input.company}” (${scope(q.timespan, q.country)})`,
            r.results,
            r.note
          ),
          data: { company: input.company, ...common(q, r.note), results: r.results },
          provenance: r.provenance,
        };
      },
    }),
    skill({
      id: 'topic',
      name: 'Topic coverage',
      description:
        'Coverage of a topic (climate change, elections, inflation, …) through GDELT’s own ' +
        'theme tags where one fits, else by its words.',
      tags: ['topic', 'theme', 'coverage', 'climate change', 'elections', 'inflation'],
      examples: [
        'climate change coverage from German media',
        '{"skill": "topic", "topic": "inflation", "country": "United Kingdom"}',
      ],
      input: TopicInput,
      fromText: topicFromText,
      async run(input, _req, ctx) {
        const theme = themeOf(input.topic);
        const q: NewsQuery = {
          terms: theme ? `theme:${theme}` : phrase(input.topic),
          country: input.country,
          timespan: input.timespan ?? DEFAULT_TIMESPAN,
        };
        const r = await listSkill(ctx, q, input.limit, 'HybridRel');
        const how = theme ? `GDELT theme ${theme}` : 'its words; GDELT has no theme for it here';
        return {
          text: renderArticles(
            `the topic “${input.topic}” (${scope(q.timespan, q.country)}; by ${how})`,
            r.results,
            r.note
          ),
          data: {
            topic: input.topic,
            theme: theme ?? null,
            ...common(q, r.note),
            results: r.results,
          },
          provenance: r.provenance,
        };
      },
    }),
    skill({
      id: 'search',
      name: 'Search news',
      description: 'News articles matching words or a "quoted phrase", most relevant first.',
      tags: ['search', 'headlines', 'articles'],
      examples: [
        'news about solid state batteries',
        '{"skill": "search", "query": "wildfires", "language": "english", "limit": 5}',
      ],
      input: SearchInput,
      fromText: searchFromText,
      async run(input, _req, ctx) {
        const q: NewsQuery = {
          terms: input.query,
          country: input.country,
          language: input.language,
          timespan: input.timespan ?? DEFAULT_TIMESPAN,
        };
        const r = await listSkill(ctx, q, input.limit, 'HybridRel');
        return {
          text: renderArticles(
            `“${input.query}” (${scope(q.timespan, q.country)})`,
            r.results,
            r.note
          ),
          data: { query: input.query, ...common(q, r.note), results: r.results },
          provenance: r.provenance,
        };
      },
    }),
  ],
});
