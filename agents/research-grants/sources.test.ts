import { describe, expect, it } from 'vitest';
import { dollars, fromUsDate, merge } from './grant.js';
import { nihCriteria, readProject } from './nih.js';
import { nsfParams, readAward, refusal } from './nsf.js';

describe('NIH RePORTER', () => {
  it('builds criteria: the text search, a PI by first and last name, an org, years', () => {
    expect(
      nihCriteria({
        text: 'crispr',
        investigator: 'Jennifer Doudna',
        institution: 'UC',
        year: 2024,
      })
    ).toEqual({
      advanced_text_search: {
        operator: 'and',
        search_field: 'projecttitle,terms,abstracttext',
        search_text: 'crispr',
      },
      pi_names: [{ first_name: 'Jennifer', last_name: 'Doudna' }],
      org_names: ['UC'],
      fiscal_years: [2024],
    });
    expect(nihCriteria({ investigator: 'Doudna' }).pi_names).toEqual([{ any_name: 'Doudna' }]);
  });

  it('reads a project, the contact PI first', () => {
    const g = readProject({
      appl_id: 11000001,
      project_num: '5R01GM000001-03',
      project_title: 'Gene editing',
      fiscal_year: 2024,
      award_amount: 456789,
      organization: { org_name: 'UNIV OF X', org_city: 'BERKELEY', org_state: 'CA' },
      principal_investigators: [
        { full_name: 'Ann B', is_contact_pi: false },
        { full_name: 'Cy D', is_contact_pi: true },
      ],
      agency_ic_admin: {
        abbreviation: 'NIGMS',
        name: 'National Institute of General Medical Sciences',
      },
      project_start_date: '2022-09-01T00:00:00',
      project_end_date: '2026-08-31T00:00:00',
    })!;
    expect(g).toMatchObject({
      source: 'NIH',
      id: '5R01GM000001-03',
      investigators: ['Cy D', 'Ann B'],
      amount: 456789,
      startDate: '2022-09-01',
      funder: 'NIGMS',
      url: 'https://reporter.nih.gov/project-details/11000001',
    });
  });
});

describe('NSF awards', () => {
  it('builds parameters with US dates and a PI split into first and last name', () => {
    expect(nsfParams({ investigator: 'Ada Lovelace', year: 2023 })).toMatchObject({
      piFirstName: 'Ada',
      piLastName: 'Lovelace',
      dateStart: '01/01/2023',
      dateEnd: '12/31/2023',
    });
    expect(nsfParams({ since: '2026-08-29' }).dateStart).toBe('08/29/2026');
  });

  it('reads an award with amounts as strings and US dates', () => {
    expect(
      readAward({
        id: '2400001',
        title: 'Quantum',
        awardeeName: 'MIT',
        fundsObligatedAmt: '350000',
        startDate: '09/01/2024',
        expDate: '08/31/2027',
        piFirstName: 'Ada',
        piLastName: 'Lovelace',
      })
    ).toMatchObject({
      source: 'NSF',
      amount: 350000,
      startDate: '2024-09-01',
      investigators: ['Ada Lovelace'],
      url: 'https://www.nsf.gov/awardsearch/showAward?AWD_ID=2400001',
    });
    expect(dollars('1,250.50')).toBe(1250.5);
    expect(dollars('')).toBeNull();
    expect(fromUsDate('2024-09-01')).toBeUndefined();
  });

  it('finds the error NSF states inside a 200', () => {
    expect(
      refusal({
        response: {
          serviceNotification: [
            { notificationType: 'ERROR', notificationMessage: 'rpp must be 25 or less' },
          ],
        },
      })
    ).toBe('rpp must be 25 or less');
    expect(refusal({ response: { award: [] } })).toBeUndefined();
  });
});

describe('merge', () => {
  it('puts the newest start first, whatever the source, and keeps each row’s source', () => {
    const g = (source: 'NIH' | 'NSF', id: string, startDate?: string) => ({
      source,
      id,
      title: id,
      institution: '',
      investigators: [],
      amount: null,
      url: '',
      ...(startDate ? { startDate } : {}),
    });
    const rows = merge(
      [
        { source: 'NIH', grants: [g('NIH', 'a', '2024-01-01'), g('NIH', 'b')] },
        { source: 'NSF', grants: [g('NSF', 'c', '2025-01-01')] },
      ],
      2
    );
    expect(rows.map((r) => `${r.source}:${r.id}`)).toEqual(['NSF:c', 'NIH:a']);
  });
});
