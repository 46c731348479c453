import { describe, expect, it } from 'vitest';
import {
  adverseFromText,
  approvalsFromText,
  searchFromText,
  sponsorFromText,
  window,
} from './parse.js';

describe('plain-language fda requests', () => {
  it('reads adverse-event requests and leaves the drug', () => {
    expect(adverseFromText('side effects of ibuprofen')).toEqual({ drug: 'ibuprofen' });
    expect(adverseFromText('adverse event reports for the drug Advil, top 3')).toEqual({
      drug: 'Advil',
      limit: 3,
    });
    expect(adverseFromText('reactions to metformin')).toEqual({ drug: 'metformin' });
    expect(adverseFromText('side effects')).toBeUndefined();
    expect(adverseFromText('advil')).toBeUndefined();
  });

  it('reads approval windows', () => {
    expect(approvalsFromText('recent approvals')).toEqual({});
    expect(approvalsFromText('drugs approved in the last 30 days')).toEqual({ days: 30 });
    expect(approvalsFromText('new drug approvals past 2 months')).toEqual({ days: 60 });
    expect(approvalsFromText('approvals in 2025')).toEqual({
      from: '2025-01-01',
      to: '2025-12-31',
    });
    expect(approvalsFromText('approved since 2026-01-15')).toEqual({ from: '2026-01-15' });
    expect(approvalsFromText('ibuprofen')).toBeUndefined();
  });

  it('reads sponsors', () => {
    expect(sponsorFromText('drugs by Pfizer')).toEqual({ sponsor: 'Pfizer' });
    expect(sponsorFromText('Merck’s drugs')).toEqual({ sponsor: 'Merck' });
    expect(sponsorFromText('applications from Eli Lilly, first 5')).toEqual({
      sponsor: 'Eli Lilly',
      limit: 5,
    });
    expect(sponsorFromText('advil')).toBeUndefined();
  });

  it('searches a drug name, but not a greeting', () => {
    expect(searchFromText('tell me about advil')).toEqual({ drug: 'advil' });
    expect(searchFromText('help')).toBeUndefined();
    expect(searchFromText('drug label')).toBeUndefined();
  });

  it('computes the approvals window from today or the dates given', () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    expect(window({}, now)).toEqual({ from: '2026-08-29', to: '2026-11-27' });
    expect(window({ days: 7 }, now)).toEqual({ from: '2026-11-20', to: '2026-11-27' });
    expect(window({ from: '2026-01-01', to: '2026-03-31' }, now)).toEqual({
      from: '2026-01-01',
      to: '2026-03-31',
    });
  });
});
