import { describe, expect, it } from 'vitest';
import { HubError } from '../../runtime/errors/index.js';
import { normalizeQuery, parseSearchRequest } from './parse.js';

function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(HubError);
    return (e as Error).message;
  }
  throw new Error('expected a failure');
}

describe('parseSearchRequest', () => {
  it('takes plain text as the query, spacing collapsed, 10 results', () => {
    expect(parseSearchRequest('  rust \n async   runtimes ', undefined)).toEqual({
      query: 'rust async runtimes',
      limit: 10,
    });
  });

  it('takes JSON with query and limit, ignoring other fields', () => {
    const json = { query: 'postgres', limit: 3, tenantId: 'other', format: 'json' };
    expect(parseSearchRequest(JSON.stringify(json), json)).toEqual({ query: 'postgres', limit: 3 });
  });

  it('refuses an empty query, in text or JSON', () => {
    expect(failure(() => parseSearchRequest('   ', undefined))).toMatch(/query is empty/);
    expect(failure(() => parseSearchRequest('', { query: ' ' }))).toMatch(/query is empty/);
  });

  it('refuses JSON without a query, or with a limit outside 1..10', () => {
    expect(failure(() => parseSearchRequest('', { q: 'x' }))).toMatch(/needs a "query"/);
    expect(failure(() => parseSearchRequest('', { query: 'x', limit: 11 }))).toMatch(/`limit`/);
    expect(failure(() => parseSearchRequest('', { query: 'x', limit: 0 }))).toMatch(/`limit`/);
    expect(failure(() => parseSearchRequest('', { query: 7 }))).toMatch(/`query`/);
  });

  it('refuses a query longer than 500 characters', () => {
    expect(failure(() => parseSearchRequest('x'.repeat(501), undefined))).toMatch(/501 characters/);
  });
});

describe('normalizeQuery', () => {
  it('treats case, spacing and compatibility forms alike', () => {
    expect(normalizeQuery('  Rust   ASYNC ')).toBe('rust async');
    expect(normalizeQuery('ｒｕｓｔ')).toBe('rust');
  });
});
