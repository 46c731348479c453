// The webfetch agent through the running hub, against a local site whose pages look like real ones.
// Two hubs: one with WEBFETCH_ALLOW_PRIVATE=true (the test site is on loopback, so that is the only
// way to read it) and small byte and time limits; one with the default policy, which must refuse
// the very same loopback site, and loopback, private, link-local and metadata addresses in every
// form, before connecting. Redirects are re-checked on every hop: on the permissive hub a redirect
// to 0.0.0.0 (which on Linux would reach the local machine) is still refused, and the target
// server sees no request. A redirect from a public page into a private range under the default
// policy cannot be staged here (every test server is on loopback, so the first hop is refused
// already); it follows from the two together: every hop goes through the same address check
// (the 0.0.0.0 test), and that check refuses private ranges by default (the unit tests). One test drives the fetcher directly (no hub), with a stand-in
// resolver, to show the connection goes to the address that was checked.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPage as fetchPageDirect } from '../../agents/webfetch/safe-fetch.js';
import { ask, startAgentHub, type AgentHub } from '../support/official-agents.js';
import { ARTICLE_TEXT, startFakeSite, type FakeSite } from '../support/fake-web.js';

const JSON_OUT = { accept: ['application/json'] };
const MAX_BYTES = 64 * 1024;

interface ContentData {
  url: string;
  finalUrl: string;
  redirects: string[];
  status: number;
  contentType: string;
  title?: string;
  byline?: string;
  language?: string;
  markdown: string;
  article: boolean;
  bytes: number;
  truncated: boolean;
}

let site: FakeSite;
beforeAll(async () => {
  site = await startFakeSite();
});
afterAll(async () => {
  await site?.close();
});

