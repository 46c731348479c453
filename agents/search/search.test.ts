// The search flow with a stand-in for fetch (no servers): caching, and failures that are not cached.
import { describe, expect, it } from 'vitest';
import type { Config } from '../../runtime/config/index.js';
import { TtlLru } from './cache.js';
import type { SearchResult } from './providers.js';
import { search, type SearchDeps } from './search.js';

const settings: Config['search'] = {
  url: 'http://127.0.0.1:1/searx',
  provider: 'searxng',
  apiKey: undefined,
  timeoutMs: 200,
  cacheTtlSeconds: 60,
};

function deps(answers: Array<() => Response | Promise<Response>>, over: Partial<SearchDeps> = {}) {
  const calls: string[] = [];
  let t = 0;
  const d: SearchDeps & { calls: string[]; advance(ms: number): void } = {
    settings,
    cache: new TtlLru<SearchResult[]>(10),
    signal: new AbortController().signal,
    now: () => t,
    calls,
    advance(ms) {
      t += ms;
    },
    fetch: (input) => {
      calls.push(input instanceof Request ? input.url : input.toString());
      const next = answers.shift();
      if (!next) throw new Error('unexpected upstream call');
      return Promise.resolve(next());
    },
    ...over,
  };
  return d;
}

const ok = (n: number) => () =>
  Response.json({
    results: Array.from({ length: n }, (_, i) => ({
      title: `T${i}`,
      url: `https://r${i}.example/`,
      content: `s${i}`,
    })),
  });

describe('search', () => {
  it('keeps the top 10 and answers the same query again from the cache until the TTL', async () => {
    const d = deps([ok(15), ok(1)]);
    const first = await search('Rust async', d);
    expect(first.cached).toBe(false);
    expect(first.results).toHaveLength(10);
    expect(d.calls[0]).toBe('http://127.0.0.1:1/searx/search?q=Rust+async&format=json');
    const again = await search('rust ASYNC', d);
    expect(again).toEqual({ ...first, cached: true });
    expect(d.calls).toHaveLength(1);
    d.advance(60_000);
    expect((await search('rust async', d)).results).toHaveLength(1);
    expect(d.calls).toHaveLength(2);
  });

  it('fails on an HTTP error, bad JSON or a foreign shape, and caches none of them', async () => {
    const d = deps([
      () => new Response('busy', { status: 503, statusText: 'Service Unavailable' }),
      () => new Response('<html>', { status: 200 }),
      () => Response.json({ hits: [] }),
      ok(2),
    ]);
    await expect(search('q', d)).rejects.toThrow(/answered HTTP 503 Service Unavailable/);
    await expect(search('q', d)).rejects.toThrow(/did not answer with JSON/);
    await expect(search('q', d)).rejects.toThrow(/unexpected shape/);
    expect((await search('q', d)).results).toHaveLength(2);
    expect(d.calls).toHaveLength(4);
  });

  it('fails when the upstream does not answer in time', async () => {
    const d = deps([], {
      fetch: (_input, init) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error));
        }),
    });
    await expect(search('slow', d)).rejects.toThrow(
      /did not answer within 200 ms \(SEARCH_TIMEOUT_MS\)/
    );
  });

  it('says no service is configured without SEARCH_URL, and that Brave needs a key', async () => {
    const none = deps([], { settings: { ...settings, url: undefined } });
    await expect(search('q', none)).rejects.toThrow(/no search service is configured.*SEARCH_URL/);
    const brave = deps([], { settings: { ...settings, provider: 'brave' } });
    await expect(search('q', brave)).rejects.toThrow(/SEARCH_API_KEY/);
    expect(none.calls.length + brave.calls.length).toBe(0);
  });

  it('names the unreachable cause', async () => {
    const d = deps([], {
      fetch: () =>
        Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })),
    });
    await expect(search('q', d)).rejects.toThrow(/could not be reached \(ECONNREFUSED\)/);
  });
});
