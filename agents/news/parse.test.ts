import { describe, expect, it } from 'vitest';
import { fipsOf } from './fips.js';
import { isoDate } from './gdelt.js';
import {
  SearchInput,
  companyFromText,
  searchFromText,
  sentimentFromText,
  timespanIn,
  topicFromText,
} from './parse.js';
import { classify, overall, toneLabel } from './sentiment.js';
import { themeOf } from './topics.js';

describe('plain language', () => {
  it('reads a sentiment question, its span and the sources’ country', () => {
    expect(sentimentFromText('sentiment about Tesla this week')).toEqual({
      query: 'Tesla',
      timespan: '7d',
    });
    expect(sentimentFromText('what is the tone of Boeing coverage in French media')).toEqual({
      query: 'Boeing',
      country: 'French',
    });
    expect(sentimentFromText('news about Tesla')).toBeUndefined();
  });

  it('reads a company from its marker words, without legal suffixes', () => {
    expect(companyFromText('latest news about the company Nvidia')).toEqual({ company: 'Nvidia' });
    expect(companyFromText('Apple Inc. headlines today')).toEqual({
      company: 'Apple',
      timespan: '24h',
    });
    expect(companyFromText('news about batteries')).toBeUndefined();
  });

  it('reads a topic by its theme name or by "topic:"', () => {
    expect(topicFromText('climate change coverage from German media')).toEqual({
      topic: 'climate change',
      country: 'German',
    });
    expect(topicFromText('news on the topic of deep sea mining')).toEqual({
      topic: 'deep sea mining',
    });
    expect(topicFromText('tesla')).toBeUndefined();
  });

  it('does not take a place in the story for the sources’ country', () => {
    expect(searchFromText('news about floods in India past 3 days')).toEqual({
      query: 'floods India',
      timespan: '3d',
    });
    expect(searchFromText('help')).toBeUndefined();
    expect(timespanIn('in the last 2 weeks')).toBe('2w');
  });
});

describe('JSON input', () => {
  it('turns a country name into its FIPS code and checks the span', () => {
    expect(SearchInput.parse({ query: 'x', country: 'China' }).country).toBe('CH');
    expect(SearchInput.parse({ query: 'x', country: 'gm' }).country).toBe('GM');
    expect(SearchInput.safeParse({ query: 'x', country: 'Atlantis' }).success).toBe(false);
    expect(SearchInput.safeParse({ query: 'x', timespan: '4m' }).success).toBe(false);
    expect(SearchInput.safeParse({ query: 'x', timespan: '10min' }).success).toBe(false);
    expect(SearchInput.parse({ query: 'x', timespan: '3M' }).timespan).toBe('3m');
  });
});

describe('tables and labels', () => {
  it('knows FIPS, not ISO, codes', () => {
    expect(fipsOf('Switzerland')).toBe('SZ');
    expect(fipsOf('CH')).toBe('CH');
    expect(fipsOf('DE')).toBeUndefined();
    expect(themeOf('Global warming')).toBe('ENV_CLIMATECHANGE');
    expect(themeOf('knitting')).toBeUndefined();
  });

  it('labels tone and headlines at the documented thresholds', () => {
    expect([toneLabel(1.5), toneLabel(1.49), toneLabel(-1.5)]).toEqual([
      'positive',
      'neutral',
      'negative',
    ]);
    expect(classify('Company wins award for great work').label).toBe('positive');
    expect(classify('Lawsuit and crash hit the firm').label).toBe('negative');
    expect(classify('Company opens office').label).toBe('neutral');
    expect(classify('this is not good').score).toBeLessThan(0);
    expect(overall([])).toBeUndefined();
    expect(overall([1, 0])).toEqual({ label: 'positive', mean: 0.5 });
    expect(isoDate('20250101T120000Z')).toBe('2025-01-01T12:00:00Z');
  });
});