describe('webfetch allowed to reach private addresses (the local test site)', () => {
  let h: AgentHub;
  let key: string;

  beforeAll(async () => {
    h = await startAgentHub({
      WEBFETCH_ALLOW_PRIVATE: 'true',
      WEBFETCH_MAX_BYTES: String(MAX_BYTES),
      WEBFETCH_TIMEOUT_MS: '1500',
      WEBFETCH_MAX_REDIRECTS: '3',
    });
    key = (await h.agent(await h.tenant('webfetch-a'), 'reader')).key;
  });
  afterAll(async () => {
    await h?.close();
  });

  const fetchPage = (body: string | Record<string, unknown>, o = {}) =>
    ask(h.url, key, 'webfetch', body, o);

  it('gives the article as markdown, without the navigation, sidebar and footer', async () => {
    const a = await fetchPage(`${site.url}/article`);
    expect(a.state, a.statusText).toBe('completed');
    expect(a.text).toMatch(/^📄 How rabbits build warrens/);
    expect(a.text).toContain(`🔗 ${site.url}/article`);
    expect(a.text).toContain(ARTICLE_TEXT);
    expect(a.text).toContain('## Tunnels and chambers');
    expect(a.text).toContain(`[the doe pulls fur from her own chest](${site.url}/articles/fur)`);
    expect(a.text).toMatch(/^- +Bolt holes for escape$/m);
    for (const boilerplate of [
      'Subscribe to our newsletter',
      'Ten facts about moles',
      'Cookie settings',
      'All rights reserved',
      'window.analytics',
      'font-family',
    ]) {
      expect(a.text).not.toContain(boilerplate);
    }
  });

  it('gives the same as JSON data', async () => {
    const a = await fetchPage({ url: `${site.url}/gzip-article` }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as ContentData;
    expect(d).toMatchObject({
      url: `${site.url}/gzip-article`,
      finalUrl: `${site.url}/gzip-article`,
      status: 200,
      contentType: 'text/html',
      language: 'en',
      article: true,
      truncated: false,
    });
    expect(d.title).toMatch(/How rabbits build warrens/);
    expect(d.markdown).toContain(ARTICLE_TEXT);
    expect(d.markdown).not.toContain('Privacy policy');
  });

  it('gives metadata: title, description, canonical URL, language, Open Graph, Twitter', async () => {
    const a = await fetchPage(`metadata ${site.url}/article`, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    expect(a.data).toMatchObject({
      title: 'How rabbits build warrens | Burrow News',
      description: 'A field guide to rabbit warrens.',
      canonicalUrl: `${site.url}/articles/warrens`,
      language: 'en',
      contentType: 'text/html',
      openGraph: {
        'og:title': 'How rabbits build warrens',
        'og:description': 'Tunnels, entrances and chambers, explained.',
        'og:image': `${site.url}/images/warren.jpg`,
        'og:type': 'article',
        'og:site_name': 'Burrow News',
        'og:url': 'https://news.example/articles/warrens',
      },
      twitter: { 'twitter:card': 'summary_large_image', 'twitter:site': '@burrownews' },
    });
    const t = await fetchPage(`metadata ${site.url}/article`);
    expect(t.text).toMatch(/^🏷️ Metadata for /);
    expect(t.text).toContain('• Title: How rabbits build warrens | Burrow News');
    expect(t.text).toContain('  ◦ og:site_name: Burrow News');
    expect(t.text).toContain('• Language: en');
  });

  it('follows redirects, relative and absolute, and says where it ended', async () => {
    const a = await fetchPage({ url: `${site.url}/redirect/a` }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as ContentData;
    expect(d.redirects).toEqual([`${site.url}/redirect/b`, `${site.url}/article`]);
    expect(d.finalUrl).toBe(`${site.url}/article`);
    expect(d.markdown).toContain(ARTICLE_TEXT);
    const t = await fetchPage(`${site.url}/redirect/a`);
    expect(t.text).toContain(`↪️ redirected from ${site.url}/redirect/a`);
  });

  it('stops after WEBFETCH_MAX_REDIRECTS redirects', async () => {
    const before = site.count('/loop/4');
    const a = await fetchPage(`${site.url}/loop/0`);
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(/too many redirects.*after 3 \(WEBFETCH_MAX_REDIRECTS\)/);
    expect(site.count('/loop/3')).toBeGreaterThan(0);
    expect(site.count('/loop/4')).toBe(before);
  });

  it('refuses a redirect to another scheme', async () => {
    const a = await fetchPage(`${site.url}/to-file`);
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(/refused: a redirect led to file: \(file:\/\/\/etc\/passwd\)/);
  });

  it('re-checks the address of every hop: a redirect to 0.0.0.0 is refused and never made', async () => {
    const target = `http://0.0.0.0:${site.port}/secret`;
    // Without the check this hop would land: on this machine 0.0.0.0 reaches the loopback site.
    expect(await plainGet(target)).toBe('internal secret');
    const before = site.count('/secret');
    const a = await fetchPage(`${site.url}/to?url=${encodeURIComponent(target)}`);
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(/refused: 0\.0\.0\.0 is a this-network address \(0\.0\.0\.0\/8\)/);
    expect(a.statusText).toMatch(/never fetched/);
    expect(site.count('/secret')).toBe(before);
  });

  it('cuts a huge page at WEBFETCH_MAX_BYTES, stops downloading it, and says so', async () => {
    const a = await fetchPage({ url: `${site.url}/huge` }, JSON_OUT);
    expect(a.state, a.statusText).toBe('completed');
    const d = a.data as ContentData;
    expect(d.truncated).toBe(true);
    expect(d.bytes).toBe(MAX_BYTES);
    expect(d.markdown).toContain('All work and no play');
    expect(site.hugeSent()).toBeLessThan(site.hugeTotal);
    const t = await fetchPage(`${site.url}/huge`);
    expect(t.text).toMatch(
      /⚠️ The page is larger than the 65,536-byte limit \(WEBFETCH_MAX_BYTES\)/
    );
  });

  it('returns text pages as they are, decoded in their charset', async () => {
    const plain = await fetchPage(`${site.url}/plain.txt`, JSON_OUT);
    expect(plain.state, plain.statusText).toBe('completed');
    expect((plain.data as ContentData).markdown).toBe(
      'line one\n  indented <not html>\nline three\n'
    );
    const md = await fetchPage(`${site.url}/notes.md`);
    expect(md.text).toContain('# Notes\n\n- a\n- b');
    const latin = await fetchPage(`${site.url}/latin1`, JSON_OUT);
    expect((latin.data as ContentData).markdown).toBe('café crème');
  });

  it('refuses a content type that is not text, naming it', async () => {
    const a = await fetchPage(`${site.url}/image.png`);
    expect(a.state).toBe('failed');
    expect(a.statusText).toMatch(/image\/png, not a text page/);
  });

  it('names the HTTP status of an error page', async () => {
    const missing = await fetchPage(`${site.url}/missing`);
    expect(missing.state).toBe('failed');
    expect(missing.statusText).toMatch(/answered HTTP 404 Not Found/);
    const broken = await fetchPage(`metadata ${site.url}/broken`);
    expect(broken.statusText).toMatch(/answered HTTP 500 Internal Server Error/);
  });

  it('gives up on a slow page at WEBFETCH_TIMEOUT_MS, whether it stalls before or during the body', async () => {
    for (const path of ['/hang', '/slow']) {
      const started = Date.now();
      const a = await fetchPage(`${site.url}${path}`);
      expect(a.state, path).toBe('failed');
      expect(a.statusText).toMatch(/did not load within 1500 ms \(WEBFETCH_TIMEOUT_MS\)/);
      expect(Date.now() - started).toBeLessThan(5_000);
    }
  });

  it('explains a bad request', async () => {
    const cases: Array<[string | Record<string, unknown>, RegExp]> = [
      ['ftp://example.com/file', /only http and https URLs are fetched, not ftp/],
      ['not a url at all', /could not find one URL/],
      ['http://exa mple.com', /could not find one URL/],
      ['', /nothing to fetch/],
      [{ mode: 'metadata' }, /needs a "url"/],
      [{ url: site.url, mode: 'everything' }, /`mode`/],
      ['http://user:pw@example.com/', /user name or password/],
    ];
    for (const [body, message] of cases) {
      const a = await fetchPage(body);
      expect(a.state, JSON.stringify(body)).toBe('failed');
      expect(a.statusText).toMatch(message);
    }
  });
});

describe('webfetch with the default policy (private addresses refused)', () => {
  let h: AgentHub;
  let key: string;

  beforeAll(async () => {
    h = await startAgentHub();
    key = (await h.agent(await h.tenant('webfetch-b'), 'reader')).key;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('refuses loopback, private, link-local and metadata addresses before connecting', async () => {
    const before = site.requests.length;
    const cases: Array<[string, RegExp]> = [
      [`${site.url}/article`, /127\.0\.0\.1 is a loopback address \(127\.0\.0\.0\/8\)/],
      [`metadata ${site.url}/article`, /127\.0\.0\.1 is a loopback address/],
      [
        `http://localhost:${site.port}/article`,
        /localhost resolves to (127\.0\.0\.1|::1), a loopback address/,
      ],
      [
        `http://[::ffff:127.0.0.1]:${site.port}/article`,
        /a loopback address \(127\.0\.0\.0\/8 as ::ffff:0:0\/96\)/,
      ],
      [`http://[::1]:${site.port}/article`, /::1 is a loopback address/],
      [`http://0x7f.1:${site.port}/article`, /127\.0\.0\.1 is a loopback address/],
      [
        'http://169.254.169.254/latest/meta-data/',
        /a cloud metadata address \(169\.254\.169\.254\/32\)/,
      ],
      ['http://10.1.2.3/', /a private address \(10\.0\.0\.0\/8\)/],
      ['http://192.168.1.1/admin', /a private address \(192\.168\.0\.0\/16\)/],
      ['http://172.20.0.1/', /a private address \(172\.16\.0\.0\/12\)/],
      ['http://100.64.0.1/', /a shared \(CGNAT\) address/],
      ['http://[fd00::1]/', /a unique local address \(fc00::\/7\)/],
      ['http://[fe80::1]/', /a link-local address \(fe80::\/10\)/],
    ];
    for (const [body, message] of cases) {
      const a = await ask(h.url, key, 'webfetch', body);
      expect(a.state, body).toBe('failed');
      expect(a.statusText, body).toMatch(message);
      expect(a.statusText).toContain('WEBFETCH_ALLOW_PRIVATE=true');
    }
    expect(site.requests.length).toBe(before);
  });
});

describe('the fetcher alone (no hub)', () => {
  it('connects to the address it checked, not to a second DNS answer', async () => {
    // The name resolves nowhere; the stand-in resolver (consulted once, for the check) says
    // loopback. Reaching the site proves the connection used the checked address, with the
    // page's own Host header.
    let asked = 0;
    const page = await fetchPageDirect(
      new URL(`http://pinned.invalid:${site.port}/host`),
      { allowPrivate: true, maxBytes: 1024, timeoutMs: 2000, maxRedirects: 0 },
      new AbortController().signal,
      () => {
        asked++;
        return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
      }
    );
    expect(page.body).toBe(`host: pinned.invalid:${site.port}`);
    expect(asked).toBe(1);
  });
});

/** A GET that checks nothing, to show what an unchecked client would reach. */
function plainGet(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}
