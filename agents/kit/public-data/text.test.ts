import { describe, expect, it } from 'vitest';
import { sourceLine } from './define.js';
import { limitIn, limitOf, without, words } from './text.js';
import { retryAfterMs } from './upstream.js';

describe('public-data helpers', () => {
  it('reads a count from the text, clamped', () => {
    expect(limitIn('top 5 melanoma trials')).toBe(5);
    expect(limitIn('20 results for x')).toBe(20);
    expect(limitIn('top 500')).toBe(50);
    expect(limitIn('type 2 diabetes')).toBeUndefined();
    expect(limitIn('approvals in the last 30 days')).toBeUndefined();
  });

  it('reads the limit field from the text only when the text asks for a count', () => {
    expect(limitOf('first 20 filings')).toEqual({ limit: 20 });
    expect(limitOf('top 500')).toEqual({ limit: 50 });
    expect(limitOf('type 2 diabetes')).toEqual({});
  });

  it('takes words out and tidies', () => {
    expect(without('find trials for melanoma, please', /\b(?:find|trials|for|please)\b/g)).toBe(
      'melanoma'
    );
    expect(words('Hello, World 42!')).toEqual(['hello', 'world', '42']);
  });

  it('reads Retry-After in seconds and as a date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });

  it('summarizes provenance per source', () => {
    const p = (source: string, at: string, cached: boolean) => ({
      source,
      endpoint: '/x',
      params: {},
      retrievedAt: at,
      url: 'http://x',
      cached,
    });
    expect(
      sourceLine([p('A', '2026-01-02T00:00:00Z', true), p('A', '2026-01-01T00:00:00Z', true)])
    ).toBe('📚 Source: A (2 requests, retrieved 2026-01-01T00:00:00Z, cached)');
    expect(sourceLine([p('A', 't1', false), p('B', 't2', true)])).toBe(
      '📚 Source: A (1 request, retrieved t1); B (1 request, retrieved t2, cached)'
    );
  });
});
