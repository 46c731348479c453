// Reddit listings (data-sources.md "reddit"): GET /search.json, /r/{sub}/search.json?restrict_sr=1
// and /r/{sub}/{hot,new,top}.json on www.reddit.com, or the same paths without .json on
// oauth.reddit.com with a bearer token. `{kind:"Listing",data:{after,children:[{kind:"t3",data}]}}`
// is followed through `after` up to the page bound. A missing, private or banned subreddit (404,
// 403 with a `reason`) is "no such subreddit", not an error.
import { z } from 'zod';
import { UnavailableError } from '../../runtime/errors/index.js';
import { readPages, type Provenance, type Upstream } from '../kit/public-data/index.js';
import { SOURCE } from './oauth.js';

/** Posts asked per page: Reddit's default page (it allows 100). */
export const PAGE_SIZE = 25;

export interface Post {
  id: string;
  title: string;
  subreddit: string;
  author: string;
  score: number;
  comments: number;
  /** ISO 8601 from created_utc. */
  createdAt: string;
  /** The discussion on Reddit. */
  permalink: string;
  /** Where a link post points (the permalink for a text post). */
  link: string;
  domain: string;
  flair?: string;
  /** The start of a text post's body. */
  excerpt?: string;
}

export interface ListingQuery {
  /** e.g. "/search" or "/r/rust/hot"; ".json" is added on the keyless host. */
  path: string;
  params: Record<string, string>;
}

export interface Listed {
  posts: Post[];
  /** Posts marked over 18 that were left out. */
  hidden: number;
  /** The subreddit is missing, private or banned (its 404/403). */
  unavailable?: string;
  provenance: Provenance[];
}

export async function listing(
  up: Upstream,
  q: ListingQuery,
  limit: number,
  maxPages: number,
  json: boolean
): Promise<Listed> {
  let hidden = 0;
  let after: string | undefined;
  let unavailable: string | undefined;
  const read = await readPages(limit, maxPages, async (_page, have) => {
    const a = await up.get({
      path: `${q.path}${json ? '.json' : ''}`,
      params: {
        ...q.params,
        limit: Math.min(PAGE_SIZE, limit - have),
        raw_json: 1,
        after,
      },
      noMatches: (status, body) => {
        if (status !== 403 && status !== 404) return false;
        const reason = (body as { reason?: unknown } | undefined)?.reason;
        unavailable =
          typeof reason === 'string' ? reason : status === 403 ? 'private' : 'not found';
        return true;
      },
    });
    if (a.body === undefined) {
      unavailable ??= 'not found';
      return { items: [], provenance: a.provenance, more: false };
    }
    const body = Listing.safeParse(a.body);
    if (!body.success) throw unexpected();
    const posts: Post[] = [];
    for (const c of body.data.data.children) {
      if (c.kind !== 't3') continue;
      if (c.data.over_18 === true) {
        hidden++;
        continue;
      }
      if (have + posts.length < limit) posts.push(readPost(c.data));
    }
    after = body.data.data.after ?? undefined;
    const more = after !== undefined && body.data.data.children.length > 0;
    return { items: posts, provenance: a.provenance, more };
  });
  const { items: posts, provenance } = read;
  return { posts, hidden, ...(unavailable ? { unavailable } : {}), provenance };
}

function unexpected(): UnavailableError {
  return new UnavailableError(
    `${SOURCE} answered JSON in an unexpected shape; ask the operator to check REDDIT_URL`
  );
}

const Str = z.string().nullish();
const PostData = z.looseObject({
  id: z.string(),
  title: z.string(),
  subreddit: z.string(),
  author: Str,
  score: z.number().nullish(),
  num_comments: z.number().nullish(),
  created_utc: z.number(),
  permalink: z.string(),
  url: Str,
  domain: Str,
  over_18: z.boolean().nullish(),
  link_flair_text: Str,
  selftext: Str,
  is_self: z.boolean().nullish(),
});

const Listing = z.looseObject({
  kind: z.literal('Listing'),
  data: z.looseObject({
    after: z.string().nullish(),
    children: z.array(z.looseObject({ kind: z.string(), data: PostData })),
  }),
});

function readPost(d: z.output<typeof PostData>): Post {
  const permalink = `https://www.reddit.com${d.permalink}`;
  const p: Post = {
    id: d.id,
    title: d.title,
    subreddit: d.subreddit,
    author: d.author ?? '[deleted]',
    score: d.score ?? 0,
    comments: d.num_comments ?? 0,
    createdAt: new Date(d.created_utc * 1000).toISOString().replace(/\.000Z$/, 'Z'),
    permalink,
    // A text post's url is its own discussion again, under another slug.
    link: d.is_self === true || !d.url ? permalink : d.url,
    domain: d.domain ?? 'reddit.com',
  };
  if (d.link_flair_text) p.flair = d.link_flair_text;
  const text = (d.selftext ?? '').replace(/\s+/g, ' ').trim();
  if (text !== '') p.excerpt = text.length > 200 ? `${text.slice(0, 199)}…` : text;
  return p;
}

/** Reddit's X-Ratelimit-*: with nothing left in the window, hold off until it resets. */
export function rateHold(h: Headers): number | undefined {
  const remaining = Number(h.get('x-ratelimit-remaining') ?? NaN);
  const reset = Number(h.get('x-ratelimit-reset') ?? NaN);
  if (!Number.isFinite(remaining) || !Number.isFinite(reset)) return undefined;
  return remaining < 1 ? Math.max(0, reset) * 1000 : undefined;
}
