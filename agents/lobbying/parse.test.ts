import { describe, expect, it } from 'vitest';
import { issueCode, issueIn } from './issues.js';
import {
  CompanyInput,
  IssueInput,
  TopSpendersInput,
  companyFromText,
  issueFromText,
  periodIn,
  searchFromText,
  topSpendersFromText,
} from './parse.js';

describe('top spenders from text', () => {
  it('reads the issue area, year, quarter and count', () => {
    expect(topSpendersFromText('top lobbying spenders on healthcare in 2025')).toEqual({
      year: 2025,
      issue: 'HCR',
    });
    expect(topSpendersFromText('top 5 lobbying spenders in Q2 2024')).toEqual({
      year: 2024,
      period: 'second_quarter',
      limit: 5,
    });
    expect(topSpendersFromText('who spent the most on lobbying for taxes')).toEqual({
      issue: 'TAX',
    });
    expect(topSpendersFromText('Pfizer lobbying')).toBeUndefined();
  });
});

describe('company from text', () => {
  it('reads a client name in the usual phrasings', () => {
    expect(companyFromText('lobbying by Pfizer in 2025')).toEqual({
      company: 'Pfizer',
      year: 2025,
    });
    expect(companyFromText("Pfizer's lobbying")).toEqual({ company: 'Pfizer' });
    // "Inc." goes: LDA matches the name as a part of its own ("ALPHABET, INC.").
    expect(companyFromText('how much does Alphabet Inc. spend on lobbying')).toEqual({
      company: 'Alphabet',
    });
    expect(companyFromText('Acme Health Systems lobbying')).toEqual({
      company: 'Acme Health Systems',
    });
  });

  it('leaves issues and lower-case topics to the other skills', () => {
    expect(companyFromText('who lobbies for healthcare')).toBeUndefined();
    expect(companyFromText('drone lobbying')).toBeUndefined();
  });
});

describe('issue and search from text', () => {
  it('knows LDA codes, area names and common words', () => {
    expect(issueIn('lobbying on immigration')).toBe('IMM');
    expect(issueIn('HCR filings')).toBe('HCR');
    expect(issueIn('railroads')).toBe('RRR');
    expect(issueIn('drone delivery')).toBeUndefined();
    expect(issueCode('tax')).toBe('TAX');
    expect(issueCode('def')).toBe('DEF');
    expect(issueFromText('who lobbies on immigration in 2025 Q3')).toEqual({
      issue: 'IMM',
      year: 2025,
      period: 'third_quarter',
    });
  });

  it('takes the remaining words as the search', () => {
    expect(searchFromText('lobbying on drone delivery in 2024')).toEqual({
      query: 'drone delivery',
      year: 2024,
    });
    expect(searchFromText('help')).toBeUndefined();
    expect(searchFromText('lobbying filings')).toBeUndefined();
  });

  it('reads periods', () => {
    expect(periodIn('first quarter')).toBe('first_quarter');
    expect(periodIn('4th quarter')).toBe('fourth_quarter');
    expect(periodIn('year-end 2007')).toBe('year_end');
    expect(periodIn('mid year')).toBe('mid_year');
    expect(periodIn('2025')).toBeUndefined();
  });
});

describe('JSON inputs', () => {
  it('names the bad field', () => {
    const bad = IssueInput.safeParse({ issue: 'quantum gravity' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['issue']);
    expect(TopSpendersInput.safeParse({ year: 1990 }).error?.issues[0]?.path).toEqual(['year']);
    expect(TopSpendersInput.parse({ issue: 'healthcare' }).issue).toBe('HCR');
    expect(CompanyInput.safeParse({}).error?.issues[0]?.path).toEqual(['company']);
  });
});
