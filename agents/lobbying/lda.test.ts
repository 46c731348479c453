import { describe, expect, it } from 'vitest';
import { cents, filingParams, nextPage, readFiling, type Filing } from './lda.js';
import { latestReports, spending, usd } from './spend.js';

const raw = (o: Record<string, unknown> = {}) => ({
  filing_uuid: 'u-1',
  filing_type: 'Q1',
  filing_type_display: '1st Quarter - Report',
  filing_year: 2025,
  filing_period: 'first_quarter',
  filing_document_url: 'https://lda.gov/filings/public/filing/u-1/print/',
  income: '120000.00',
  expenses: null,
  dt_posted: '2025-04-18T10:00:00-04:00',
  registrant: { id: 7, name: 'AKIN LLP', city: 'WASHINGTON', state: 'DC', country: 'USA' },
  client: { id: 70, client_id: 3, name: 'ACME', general_description: 'Widgets', state: 'OH' },
  lobbying_activities: [
    {
      general_issue_code: 'HCR',
      general_issue_code_display: 'Health Issues',
      description: 'Drug pricing',
      lobbyists: [{ lobbyist: { first_name: 'Ann', last_name: 'Lee' }, covered_position: null }],
      government_entities: [{ id: 1, name: 'SENATE' }],
    },
  ],
  foreign_entities: [],
  affiliated_organizations: [],
  ...o,
});

describe('LDA amounts', () => {
  it('reads decimal strings, numbers and null as cents', () => {
    expect(cents('120000.00')).toBe(12_000_000);
    expect(cents('0.5')).toBe(50);
    expect(cents('15')).toBe(1500);
    expect(cents(2500.25)).toBe(250_025);
    expect(cents(null)).toBeNull();
    expect(cents('n/a')).toBeUndefined();
  });
});

describe('LDA filings', () => {
  it('reads a filing, income first, expenses for in-house', () => {
    const f = readFiling(raw())!;
    expect(f).toMatchObject({
      filingUuid: 'u-1',
      amount: 120000,
      amountKind: 'income',
      registrant: { id: 7, name: 'AKIN LLP' },
      client: { id: 70, name: 'ACME', description: 'Widgets' },
      issues: [{ code: 'HCR', display: 'Health Issues', description: 'Drug pricing' }],
      lobbyists: ['Ann Lee'],
    });
    const own = readFiling(raw({ income: null, expenses: '55000.00' }))!;
    expect(own).toMatchObject({ amount: 55000, amountKind: 'expenses' });
    expect(readFiling(raw({ income: null }))!.amount).toBeNull();
    expect(readFiling({ nope: 1 })).toBeUndefined();
  });

  it('builds the filters and takes the page from DRF’s next link', () => {
    expect(filingParams({ year: 2025, issueCode: 'HCR', clientName: 'Acme' })).toEqual({
      ordering: '-dt_posted',
      filing_year: '2025',
      filing_general_issue_code: 'HCR',
      client_name: 'Acme',
    });
    expect(nextPage('https://lda.gov/api/v1/filings/?filing_year=2025&page=3')).toBe(3);
    expect(nextPage(null)).toBeUndefined();
    expect(nextPage('not a url')).toBeUndefined();
  });
});

describe('spending', () => {
  const f = (o: Record<string, unknown>) => readFiling(raw(o))!;

  it('folds an amendment into the report it amends, then sums by client, largest first', () => {
    const filings: Filing[] = [
      f({ filing_uuid: 'a', income: '10000.00' }),
      f({
        filing_uuid: 'a-amended',
        filing_type: '1A',
        income: '12000.10',
        dt_posted: '2025-05-01T00:00:00-04:00',
      }),
      f({ filing_uuid: 'b', filing_period: 'second_quarter', income: '0.20' }),
      f({
        filing_uuid: 'c',
        registrant: { id: 9, name: 'BIG CO' },
        client: { id: 90, name: 'BIG CO' },
        income: null,
        expenses: '50000.00',
      }),
      f({ filing_uuid: 'd', client: { id: 71, name: 'SMALL' }, income: null }),
    ];
    expect(
      latestReports(filings)
        .map((x) => x.filingUuid)
        .sort()
    ).toEqual(['a-amended', 'b', 'c', 'd']);
    const s = spending(filings);
    expect(s.filingsRead).toBe(5);
    expect(s.amendmentsFolded).toBe(1);
    expect(s.withoutAmount).toBe(1);
    expect(s.total).toBe(62000.3);
    expect(s.spenders.map((x) => [x.client, x.total, x.reports, x.inHouse])).toEqual([
      ['BIG CO', 50000, 1, true],
      ['ACME', 12000.3, 2, false],
    ]);
    expect(usd(12000.3)).toBe('$12,000.30');
    expect(usd(1_250_000)).toBe('$1,250,000');
  });
});
