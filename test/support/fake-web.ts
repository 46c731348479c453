// Local HTTP servers that answer like the web services the search and webfetch agents talk to:
// a SearXNG instance (GET /search?format=json), a Brave-compatible search API, and a small web
// site with real-looking pages (an article inside navigation and footer boilerplate, Open Graph
// tags, redirects, a huge page, binary and slow responses). Each counts what it is asked.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface FakeServer {
  /** Base URL (http://127.0.0.1:port plus any path prefix). */
  readonly url: string;
  readonly port: number;
  /** Every request path with its query, in order. */
  readonly requests: string[];
  /** Requests whose path (without query) is `path`. */
  count(path: string): number;
  close(): Promise<void>;
}

async function serve(
  handler: (req: IncomingMessage, res: ServerResponse, url: URL) => void,
  prefix = ''
): Promise<FakeServer> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake.local');
    requests.push(`${url.pathname}${url.search}`);
    handler(req, res, url);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    port,
    requests,
    count: (path) => requests.filter((r) => r.split('?')[0] === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** `n` results for `q`, numbered from 1, in the search engines' common title/url/text form. */
function hits(q: string, n: number): Array<{ title: string; url: string; text: string }> {
  return Array.from({ length: n }, (_, i) => ({
    title: `${q} — result ${i + 1}`,
    url: `https://site${i + 1}.example/${encodeURIComponent(q)}`,
    text: `About ${q}, snippet number ${i + 1}.`,
  }));
}

/**
 * A SearXNG JSON API under /searx. Queries: "fail" → 502, "garbage" → HTML instead of JSON,
 * "odd shape" → JSON without `results`, "slow" → no answer for 5 s, "nothing" → no results;
 * any other query → 15 results (more than the agent shows).
 */
export function startFakeSearxng(): Promise<FakeServer> {
  return serve((_req, res, url) => {
    const q = url.searchParams.get('q') ?? '';
    if (url.pathname !== '/searx/search' || url.searchParams.get('format') !== 'json') {
      res.writeHead(403, { 'content-type': 'text/html' }).end('<h1>403 Forbidden</h1>');
      return;
    }
    if (q === 'fail') {
      res.writeHead(502, 'Bad Gateway', { 'content-type': 'text/plain' }).end('upstream down');
      return;
    }
    if (q === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Oops</body></html>');
      return;
    }
    if (q === 'odd shape') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"answers":[]}');
      return;
    }
    if (q === 'slow') {
      setTimeout(() => res.writeHead(200).end('{"results":[]}'), 5_000).unref();
      return;
    }
    const results = (q === 'nothing' ? [] : hits(q, 15)).map((h, i) => ({
      title: h.title,
      url: h.url,
      content: h.text,
      engine: 'duckduckgo',
      engines: ['duckduckgo'],
      score: 15 - i,
      category: 'general',
    }));
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ query: q, number_of_results: results.length, results, answers: [] }));
  }, '/searx');
}

/**
 * A Brave-compatible web search API. A request without the token `key` gets 401; query
 * "limited" gets 429; any other query gets `count` results with <strong> highlighting.
 */
export function startFakeBrave(key: string): Promise<FakeServer> {
  return serve((req, res, url) => {
    if (url.pathname !== '/res/v1/web/search') {
      res.writeHead(404).end();
      return;
    }
    if (req.headers['x-subscription-token'] !== key) {
      res.writeHead(401, 'Unauthorized', { 'content-type': 'application/json' }).end('{}');
      return;
    }
    const q = url.searchParams.get('q') ?? '';
    if (q === 'limited') {
      res.writeHead(429, 'Too Many Requests', { 'content-type': 'application/json' }).end('{}');
      return;
    }
    const count = Number(url.searchParams.get('count') ?? '20');
    const results = hits(q, Math.min(count, 20)).map((h) => ({
      title: h.title,
      url: h.url,
      description: h.text.replace(q, `<strong>${q}</strong>`),
      type: 'search_result',
    }));
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(
        JSON.stringify({ type: 'search', query: { original: q }, web: { type: 'search', results } })
      );
  });
}

export const ARTICLE_TEXT =
  'Rabbits dig burrows with many entrances so that they can escape from predators quickly.';

const ARTICLE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>How rabbits build warrens | Burrow News</title>
  <meta name="description" content="A field guide to rabbit warrens.">
  <link rel="canonical" href="/articles/warrens">
  <meta property="og:title" content="How rabbits build warrens">
  <meta property="og:description" content="Tunnels, entrances and chambers, explained.">
  <meta property="og:image" content="/images/warren.jpg">
  <meta property="og:type" content="article">
  <meta property="og:site_name" content="Burrow News">
  <meta property="og:url" content="https://news.example/articles/warrens">
  <meta name="twitter:card" content="summary_large_image">
  <meta name="twitter:site" content="@burrownews">
  <script>window.analytics = { track() {} };</script>
  <style>body { font-family: serif }</style>
