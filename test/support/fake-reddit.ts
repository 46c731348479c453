// A Reddit fixture (data-sources.md "reddit"): the keyless listings GET /search.json,
// /r/{sub}/search.json?restrict_sr=1 and /r/{sub}/{hot,new,top}.json, the same paths without .json
// for OAuth clients (a bearer token from /api/v1/access_token, HTTP Basic client id and secret),
// `{kind:"Listing",data:{after,dist,children:[{kind:"t3",data}]}}` paged through `after` (t3_<id>),
// `limit` ≤ 100. Its quirks, copied: a User-Agent not in Reddit's form is throttled (429);
// X-Ratelimit-Used/Remaining/Reset on every answer, and a 429 once the window's budget is spent;
// titles HTML-escaped unless raw_json=1; a private subreddit is 403 {reason:"private"}, a banned one
// 404 {reason:"banned"}, a missing one 404. Posts are written for the tests. Queries "reddit down"
// (503) and "window spent" (remaining 0 for 2 s) exercise the failures.
import type { ServerResponse } from 'node:http';
import { sendJson, startFixtureServer, type FixtureServer } from './fixture-server.js';

export const CLIENT = { id: 'test-client-id', secret: 'test-client-secret', token: 'tok-abc123' };

interface FixturePost {
  id: string;
  title: string;
  selftext: string;
  subreddit: string;
  author: string;
  score: number;
  comments: number;
  /** Hours before the fixture started. */
  ageHours: number;
  url?: string;
  over18?: boolean;
  flair?: string;
}

const p = (
  id: string,
  subreddit: string,
  title: string,
  score: number,
  ageHours: number,
  extra: Partial<FixturePost> = {}
): FixturePost => ({
  id,
  subreddit,
  title,
  selftext: '',
  author: `user_${id}`,
  score,
  comments: Math.round(score / 10),
  ageHours,
  ...extra,
});

export const POSTS: readonly FixturePost[] = [
  p('t1', 'teslamotors', 'Q&A: I love my new Tesla, best car ever', 900, 5, { flair: 'Owners' }),
  p('t2', 'stocks', 'Tesla earnings were terrible, shares crash', 450, 30),
  p('t3', 'electricvehicles', 'Tesla service center was awful and rude', 120, 50, {
    selftext: 'Waited six hours. Horrible experience, disappointed.',
  }),
  p('t4', 'wallstreetbets', 'Tesla calls printing, amazing gains', 2000, 70, {
    url: 'https://i.redd.it/gains.png',
  }),
  p('t5', 'teslamotors', 'Tesla nsfw meme dump', 10, 8, { over18: true }),
  p('n1', 'nvidia', 'Nvidia driver update is great', 300, 3),
  p('n2', 'stocks', 'Nvidia valuation thoughts', 150, 20),
  p('n3', 'hardware', 'Nvidia GPU prices still high', 80, 400),
  p('r1', 'rust', 'Async Rust is finally good', 700, 2, { flair: 'discussion' }),
  p('r2', 'rust', 'Announcing Rust 1.99', 1500, 26),
  p('r3', 'rust', 'Borrow checker errors make me sad', 40, 100),
  ...Array.from({ length: 60 }, (_, i) =>
    p(
      `k${i}`,
      i % 2 ? 'MechanicalKeyboards' : 'keyboards',
      `Mechanical keyboards build ${i}`,
      500 - i,
      i + 1
    )
  ),
];

const UA_FORM = /^[\w.-]+:[\w.-]+:[\w.-]+ \(by \/u\/[\w-]+\)$/;
const T_HOURS: Record<string, number> = {
  hour: 1,
  day: 24,
  week: 168,
  month: 720,
  year: 8760,
  all: Infinity,
};

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export interface FakeReddit extends FixtureServer {
  /** Posts' creation time base (seconds). */
  readonly startedAt: number;
}

