import { describe, expect, it } from 'vitest';
import { executivesFromText, filingFromText, filingsFromText, searchFromText } from './parse.js';

describe('sec-filings plain language', () => {
  it('reads a company’s filings, forms, dates and counts', () => {
    expect(filingsFromText('Apple’s last 10-K')).toEqual({
      company: 'Apple',
      forms: ['10-K'],
      limit: 1,
    });
    expect(filingsFromText("Tesla's last 5 8-Ks")).toEqual({
      company: 'Tesla',
      forms: ['8-K'],
      limit: 5,
    });
    expect(filingsFromText('MSFT annual reports since 2020-01-01')).toEqual({
      company: 'MSFT',
      forms: ['10-K'],
      from: '2020-01-01',
    });
    expect(filingsFromText('recent filings of CIK 789019')).toEqual({ company: '789019' });
    expect(filingsFromText('Nvidia proxy statement in 2025')).toEqual({
      company: 'Nvidia',
      forms: ['DEF 14A'],
      from: '2025-01-01',
      to: '2025-12-31',
    });
    expect(filingsFromText('hello there')).toBeUndefined();
  });

  it('reads an accession number, dashed or not', () => {
    expect(filingFromText('filing 0000320193-25-000079')).toEqual({
      accession: '0000320193-25-000079',
    });
    expect(filingFromText('000032019325000079 of Apple')).toEqual({
      accession: '000032019325000079',
      company: 'Apple',
    });
    expect(filingFromText('Apple 10-K')).toBeUndefined();
  });

  it('reads executives and full-text searches', () => {
    expect(executivesFromText('who are Apple’s executives')).toEqual({ company: 'Apple' });
    expect(executivesFromText('officers of TSLA')).toEqual({ company: 'TSLA' });
    expect(executivesFromText('executives')).toBeUndefined();
    expect(searchFromText('search filings mentioning "going concern" in 10-K')).toEqual({
      query: '"going concern"',
      forms: ['10-K'],
    });
    expect(searchFromText('full-text search for lithium supply top 5')).toEqual({
      query: 'lithium supply',
      limit: 5,
    });
    expect(searchFromText('Apple’s last 10-K')).toBeUndefined();
  });
});
