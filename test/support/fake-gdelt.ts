// A GDELT DOC 2.0 fixture (data-sources.md "news"): GET /api/v2/doc/doc?query=…&mode=ArtList|
// TimelineTone&format=json&maxrecords&timespan&sort. Its quirks, copied: `{}` when nothing matches;
// errors as plain text with HTTP 200 (a keyword shorter than 3 letters); more than one request per
// interval from one address gives a 429 with a text body and no Retry-After; `sourcecountry:` takes
// FIPS codes (GM is Germany; DE is nothing); answers name the country in words. Articles are
// written for the tests. Terms "gdelt down" (503), "slowquery" (no answer) and "busyquery" (a 429
// on its first request) exercise the failures.
import type { ServerResponse } from 'node:http';
import { sendJson, startFixtureServer, type FixtureServer } from './fixture-server.js';

export interface FixtureArticle {
  title: string;
  domain: string;
  /** FIPS code of the source's country. */
  country: string;
  language: string;
  /** Minutes before the fixture's "now". */
  ageMinutes: number;
  themes: string[];
  /** GDELT's document tone; undefined for articles GDELT has no tone for. */
  tone?: number;
}

const FIPS_NAMES: Record<string, string> = {
  US: 'United States',
  UK: 'United Kingdom',
  GM: 'Germany',
  CH: 'China',
  FR: 'France',
  JA: 'Japan',
};

const a = (
  title: string,
  domain: string,
  country: string,
  ageMinutes: number,
  tone: number | undefined,
  themes: string[] = [],
  language = 'English'
): FixtureArticle => ({
  title,
  domain,
  country,
  language,
  ageMinutes,
  themes,
  ...(tone !== undefined ? { tone } : {}),
});

export const ARTICLES: readonly FixtureArticle[] = [
  a('Tesla recalls 200,000 vehicles over faulty brakes', 'reuters.com', 'US', 60, -4.2),
  a('Tesla shares fall after weak delivery numbers', 'cnbc.com', 'US', 120, -3.1),
  a('Tesla crash lawsuit widens as regulators probe Autopilot', 'ft.com', 'UK', 200, -5.0),
  a('Tesla opens new factory in Berlin', 'spiegel.de', 'GM', 400, 0.4),
  a('Tesla Berlin factory hit by protest', 'zeit.de', 'GM', 9000, -2.0),
  a('Tesla recalls 200,000 vehicles over faulty brakes', 'yahoo.com', 'US', 61, -4.2),
  a('Nvidia posts record revenue as AI chip demand soars', 'reuters.com', 'US', 30, 4.5),
  a('Nvidia wins praise for breakthrough chip design', 'theverge.com', 'US', 90, 3.8),
  a('Nvidia unveils new data center GPUs', 'techcrunch.com', 'US', 150, 2.2),
  a('Nvidia faces antitrust probe in China', 'scmp.com', 'CH', 3000, -2.6),
  a('Acme Widgets wins award for great innovation', 'localnews.com', 'US', 100, undefined),
  a(
    'Acme Widgets celebrates happy customers and strong growth',
    'bizwire.com',
    'US',
    220,
    undefined
  ),
  a('Acme Widgets opens office', 'acme.example', 'US', 500, undefined),
  a('Heatwave records broken across Europe', 'dw.com', 'GM', 80, -3.3, ['ENV_CLIMATECHANGE']),
  a('Germany expands wind power to meet targets', 'spiegel.de', 'GM', 140, 1.9, [
    'ENV_CLIMATECHANGE',
  ]),
  a('UN report warns of rising seas', 'bbc.co.uk', 'UK', 160, -2.8, ['ENV_CLIMATECHANGE']),
  a('Bank raises interest rates to tame inflation', 'ft.com', 'UK', 70, -1.2, ['ECON_INFLATION']),
  a('Solid state batteries promise longer range', 'electrek.co', 'US', 45, 2.9),
  a('Toyota bets on solid state batteries', 'nikkei.com', 'JA', 300, 1.5),
  a('Les batteries solides arrivent', 'lemonde.fr', 'FR', 310, 1.0, [], 'French'),
];

const NOW = Date.UTC(2026, 10, 27, 9, 0, 0);

function seendate(ageMinutes: number): string {
  return new Date(NOW - ageMinutes * 60_000).toISOString().replace(/[-:]|\.\d{3}/g, '');
}

