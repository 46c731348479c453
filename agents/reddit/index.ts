// reddit (agent-reddit): Reddit posts: search, a company's mentions, a subreddit's listing, and
// the sentiment of posts about something (a local classifier: Reddit has no tone of its own).
// The keyless .json listings, or oauth.reddit.com when a client id and secret are set; Reddit's
// User-Agent form; `after` paging; X-Ratelimit-* obeyed; answers cached 1 hour (the spec).
import type { AgentContext } from '../kit/index.js';
import {
  DEFAULT_LIMIT,
  Upstream,
  definePublicDataAgent,
  skill,
  upstreamOptions,
} from '../kit/public-data/index.js';
import { listing, rateHold, type ListingQuery, type Listed } from './listing.js';
import { SOURCE, accessToken, credentials } from './oauth.js';
import {
  CompanyInput,
  SearchInput,
  SentimentInput,
  SubredditInput,
  companyFromText,
  searchFromText,
  sentimentFromText,
  subredditFromText,
} from './parse.js';
import { renderPosts, renderSentiment, type Shown } from './render.js';
import { classify, overall } from './sentiment.js';

/** Posts judged for sentiment unless a limit is given. */
const SENTIMENT_POSTS = 25;
/** The longest a request waits in line for the hub's Reddit budget. */
const MAX_QUEUE_MS = 30_000;

interface Client {
  up: Upstream;
  /** The keyless host wants ".json" on every path; the OAuth host does not. */
  json: boolean;
  oauth: boolean;
}

async function client(ctx: AgentContext): Promise<Client> {
  const s = ctx.config.publicData.reddit;
  const c = credentials(s);
  const base = upstreamOptions(ctx, s, {
    source: SOURCE,
    bucket: c ? 'reddit-oauth' : 'reddit',
    urlSetting: c ? 'REDDIT_OAUTH_URL' : 'REDDIT_URL',
  });
  const o = {
    ...base,
    // Reddit throttles generic agents: it asks for <platform>:<app id>:<version> (by /u/<name>).
    userAgent: s.userAgent,
    cacheTtlMs: s.cacheTtlSeconds * 1000,
    holdAfter: rateHold,
    queueMs: Math.min(
      MAX_QUEUE_MS,
      Math.max(0, ctx.config.agents.deadlineMs - base.timeoutMs - 5_000)
    ),
  };
  if (c === undefined) return { up: new Upstream(o), json: true, oauth: false };
  const token = await accessToken(s, c, {
    timeoutMs: base.timeoutMs,
    signal: ctx.signal,
    now: ctx.now(),
  });
  return {
    up: new Upstream({
      ...o,
      baseUrl: s.oauthUrl,
      secretHeaders: { authorization: `bearer ${token}` },
    }),
    json: false,
    oauth: true,
  };
}

async function fetchPosts(ctx: AgentContext, q: ListingQuery, limit: number) {
  const c = await client(ctx);
  const r = await listing(c.up, q, limit, ctx.config.publicData.maxPages, c.json);
  const posts: Shown[] = r.posts.map((p) => ({
    ...p,
    sentiment: classify(`${p.title}. ${p.excerpt ?? ''}`),
  }));
  return { r, posts, oauth: c.oauth };
}

function data(r: Listed, posts: readonly Shown[], oauth: boolean) {
  return {
    access: oauth ? 'oauth' : 'keyless',
    hiddenOver18: r.hidden,
    ...(r.unavailable ? { unavailable: r.unavailable } : {}),
    results: posts,
  };
}

