import { describe, expect, it } from 'vitest';
import { readHit } from './grants-gov.js';
import { isoDate, merge, numberKey, type Opportunity } from './opportunity.js';
import { readNotice, samDate } from './sam.js';

const opp = (
  o: Partial<Opportunity> & Pick<Opportunity, 'source' | 'id' | 'title'>
): Opportunity => ({
  url: `u/${o.id}`,
  number: null,
  agency: null,
  kind: o.source === 'SAM.gov' ? 'procurement' : 'funding',
  type: null,
  status: null,
  postedDate: null,
  deadline: null,
  setAside: null,
  naics: null,
  notices: 1,
  alsoOn: [],
  ...o,
});

describe('opportunities', () => {
  it('reads both sources’ dates as ISO', () => {
    expect(isoDate('01/05/2026')).toBe('2026-01-05');
    expect(isoDate('Jan 5, 2026 12:00:00 AM EST')).toBe('2026-01-05');
    expect(isoDate('2026-01-05T14:00:00-05:00')).toBe('2026-01-05T14:00:00-05:00');
    expect(isoDate('soon')).toBeNull();
    expect(samDate('2026-01-05')).toBe('01/05/2026');
  });

  it('folds amendments into the latest notice and links the other source', () => {
    const merged = merge(
      [
        opp({
          source: 'SAM.gov',
          id: 'a',
          title: 'T',
          number: 'ABC-123',
          postedDate: '2026-01-01',
        }),
        opp({
          source: 'SAM.gov',
          id: 'b',
          title: 'T (amended)',
          number: 'ABC123',
          postedDate: '2026-01-03',
        }),
        opp({
          source: 'SAM.gov',
          id: 'c',
          title: 'Other',
          number: 'XYZ-9',
          postedDate: '2026-01-02',
        }),
      ],
      [
        opp({
          source: 'Grants.gov',
          id: '1',
          title: 'Grant',
          number: 'abc 123',
          postedDate: '2026-01-04',
        }),
        opp({ source: 'Grants.gov', id: '2', title: 'other', postedDate: '2025-12-01' }),
      ]
    );
    expect(merged.map((o) => [o.id, o.notices, o.alsoOn.map((l) => l.id)])).toEqual([
      ['b', 2, ['1']],
      ['c', 1, ['2']],
    ]);
    expect(numberKey('ab')).toBeNull();
  });

  it('reads a SAM.gov notice and a Grants.gov hit, refusing what is not one', () => {
    expect(
      readNotice({ noticeId: 'n1', title: 'T', postedDate: '2026-01-02', active: 'Yes' })
    ).toMatchObject({ source: 'SAM.gov', url: 'https://sam.gov/opp/n1/view', status: 'active' });
    expect(readNotice({ title: 'no id' })).toBeUndefined();
    expect(readHit({ id: 350100, title: 'G', openDate: '11/02/2026' })).toMatchObject({
      id: '350100',
      postedDate: '2026-11-02',
      url: 'https://www.grants.gov/search-results-detail/350100',
    });
  });
});
