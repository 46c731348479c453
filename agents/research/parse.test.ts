import { describe, expect, it } from 'vitest';
import {
  QueryInput,
  datasetsIn,
  kindsIn,
  profileFromText,
  queryFromText,
  relatedFromText,
} from './parse.js';

describe('plain-language research requests', () => {
  it('reads a profile request in its usual forms', () => {
    expect(profileFromText('profile of Acme Pharma')).toEqual({ name: 'Acme Pharma' });
    expect(profileFromText('show me the company profile for Acme Pharma Inc.')).toEqual({
      name: 'Acme Pharma Inc',
    });
    expect(profileFromText('tell me about Pfizer?')).toEqual({ name: 'Pfizer' });
    expect(profileFromText("Acme Pharma's profile")).toEqual({ name: 'Acme Pharma' });
    expect(profileFromText('profile of Globex from the graph only')).toEqual({
      name: 'Globex',
      fill: false,
    });
    expect(profileFromText('acmeprant')).toBeUndefined();
  });

  it('reads a related request, with a count', () => {
    expect(relatedFromText('entities related to Acme Pharma')).toEqual({ name: 'Acme Pharma' });
    expect(relatedFromText('top 5 companies connected to Pfizer')).toEqual({
      name: 'Pfizer',
      limit: 5,
    });
    expect(relatedFromText('who is linked to Acme, without asking')).toEqual({
      name: 'Acme',
      fill: false,
    });
    expect(relatedFromText('profile of Acme')).toBeUndefined();
  });

  it('takes any other text as a query, but not small talk', () => {
    expect(queryFromText('companies seen by trials and fda')).toEqual({
      text: 'companies seen by trials and fda',
    });
    expect(queryFromText('help')).toBeUndefined();
    expect(queryFromText('hi')).toBeUndefined();
    expect(QueryInput.safeParse({}).success).toBe(false);
    expect(QueryInput.safeParse({ datasets: ['fda'] }).success).toBe(true);
  });

  it('reads kinds and datasets out of a question', () => {
    const known = [
      { dataset: 'ClinicalTrials.gov', alias: 'trials' },
      { dataset: 'openFDA', alias: 'fda' },
      { dataset: 'EPA ECHO', alias: 'epa' },
    ];
    const d = datasetsIn('companies seen by trials and openFDA and EPA ECHO', known);
    expect([...d.datasets].sort()).toEqual(['ClinicalTrials.gov', 'EPA ECHO', 'openFDA']);
    expect(d.rest).toBe('companies seen by and and');
    expect(datasetsIn('trialsome fda-ish', known).datasets).toEqual(['openFDA']);
    expect(kindsIn('companies and inventors named acme')).toEqual({
      kinds: ['company', 'person'],
      rest: 'and named acme',
    });
  });
});