</head>
<body>
  <header class="site-header"><a href="/">Burrow News</a>
    <nav class="menu"><ul>
      <li><a href="/world">World</a></li><li><a href="/science">Science</a></li>
      <li><a href="/subscribe">Subscribe to our newsletter</a></li>
    </ul></nav>
  </header>
  <div class="layout">
    <aside class="sidebar"><h3>Trending</h3><ul><li><a href="/t/1">Ten facts about moles</a></li></ul></aside>
    <main>
      <article>
        <h1>How rabbits build warrens</h1>
        <p class="byline">By Ada Lovelace</p>
        <p>${ARTICLE_TEXT} A warren is a network of tunnels that a colony of rabbits digs over
        several generations, and each new litter extends it a little further.</p>
        <h2>Tunnels and chambers</h2>
        <p>The main tunnels run a metre or more below the surface. Nesting chambers are lined with
        grass and fur, and <a href="/articles/fur">the doe pulls fur from her own chest</a> to keep
        the kits warm during the first weeks.</p>
        <ul><li>Bolt holes for escape</li><li>Nesting chambers</li><li>Drainage slopes</li></ul>
        <p>Researchers map warrens with ground-penetrating radar so that the animals are not
        disturbed, and they have found systems with more than a hundred entrances.</p>
      </article>
    </main>
  </div>
  <footer class="site-footer"><p>© 2026 Burrow News. All rights reserved.</p>
    <a href="/privacy">Privacy policy</a> <a href="/cookies">Cookie settings</a></footer>
</body>
</html>`;

export interface FakeSite extends FakeServer {
  /** Body bytes the /huge page sent before the client went away (or all of it). */
  readonly hugeSent: () => number;
  readonly hugeTotal: number;
}

/**
 * A small web site: /article (the article above), /gzip-article (the same, gzip-encoded),
 * /plain.txt, /notes.md, /latin1, /redirect/a → /redirect/b → /article, /loop/N → /loop/N+1,
 * /to-file → file:, /to (302 to the `url` query parameter), /huge (20 MiB of HTML, streamed),
 * /host (echoes the Host header), /image.png, /missing (404), /broken (500), /slow (headers, then nothing), /hang (no answer).
 */
export async function startFakeSite(): Promise<FakeSite> {
  const HUGE = 20 * 1024 * 1024;
  let hugeSent = 0;
  const site = await serve((req, res, url) => {
    const p = url.pathname;
    const html = { 'content-type': 'text/html; charset=utf-8' };
    if (p === '/article' || p === '/articles/warrens') {
      res.writeHead(200, html).end(ARTICLE);
    } else if (p === '/gzip-article') {
      res.writeHead(200, { ...html, 'content-encoding': 'gzip' }).end(gzipSync(ARTICLE));
    } else if (p === '/plain.txt') {
      res
        .writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-language': 'en' })
        .end('line one\n  indented <not html>\nline three\n');
    } else if (p === '/notes.md') {
      res.writeHead(200, { 'content-type': 'text/markdown' }).end('# Notes\n\n- a\n- b\n');
    } else if (p === '/latin1') {
      res
        .writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' })
        .end(Buffer.from('caf\xe9 cr\xe8me', 'latin1'));
    } else if (p === '/redirect/a') {
      res.writeHead(302, { location: '/redirect/b' }).end();
    } else if (p === '/redirect/b') {
      res.writeHead(301, { location: `${site.url}/article` }).end();
    } else if (p.startsWith('/loop/')) {
      res.writeHead(302, { location: `/loop/${Number(p.slice(6)) + 1}` }).end();
    } else if (p === '/to-file') {
      res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    } else if (p === '/to') {
      res.writeHead(302, { location: url.searchParams.get('url') ?? '/' }).end();
    } else if (p === '/host') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`host: ${req.headers.host ?? ''}`);
    } else if (p === '/secret') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('internal secret');
    } else if (p === '/huge') {
      res.writeHead(200, html);
      res.write('<!doctype html><html><head><title>Huge</title></head><body><main><article>');
      const para = `<p>${'All work and no play makes a very long page. '.repeat(20)}</p>\n`;
      const push = (): void => {
        while (hugeSent < HUGE) {
          hugeSent += Buffer.byteLength(para);
          if (!res.write(para)) {
            res.once('drain', push);
            return;
          }
        }
        res.end('</article></main></body></html>');
      };
      res.on('close', () => res.removeAllListeners('drain'));
      push();
    } else if (p === '/image.png') {
      res
        .writeHead(200, { 'content-type': 'image/png' })
        .end(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    } else if (p === '/missing') {
      res.writeHead(404, 'Not Found', html).end('<h1>Not here</h1>');
    } else if (p === '/broken') {
      res.writeHead(500, 'Internal Server Error', html).end('<h1>Oops</h1>');
    } else if (p === '/slow') {
      res.writeHead(200, html);
      res.write('<html><body><p>Loading');
    } else if (p === '/hang') {
      // never answers
    } else {
      res.writeHead(404, 'Not Found').end();
    }
  });
  return { ...site, hugeSent: () => hugeSent, hugeTotal: HUGE };
}
