import { describe, expect, it } from 'vitest';
import { anyOf, isoDay, readApplication, readLabel, readRecall, term } from './openfda.js';
import { renderAdverse, renderApprovals, renderSearch } from './render.js';

describe('openFDA requests and records', () => {
  it('quotes terms so a caller cannot end the phrase', () => {
    expect(term('advil')).toBe('"advil"');
    expect(term('a" OR b:"x\\')).toBe('"a OR b: x"');
    expect(anyOf(['openfda.brand_name', 'openfda.generic_name'], 'Advil')).toBe(
      'openfda.brand_name:"Advil" OR openfda.generic_name:"Advil"'
    );
  });

  it('reads a label, shortening long indications', () => {
    const l = readLabel({
      set_id: 's1',
      effective_time: '20250601',
      openfda: {
        brand_name: ['ADVIL'],
        generic_name: ['IBUPROFEN'],
        manufacturer_name: ['Haleon'],
      },
      indications_and_usage: ['x'.repeat(400)],
      boxed_warning: ['risk'],
    })!;
    expect(l).toMatchObject({
      setId: 's1',
      brandName: 'ADVIL',
      genericName: 'IBUPROFEN',
      manufacturer: 'Haleon',
      effectiveDate: '2025-06-01',
      boxedWarning: true,
    });
    expect(l.indications).toHaveLength(298);
    expect(readLabel({ openfda: {} })).toBeUndefined();
  });

  it('reads a recall', () => {
    expect(
      readRecall({
        recall_number: 'D-1-2026',
        classification: 'Class I',
        status: 'Ongoing',
        reason_for_recall: 'Contamination',
        product_description: 'Tablets',
        recalling_firm: 'Firm',
        report_date: '20260304',
      })
    ).toEqual({
      recallNumber: 'D-1-2026',
      classification: 'Class I',
      status: 'Ongoing',
      reason: 'Contamination',
      product: 'Tablets',
      firm: 'Firm',
      reportDate: '2026-03-04',
    });
  });

  it('reads an application: the original approval and the latest submission', () => {
    const a = readApplication({
      application_number: 'NDA1',
      sponsor_name: 'PFIZER INC',
      products: [
        {
          brand_name: 'X',
          dosage_form: 'TABLET',
          route: 'ORAL',
          active_ingredients: [{ name: 'XMAB', strength: '5MG' }],
        },
      ],
      submissions: [
        {
          submission_type: 'SUPPL',
          submission_number: '3',
          submission_status: 'AP',
          submission_status_date: '20260101',
        },
        {
          submission_type: 'ORIG',
          submission_number: '1',
          submission_status: 'AP',
          submission_status_date: '20200202',
          review_priority: 'PRIORITY',
        },
      ],
    })!;
    expect(a).toMatchObject({
      applicationNumber: 'NDA1',
      sponsor: 'PFIZER INC',
      brandName: 'X',
      approvedOn: '2020-02-02',
      reviewPriority: 'PRIORITY',
      latest: { type: 'SUPPL', number: '3', status: 'AP', date: '2026-01-01' },
    });
    expect(a.products[0]!.ingredients).toEqual(['XMAB 5MG']);
    expect(isoDay('2026-01-01')).toBe('2026-01-01');
  });
});

describe('rendering', () => {
  it('says when there is nothing', () => {
    expect(renderSearch('x', [], [])).toBe('💊 openFDA has no drug labels or recalls for “x”.');
    expect(renderAdverse('x', { total: 0, serious: 0 }, [])).toMatch(/no adverse event reports/);
    expect(renderApprovals({ from: 'a', to: 'b' }, [], 0)).toBe(
      '✅ No original FDA drug approvals from a to b.'
    );
  });

  it('numbers the reactions and warns about causality', () => {
    const t = renderAdverse('ibuprofen', { total: 40, serious: 10 }, [
      { term: 'Nausea', count: 14 },
      { term: 'Rash', count: 7 },
    ]);
    expect(t).toContain('1. Nausea — 14\n2. Rash — 7');
    expect(t).toContain('do not show that the drug caused the reaction');
  });
});