/** `budget` requests per `windowMs` window, as Reddit counts them for one client. */
export async function startFakeReddit(budget = 100, windowMs = 60_000): Promise<FakeReddit> {
  const startedAt = Math.floor(Date.now() / 1000);
  let windowStart = Date.now();
  let used = 0;
  let spentUntil = 0;
  const server = await startFixtureServer((req, res) => {
    const now = Date.now();
    if (now - windowStart >= windowMs) {
      windowStart = now;
      used = 0;
    }
    if (req.path === '/api/v1/access_token') {
      const basic = `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`;
      if (req.headers.authorization !== basic) {
        sendJson(res, 401, { message: 'Unauthorized', error: 401 });
        return;
      }
      sendJson(res, 200, {
        access_token: CLIENT.token,
        token_type: 'bearer',
        expires_in: 86_400,
        scope: '*',
      });
      return;
    }
    const oauth = !req.path.endsWith('.json');
    if (oauth && req.headers.authorization !== `bearer ${CLIENT.token}`) {
      sendJson(res, 401, { message: 'Unauthorized', error: 401 });
      return;
    }
    const ua = String(req.headers['user-agent'] ?? '');
    if (!UA_FORM.test(ua)) {
      sendJson(res, 429, { message: 'Too Many Requests', error: 429 });
      return;
    }
    used++;
    const spent = now < spentUntil;
    const remaining = spent ? 0 : Math.max(0, budget - used);
    const reset = spent
      ? Math.ceil((spentUntil - now) / 1000)
      : Math.ceil((windowStart + windowMs - now) / 1000);
    const headers = {
      'x-ratelimit-used': String(used),
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String(reset),
    };
    if (used > budget || (spent && req.params.q !== 'window spent')) {
      sendJson(res, 429, { message: 'Too Many Requests', error: 429 }, headers);
      return;
    }
    const path = req.path.replace(/\.json$/, '');
    const m = /^\/(?:r\/([^/]+)\/)?(search|hot|new|top)$/.exec(path);
    if (!m) {
      sendJson(res, 404, { message: 'Not Found', error: 404 }, headers);
      return;
    }
    const sub = m[1];
    if (sub === 'secretclub') {
      sendJson(res, 403, { reason: 'private', message: 'Forbidden', error: 403 }, headers);
      return;
    }
    if (sub === 'bannedsub') {
      sendJson(res, 404, { reason: 'banned', message: 'Not Found', error: 404 }, headers);
      return;
    }
    if (sub !== undefined && !POSTS.some((x) => x.subreddit.toLowerCase() === sub.toLowerCase())) {
      sendJson(res, 404, { message: 'Not Found', error: 404 }, headers);
      return;
    }
    const q = req.params.q ?? '';
    if (q === 'reddit down') {
      res.writeHead(503, 'Service Unavailable', { 'content-type': 'text/html', ...headers });
      res.end('<h1>all servers are busy</h1>');
      return;
    }
    if (q === 'window spent') {
      spentUntil = now + 2_000;
      headers['x-ratelimit-remaining'] = '0';
      headers['x-ratelimit-reset'] = '2';
    }
    listing(res, req.params, m[2]!, sub, startedAt, headers);
  });
  return Object.assign(server, { startedAt });
}

function listing(
  res: ServerResponse,
  params: Record<string, string>,
  kind: string,
  sub: string | undefined,
  startedAt: number,
  headers: Record<string, string>
): void {
  const limit = Number(params.limit ?? '25');
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    sendJson(res, 400, { message: 'Bad Request', error: 400 }, headers);
    return;
  }
  let found = POSTS.filter(
    (x) => sub === undefined || x.subreddit.toLowerCase() === sub.toLowerCase()
  );
  if (kind === 'search') {
    if (sub !== undefined && params.restrict_sr !== '1' && params.restrict_sr !== 'on')
      found = [...POSTS];
    const q = (params.q ?? '').toLowerCase();
    const phrases = [...q.matchAll(/"([^"]+)"/g)].map((x) => x[1]!);
    const words = q
      .replace(/"[^"]+"/g, ' ')
      .split(/\s+/)
      .filter((w) => w !== '');
    found = found.filter((x) => {
      const hay = `${x.title} ${x.selftext}`.toLowerCase();
      return phrases.every((ph) => hay.includes(ph)) && words.every((w) => hay.includes(w));
    });
  }
  const t =
    kind === 'search' || kind === 'top' ? (params.t ?? (kind === 'top' ? 'day' : 'all')) : 'all';
  const hours = T_HOURS[t];
  if (hours === undefined) {
    sendJson(res, 400, { message: 'Bad Request', error: 400 }, headers);
    return;
  }
  found = found.filter((x) => x.ageHours <= hours);
  const sort = kind === 'search' ? (params.sort ?? 'relevance') : kind;
  if (sort === 'new') found = [...found].sort((a, b) => a.ageHours - b.ageHours);
  else if (sort === 'top' || sort === 'hot') found = [...found].sort((a, b) => b.score - a.score);
  else if (sort === 'comments') found = [...found].sort((a, b) => b.comments - a.comments);
  let start = 0;
  if (params.after) {
    const i = found.findIndex((x) => `t3_${x.id}` === params.after);
    start = i < 0 ? found.length : i + 1;
  }
  const page = found.slice(start, start + limit);
  const more = start + limit < found.length;
  const raw = params.raw_json === '1';
  sendJson(
    res,
    200,
    {
      kind: 'Listing',
      data: {
        after: more ? `t3_${page.at(-1)!.id}` : null,
        before: null,
        dist: page.length,
        modhash: '',
        geo_filter: '',
        children: page.map((x) => ({
          kind: 't3',
          data: {
            id: x.id,
            name: `t3_${x.id}`,
            title: raw ? x.title : escapeHtml(x.title),
            selftext: raw ? x.selftext : escapeHtml(x.selftext),
            author: x.author,
            subreddit: x.subreddit,
            subreddit_name_prefixed: `r/${x.subreddit}`,
            score: x.score,
            ups: x.score,
            num_comments: x.comments,
            created_utc: startedAt - x.ageHours * 3600,
            permalink: `/r/${x.subreddit}/comments/${x.id}/${x.title
              .toLowerCase()
              .replace(/[^a-z0-9]+/g, '_')
              .slice(0, 40)}/`,
            url: x.url ?? `https://www.reddit.com/r/${x.subreddit}/comments/${x.id}/`,
            domain: x.url ? new URL(x.url).hostname : `self.${x.subreddit}`,
            over_18: x.over18 === true,
            link_flair_text: x.flair ?? null,
            is_self: x.url === undefined,
          },
        })),
      },
    },
    headers
  );
}
