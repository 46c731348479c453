import { describe, expect, it } from 'vitest';
import {
  AgencyInput,
  SearchInput,
  agencyFromText,
  contractorFromText,
  detailFromText,
  periodIn,
  searchFromText,
} from './parse.js';
import { groupsIn } from './groups.js';

describe('usaspending plain language', () => {
  it('reads an award id: USAspending’s own keys whole, and PIIDs after “award”', () => {
    expect(detailFromText('award CONT_AWD_W912DY24C0003_9700_-NONE-_-NONE-.')).toEqual({
      awardId: 'CONT_AWD_W912DY24C0003_9700_-NONE-_-NONE-',
    });
    expect(detailFromText('show ASST_NON_NSFGR000002_049 please')).toEqual({
      awardId: 'ASST_NON_NSFGR000002_049',
    });
    expect(detailFromText('details of contract number W912DY24C0001')).toEqual({
      awardId: 'W912DY24C0001',
    });
    expect(detailFromText('awards in 2024')).toBeUndefined();
    expect(detailFromText('contract cybersecurity')).toBeUndefined();
  });

  it('reads a recipient, with the award types, period and count', () => {
    expect(contractorFromText('top 5 contracts awarded to Lockheed Martin in 2023')).toEqual({
      recipient: 'Lockheed Martin',
      types: ['contracts'],
      from: '2023-01-01',
      to: '2023-12-31',
      limit: 5,
    });
    expect(contractorFromText("Booz Allen Hamilton's federal contracts since 2020")).toEqual({
      recipient: 'Booz Allen Hamilton',
      types: ['contracts'],
      from: '2020-01-01',
    });
    expect(contractorFromText('grants to Johns Hopkins University')).toMatchObject({
      recipient: 'Johns Hopkins University',
      types: ['grants'],
    });
    expect(contractorFromText('cybersecurity contracts')).toBeUndefined();
  });

  it('reads an agency as written, and the topic before it', () => {
    expect(
      agencyFromText('cybersecurity contracts from the Department of Homeland Security')
    ).toEqual({
      agency: 'Department of Homeland Security',
      query: 'cybersecurity',
      types: ['contracts'],
    });
    expect(agencyFromText('department of energy grants between 2021 and 2023')).toEqual({
      agency: 'Department of energy',
      types: ['grants'],
      from: '2021-01-01',
      to: '2023-12-31',
    });
    expect(agencyFromText('awarded by NASA')).toEqual({ agency: 'NASA' });
  });

  it('keeps the topic of a search and leaves help to the help answer', () => {
    expect(searchFromText('largest cybersecurity contracts and grants in 2024')).toEqual({
      query: 'cybersecurity',
      types: ['contracts', 'grants'],
      from: '2024-01-01',
      to: '2024-12-31',
    });
    expect(searchFromText('help')).toBeUndefined();
    expect(searchFromText('show me the contracts')).toBeUndefined();
  });

  it('names award-type groups and periods', () => {
    expect(groupsIn('IDIQ vehicles and loans')).toEqual(['idvs', 'loans']);
    expect(groupsIn('anything')).toBeUndefined();
    expect(periodIn('since 2019')).toEqual({ from: '2019-01-01' });
    expect(periodIn('no period')).toEqual({});
  });

  it('checks JSON input, naming the field', () => {
    const early = SearchInput.safeParse({ query: 'x', from: '2005-01-01' });
    expect(early.success).toBe(false);
    expect(early.error?.issues[0]?.path).toEqual(['from']);
    const order = AgencyInput.safeParse({ agency: 'NASA', from: '2025-01-01', to: '2024-01-01' });
    expect(order.error?.issues[0]).toMatchObject({
      path: ['from'],
      message: 'must not be after `to`',
    });
    expect(SearchInput.safeParse({ query: 'x', types: ['bonds'] }).success).toBe(false);
  });
});