function urlOf(x: FixtureArticle, i: number): string {
  return `https://${x.domain}/news/${i}-${x.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
}

interface Parsed {
  words: string[];
  phrases: string[];
  country?: string;
  lang?: string;
  theme?: string;
}

/** GDELT's query syntax, as much as the agent uses; a string is GDELT's plain-text error. */
function parse(q: string): Parsed | string {
  const out: Parsed = { words: [], phrases: [] };
  const re = /"([^"]*)"|(\S+)/g;
  for (let m = re.exec(q); m; m = re.exec(q)) {
    if (m[1] !== undefined) {
      if (m[1].trim().length < 3) return 'The specified phrase is too short.';
      out.phrases.push(m[1].toLowerCase());
      continue;
    }
    const t = m[2]!;
    const op = /^(sourcecountry|sourcelang|theme):(.+)$/i.exec(t);
    if (op) {
      const k = op[1]!.toLowerCase();
      if (k === 'sourcecountry') out.country = op[2]!.toUpperCase();
      else if (k === 'sourcelang') out.lang = op[2]!.toLowerCase();
      else out.theme = op[2]!.toUpperCase();
      continue;
    }
    if (t.length < 3) {
      return 'Your search contained a keyword that was too short or too common. Please revise your search.';
    }
    out.words.push(t.toLowerCase());
  }
  return out;
}

function matching(p: Parsed): Array<{ x: FixtureArticle; i: number }> {
  return ARTICLES.map((x, i) => ({ x, i })).filter(({ x }) => {
    const title = x.title.toLowerCase();
    if (!p.words.every((w) => title.includes(w))) return false;
    if (!p.phrases.every((w) => title.includes(w))) return false;
    // FIPS codes only: an ISO code such as DE (Germany's) names no country here, as at GDELT.
    if (p.country !== undefined && x.country !== p.country) return false;
    if (p.lang !== undefined && x.language.toLowerCase() !== p.lang) return false;
    if (p.theme !== undefined && !x.themes.includes(p.theme)) return false;
    return true;
  });
}

/** GDELT's timespan (15min, 24h, 7d, 2w, 3m) in minutes; its window is about 3 months. */
function spanMinutes(t: string): number | undefined {
  const m = /^(\d+)(min|h|d|w|m)$/.exec(t);
  if (!m) return undefined;
  const unit = { min: 1, h: 60, d: 1440, w: 10_080, m: 43_200 }[m[2] as 'h'];
  return Math.min(Number(m[1]) * unit, 3 * 43_200);
}

function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(body);
}

export interface FakeGdelt extends FixtureServer {
  /** 429s it gave for requests inside the interval. */
  readonly refused: () => number;
}

/** `intervalMs`: GDELT's one request per 5 s, scaled down for tests. */
export async function startFakeGdelt(intervalMs = 5_000): Promise<FakeGdelt> {
  let last = 0;
  let refused = 0;
  const busy = new Set<string>();
  const server = await startFixtureServer((req, res) => {
    if (req.path !== '/api/v2/doc/doc') {
      text(res, 404, 'Not Found');
      return;
    }
    const now = Date.now();
    if (now - last < intervalMs) {
      refused++;
      last = now;
      text(
        res,
        429,
        'Please limit requests to one every 5 seconds or contact us for larger queries.'
      );
      return;
    }
    last = now;
    const p = req.params;
    const q = p.query ?? '';
    if (q.includes('gdelt down')) {
      res
        .writeHead(503, 'Service Unavailable', { 'content-type': 'text/html' })
        .end('<h1>503</h1>');
      return;
    }
    if (q.includes('slowquery')) return;
    if (q.includes('busyquery') && !busy.has(q)) {
      busy.add(q);
      text(
        res,
        429,
        'Please limit requests to one every 5 seconds or contact us for larger queries.'
      );
      return;
    }
    if (p.format !== 'json') {
      text(res, 200, 'Invalid format.');
      return;
    }
    const max = Number(p.maxrecords ?? '75');
    if (!Number.isInteger(max) || max < 1 || max > 250) {
      text(res, 200, 'The maxrecords parameter must be between 1 and 250.');
      return;
    }
    if (q.trim() === '') {
      text(res, 200, 'Please enter a search query.');
      return;
    }
    const parsed = parse(q);
    if (typeof parsed === 'string') {
      text(res, 200, parsed);
      return;
    }
    const span = spanMinutes(p.timespan ?? '3m');
    if (span === undefined) {
      text(res, 200, 'Invalid timespan.');
      return;
    }
    const found = matching(parsed).filter(({ x }) => x.ageMinutes <= span);
    if (found.length === 0) {
      sendJson(res, 200, {});
      return;
    }
    if (p.mode === 'ArtList') {
      const ordered =
        p.sort === 'DateDesc' ? [...found].sort((l, r) => l.x.ageMinutes - r.x.ageMinutes) : found;
      sendJson(res, 200, {
        articles: ordered.slice(0, max).map(({ x, i }) => ({
          url: urlOf(x, i),
          url_mobile: '',
          title: x.title,
          seendate: seendate(x.ageMinutes),
          socialimage: `https://${x.domain}/img/${i}.jpg`,
          domain: x.domain,
          language: x.language,
          sourcecountry: FIPS_NAMES[x.country] ?? x.country,
        })),
      });
      return;
    }
    if (p.mode === 'TimelineTone') {
      const toned = found.filter(({ x }) => x.tone !== undefined);
      if (toned.length === 0) {
        sendJson(res, 200, {});
        return;
      }
      sendJson(res, 200, {
        query_details: { title: q, date_resolution: '15m' },
        timeline: [
          {
            series: 'Average Tone',
            data: toned.map(({ x }) => ({ date: seendate(x.ageMinutes), value: x.tone })),
          },
        ],
      });
      return;
    }
    text(res, 200, 'Invalid mode.');
  });
  return Object.assign(server, { refused: () => refused });
}