/** A phrase for Reddit's search: quoted when it has more than one word. */
function phrase(s: string): string {
  const n = s.replace(/"/g, '').trim();
  return /\s/.test(n) ? `"${n}"` : n;
}

export default definePublicDataAgent({
  id: 'agent-reddit',
  alias: 'reddit',
  name: 'Reddit',
  description:
    'Reddit posts and discussions: search Reddit, what redditors say about a company, a ' +
    'subreddit’s hot, new or top posts, and whether posts about something are positive, neutral ' +
    'or negative. Results are cached 1 hour; text or JSON with the source of every answer.',
  tags: ['reddit', 'subreddit', 'social media', 'forums', 'discussions', 'posts', 'sentiment'],
  skills: [
    skill({
      id: 'sentiment',
      name: 'Reddit sentiment',
      description:
        'Whether Reddit posts about something are positive, neutral or negative, by a local ' +
        'classifier over their titles and text (the reply says so), with counts of each.',
      tags: ['sentiment', 'opinion', 'mood', 'positive', 'negative'],
      examples: [
        'how does reddit feel about Tesla this week',
        '{"skill": "sentiment", "query": "Rust async", "subreddit": "rust", "time": "month"}',
      ],
      input: SentimentInput,
      fromText: sentimentFromText,
      async run(input, _req, ctx) {
        const time = input.time ?? 'week';
        const q: ListingQuery = input.subreddit
          ? {
              path: `/r/${input.subreddit}/search`,
              params: {
                q: input.query,
                restrict_sr: '1',
                sort: 'relevance',
                t: time,
                type: 'link',
              },
            }
          : {
              path: '/search',
              params: { q: input.query, sort: 'relevance', t: time, type: 'link' },
            };
        const { r, posts, oauth } = await fetchPosts(ctx, q, input.limit ?? SENTIMENT_POSTS);
        const o = overall(posts.map((p) => p.sentiment));
        const heading = `“${input.query}”${input.subreddit ? ` in r/${input.subreddit}` : ''} (past ${time})`;
        return {
          text: renderSentiment(heading, o, posts, r),
          data: {
            query: input.query,
            subreddit: input.subreddit ?? null,
            time,
            sentiment: o ?? { label: null, method: 'local-afinn', posts: 0 },
            ...data(r, posts, oauth),
          },
          provenance: r.provenance,
        };
      },
    }),
    skill({
      id: 'subreddit',
      name: 'Subreddit posts',
      description:
        'A subreddit’s hot, new or top posts, or a search within it (r/name, or "subreddit name").',
      tags: ['subreddit', 'community', 'hot', 'top', 'new'],
      examples: [
        'top posts in r/rust this week',
        '{"skill": "subreddit", "subreddit": "python", "sort": "new"}',
      ],
      input: SubredditInput,
      fromText: subredditFromText,
      async run(input, _req, ctx) {
        const sort = input.sort ?? (input.query ? undefined : 'hot');
        const q: ListingQuery = input.query
          ? {
              path: `/r/${input.subreddit}/search`,
              params: {
                q: input.query,
                restrict_sr: '1',
                sort: sort ?? 'relevance',
                ...(input.time ? { t: input.time } : {}),
              },
            }
          : {
              path: `/r/${input.subreddit}/${sort}`,
              params: sort === 'top' ? { t: input.time ?? 'day' } : {},
            };
        const { r, posts, oauth } = await fetchPosts(ctx, q, input.limit ?? DEFAULT_LIMIT);
        const what = input.query
          ? `“${input.query}” in r/${input.subreddit}`
          : `r/${input.subreddit} (${sort}${sort === 'top' ? `, past ${input.time ?? 'day'}` : ''})`;
        return {
          text: renderPosts(what, posts, r),
          data: {
            subreddit: input.subreddit,
            query: input.query ?? null,
            sort: sort ?? 'relevance',
            ...data(r, posts, oauth),
          },
          provenance: r.provenance,
        };
      },
    }),
    skill({
      id: 'company',
      name: 'Company on Reddit',
      description:
        'Recent Reddit posts naming a company, newest first, with the subreddits discussing it ' +
        'and the overall sentiment.',
      tags: ['company', 'stock', 'brand', 'business'],
      examples: [
        'reddit posts about the company Nvidia',
        '{"skill": "company", "company": "Boeing", "time": "month"}',
      ],
      input: CompanyInput,
      fromText: companyFromText,
      async run(input, _req, ctx) {
        const time = input.time ?? 'month';
        const { r, posts, oauth } = await fetchPosts(
          ctx,
          {
            path: '/search',
            params: { q: phrase(input.company), sort: 'new', t: time, type: 'link' },
          },
          input.limit ?? DEFAULT_LIMIT
        );
        const subs = new Map<string, number>();
        for (const p of posts) subs.set(p.subreddit, (subs.get(p.subreddit) ?? 0) + 1);
        const subreddits = [...subs]
          .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
          .map(([name, count]) => ({ name, count }));
        const o = overall(posts.map((p) => p.sentiment));
        const heading = `the company “${input.company}” (past ${time}, newest first)`;
        const where =
          subreddits.length > 0
            ? `\n\n🗂️ Discussed in: ${subreddits.map((s) => `r/${s.name} (${s.count})`).join(', ')}` +
              (o ? `\n📊 Overall: ${o.label} (local classifier, mean ${o.meanScore})` : '')
            : '';
        return {
          text: renderPosts(heading, posts, r) + where,
          data: {
            company: input.company,
            time,
            subreddits,
            sentiment: o ?? null,
            ...data(r, posts, oauth),
          },
          provenance: r.provenance,
        };
      },
    }),
    skill({
      id: 'search',
      name: 'Search Reddit',
      description: 'Reddit posts matching words, most relevant first (or newest).',
      tags: ['search', 'posts', 'threads'],
      examples: [
        'reddit threads about mechanical keyboards',
        '{"skill": "search", "query": "home espresso", "sort": "top", "time": "year", "limit": 20}',
      ],
      input: SearchInput,
      fromText: searchFromText,
      async run(input, _req, ctx) {
        const sort = input.sort ?? 'relevance';
        const { r, posts, oauth } = await fetchPosts(
          ctx,
          {
            path: '/search',
            params: {
              q: input.query,
              sort,
              ...(input.time ? { t: input.time } : {}),
              type: 'link',
            },
          },
          input.limit ?? DEFAULT_LIMIT
        );
        const heading = `“${input.query}” (${sort}${input.time ? `, past ${input.time}` : ''})`;
        return {
          text: renderPosts(heading, posts, r),
          data: { query: input.query, sort, time: input.time ?? null, ...data(r, posts, oauth) },
          provenance: r.provenance,
        };
      },
    }),
  ],
});
