import { describe, expect, it } from 'vitest';
import { byAmount, filtersBody, readRow, type Award } from './awards.js';
import { readDetail } from './detail.js';
import { fieldsOf } from './groups.js';
import { money } from './render.js';

describe('USAspending requests and answers', () => {
  it('builds filters with one group’s codes, leaving empty keywords out', () => {
    expect(filtersBody({ query: 'cyber', from: '2024-01-01', to: '2024-12-31' }, 'grants')).toEqual(
      {
        keywords: ['cyber'],
        time_period: [{ start_date: '2024-01-01', end_date: '2024-12-31' }],
        award_type_codes: ['02', '03', '04', '05'],
      }
    );
    expect(filtersBody({ query: '' })).toEqual({});
    expect(
      filtersBody({ agency: { name: 'CISA', tier: 'subtier', toptierName: 'DHS' } }, 'idvs')
    ).toMatchObject({
      agencies: [{ type: 'awarding', tier: 'subtier', name: 'CISA', toptier_name: 'DHS' }],
    });
    expect(filtersBody({ from: '2020-01-01' }).time_period).toEqual([
      { start_date: '2020-01-01', end_date: new Date().toISOString().slice(0, 10) },
    ]);
  });

  it('asks loans for Loan Value and the others for Award Amount', () => {
    expect(fieldsOf('loans')).toContain('Loan Value');
    expect(fieldsOf('loans')).not.toContain('Award Amount');
    expect(fieldsOf('contracts')).toEqual(expect.arrayContaining(['Award Amount', 'End Date']));
    expect(fieldsOf('idvs')).toContain('Last Date to Order');
  });

  it('reads rows whose columns have spaces in their names', () => {
    const row = {
      internal_id: 1,
      generated_internal_id: 'ASST_NON_X1_012',
      'Award ID': 'X1',
      'Recipient Name': 'STATE OF CALIFORNIA',
      'Loan Value': '20000000.00',
      'Issued Date': '2024-07-01',
      'Award Type': 'DIRECT LOAN (E)',
    };
    expect(readRow('loans', row)).toMatchObject({
      awardId: 'X1',
      amount: 20_000_000,
      startDate: '2024-07-01',
      endDate: null,
      type: 'DIRECT LOAN (E)',
      url: 'https://www.usaspending.gov/award/ASST_NON_X1_012',
    });
    expect(readRow('contracts', { 'Award ID': 'no generated id' })).toBeUndefined();
  });

  it('orders merged groups biggest first, missing amounts last', () => {
    const a = (id: string, amount: number | null) => ({ generatedId: id, amount }) as Award;
    expect([a('x', 5), a('y', null), a('z', 9)].sort(byAmount).map((x) => x.generatedId)).toEqual([
      'z',
      'x',
      'y',
    ]);
  });

  it('reads an award’s detail, and refuses what is not one', () => {
    const d = readDetail({
      generated_unique_award_id: 'CONT_AWD_1',
      piid: 'P1',
      total_obligation: 10,
      recipient: {
        recipient_name: 'R',
        recipient_uei: 'U',
        location: { city_name: 'A', state_code: 'VA' },
      },
      latest_transaction_contract_data: { naics: '541512', naics_description: 'CSD' },
    });
    expect(d).toMatchObject({
      awardId: 'P1',
      recipient: { name: 'R', uei: 'U', location: 'A, VA' },
      naics: { code: '541512', description: 'CSD' },
    });
    expect(readDetail({ detail: 'No Award found' })).toBeUndefined();
  });

  it('formats money', () => {
    expect(money(1_234)).toBe('$1,234');
    expect(money(48_000_000.5)).toBe('$48.00M');
    expect(money(2_500_000_000)).toBe('$2.50B');
    expect(money(null)).toBe('amount not reported');
  });
});
