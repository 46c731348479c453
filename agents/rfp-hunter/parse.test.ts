import { describe, expect, it } from 'vitest';
import {
  SearchInput,
  detailFromText,
  recentFromText,
  searchFromText,
  sourceIn,
  yearAfter,
} from './parse.js';

describe('rfp-hunter plain language', () => {
  it('reads ids: SAM.gov notice ids, Grants.gov ids and solicitation numbers', () => {
    expect(detailFromText('notice 0000000000000000000000000000D001')).toEqual({
      id: '0000000000000000000000000000d001',
      source: 'sam',
    });
    expect(detailFromText('grants.gov opportunity 350100')).toEqual({
      id: '350100',
      source: 'grants',
    });
    expect(detailFromText('details of solicitation W912DY26R0001')).toEqual({
      id: 'W912DY26R0001',
    });
    expect(detailFromText('cybersecurity solicitation')).toBeUndefined();
  });

  it('reads recent requests: days, topic and source', () => {
    expect(recentFromText('new cybersecurity RFPs this week')).toEqual({
      query: 'cybersecurity',
      source: 'sam',
      days: 7,
    });
    expect(recentFromText('grants for rural broadband posted in the last 30 days')).toEqual({
      query: 'rural broadband',
      source: 'grants',
      days: 30,
    });
    expect(recentFromText('latest opportunities')).toEqual({});
    expect(recentFromText('cybersecurity RFPs')).toBeUndefined();
  });

  it('reads a search topic, its NAICS code and source', () => {
    expect(searchFromText('cybersecurity RFPs naics 541512')).toEqual({
      query: 'cybersecurity',
      source: 'sam',
      naics: '541512',
    });
    expect(searchFromText('wildfire opportunities')).toEqual({ query: 'wildfire' });
    expect(searchFromText('help')).toBeUndefined();
    expect(searchFromText('show me the opportunities')).toBeUndefined();
  });

  it('names a source only when one is meant', () => {
    expect(sourceIn('grants and contracts')).toBeUndefined();
    expect(sourceIn('funding opportunities')).toBe('grants');
    expect(sourceIn('sources sought notices')).toBe('sam');
  });

  it('keeps a date range within a year, naming the field', () => {
    expect(yearAfter('2024-02-29')).toBe('2025-03-01');
    expect(
      SearchInput.safeParse({ query: 'x', from: '2025-01-01', to: '2026-01-01' }).success
    ).toBe(true);
    const wide = SearchInput.safeParse({ query: 'x', from: '2025-01-01', to: '2026-01-02' });
    expect(wide.error?.issues[0]?.path).toEqual(['to']);
    const order = SearchInput.safeParse({ query: 'x', from: '2025-02-01', to: '2025-01-01' });
    expect(order.error?.issues[0]?.path).toEqual(['from']);
  });
});
