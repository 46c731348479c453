import { describe, expect, it } from 'vitest';
import {
  InvestigatorInput,
  RecentInput,
  institutionFromText,
  investigatorFromText,
  recentFromText,
  searchFromText,
  sourcesIn,
} from './parse.js';

describe('plain language', () => {
  it('reads an investigator only when the text says it is a person', () => {
    expect(investigatorFromText('grants to PI Jennifer Doudna')).toEqual({
      investigator: 'Jennifer Doudna',
    });
    expect(investigatorFromText('NIH grants by Dr. Alvarez on malaria in 2024')).toEqual({
      investigator: 'Alvarez',
      query: 'malaria',
      year: 2024,
      sources: ['nih'],
    });
    expect(investigatorFromText('grants to Johns Hopkins University')).toBeUndefined();
  });

  it('reads an institution by its kind of name, or an acronym', () => {
    expect(institutionFromText('grants at Johns Hopkins University in 2024')).toEqual({
      institution: 'Johns Hopkins University',
      year: 2024,
    });
    expect(institutionFromText('NSF awards to MIT for quantum computing')).toEqual({
      institution: 'MIT',
      query: 'quantum computing',
      sources: ['nsf'],
    });
    expect(institutionFromText('grants for Alzheimer disease')).toBeUndefined();
  });

  it('reads recent grants and their window', () => {
    expect(recentFromText('recent grants on CRISPR')).toEqual({ query: 'CRISPR' });
    expect(recentFromText('new NSF awards in the last 2 weeks')).toEqual({
      days: 14,
      sources: ['nsf'],
    });
    expect(recentFromText('CRISPR grants')).toBeUndefined();
  });

  it('takes the topic for a search, and knows the sources', () => {
    expect(searchFromText('research grants on CRISPR gene editing')).toEqual({
      query: 'CRISPR gene editing',
    });
    expect(searchFromText('top 5 NIH grants for malaria in 2023')).toEqual({
      query: 'malaria',
      year: 2023,
      sources: ['nih'],
      limit: 5,
    });
    expect(searchFromText('help')).toBeUndefined();
    expect(sourcesIn('NIH and NSF grants')).toBeUndefined();
  });
});

describe('JSON inputs', () => {
  it('names the bad field', () => {
    expect(InvestigatorInput.safeParse({}).error?.issues[0]?.path).toEqual(['investigator']);
    expect(RecentInput.safeParse({ sources: ['arxiv'] }).error?.issues[0]?.path).toEqual([
      'sources',
      0,
    ]);
    expect(RecentInput.safeParse({ days: 0 }).error?.issues[0]?.path).toEqual(['days']);
  });
});
