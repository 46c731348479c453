import { describe, expect, it } from 'vitest';
import { plainText, readAnswer, upstreamRequest } from './providers.js';

describe('upstreamRequest', () => {
  it('asks SearXNG for JSON under the configured path', () => {
    const r = upstreamRequest('searxng', 'http://127.0.0.1:8888/searx/', 'a&b c', 10, undefined);
    expect(r.url).toBe('http://127.0.0.1:8888/searx/search?q=a%26b+c&format=json');
    expect(r.headers).toEqual({ accept: 'application/json' });
  });

  it('asks a Brave-compatible API with the subscription token', () => {
    const r = upstreamRequest('brave', 'https://api.search.brave.com', 'cats', 10, 'k-1');
    expect(r.url).toBe('https://api.search.brave.com/res/v1/web/search?q=cats&count=10');
    expect(r.headers['x-subscription-token']).toBe('k-1');
  });
});

describe('readAnswer', () => {
  it('reads SearXNG results, dropping ones without an http(s) link and duplicates', () => {
    const body = {
      query: 'x',
      results: [
        { title: 'One', url: 'https://one.example/', content: 'first', engine: 'ddg' },
        { title: 'No link', content: 'x' },
        { title: 'Bad link', url: 'javascript:alert(1)' },
        { title: 'One again', url: 'https://one.example/' },
        { title: null, url: 'https://two.example/p', content: null },
      ],
    };
    expect(readAnswer('searxng', body)).toEqual([
      { title: 'One', url: 'https://one.example/', snippet: 'first' },
      { title: 'https://two.example/p', url: 'https://two.example/p', snippet: '' },
    ]);
  });

  it('reads Brave results and strips their highlighting markup', () => {
    const body = {
      type: 'search',
      web: {
        results: [
          {
            title: 'A &amp; B',
            url: 'https://a.example',
            description: 'the <strong>cat</strong>&#39;s',
          },
        ],
      },
    };
    expect(readAnswer('brave', body)).toEqual([
      { title: 'A & B', url: 'https://a.example/', snippet: "the cat's" },
    ]);
    expect(readAnswer('brave', { type: 'search' })).toEqual([]);
  });

  it('returns undefined for a body in another shape', () => {
    expect(readAnswer('searxng', { web: { results: [] } })).toBeUndefined();
    expect(readAnswer('searxng', [1, 2])).toBeUndefined();
    expect(readAnswer('brave', { web: { results: 'no' } })).toBeUndefined();
    expect(readAnswer('searxng', null)).toBeUndefined();
  });
});

describe('plainText', () => {
  it('removes tags, decodes entities and collapses spacing', () => {
    expect(plainText('<b>x</b>&nbsp;&lt;y&gt; &#x41;&#66;  \n z &bogus;')).toBe(
      'x <y> AB z &bogus;'
    );
  });
});
