import { describe, expect, it } from 'vitest';
import { amount, byConcern, isViolator, readFacility } from './echo.js';
import { renderFacilities, renderTotals } from './render.js';

const row = {
  RegistryID: '110000350174',
  FacName: 'ACME CHEMICAL PLANT',
  FacStreet: '1 INDUSTRIAL WAY',
  FacCity: 'HOUSTON',
  FacState: 'TX',
  FacZip: '77001',
  FacCounty: 'HARRIS',
  FacLat: '29.76',
  FacLong: '-95.37',
  FacComplianceStatus: 'Violation Identified',
  FacSNCFlg: 'Y',
  FacQtrsWithNC: '8',
  FacInspectionCount: '5',
  FacDateLastInspection: '02/10/2026',
  FacFormalActionCount: '2',
  FacPenaltyCount: '2',
  FacTotalPenalties: '$125,000',
  CAAComplianceStatus: 'Violation Identified',
  CWAComplianceStatus: 'No Violation Identified',
  RCRAComplianceStatus: '',
  FacNAICSCodes: '325110 325199',
  DfrUrl: 'https://echo.epa.gov/detailed-facility-report?fid=110000350174',
};

describe('ECHO records', () => {
  it('reads a facility row (ECHO sends numbers as strings)', () => {
    expect(readFacility(row)).toEqual({
      registryId: '110000350174',
      name: 'ACME CHEMICAL PLANT',
      street: '1 INDUSTRIAL WAY',
      city: 'HOUSTON',
      state: 'TX',
      zip: '77001',
      county: 'HARRIS',
      lat: 29.76,
      lon: -95.37,
      complianceStatus: 'Violation Identified',
      snc: true,
      quartersInViolation: 8,
      inspections: 5,
      lastInspection: '02/10/2026',
      formalActions: 2,
      penaltyCount: 2,
      totalPenalties: 125000,
      programs: { caa: 'Violation Identified', cwa: 'No Violation Identified' },
      naics: ['325110', '325199'],
      url: 'https://echo.epa.gov/detailed-facility-report?fid=110000350174',
    });
    expect(readFacility({ FacName: 'no id' })).toBeUndefined();
  });

  it('reads amounts', () => {
    expect(amount('$1,234.50')).toBe(1234.5);
    expect(amount('')).toBe(0);
    expect(amount(7)).toBe(7);
    expect(amount(null)).toBe(0);
  });

  it('tells violators and orders them worst first', () => {
    const snc = readFacility(row)!;
    const clean = readFacility({
      ...row,
      RegistryID: '2',
      FacSNCFlg: 'N',
      FacQtrsWithNC: '0',
      FacComplianceStatus: 'No Violation Identified',
    })!;
    const some = readFacility({ ...row, RegistryID: '3', FacSNCFlg: 'N', FacQtrsWithNC: '3' })!;
    expect([snc, clean, some].map(isViolator)).toEqual([true, false, true]);
    expect([clean, some, snc].sort(byConcern).map((f) => f.registryId)).toEqual([
      '110000350174',
      '3',
      '2',
    ]);
  });

  it('renders facilities and totals', () => {
    const text = renderFacilities('🏭 X', [readFacility(row)!], 3, 'none');
    expect(text).toMatch(
      /^🏭 X: 1 of 3\n\n1\. ACME CHEMICAL PLANT · 1 INDUSTRIAL WAY, HOUSTON, TX 77001/
    );
    expect(text).toContain(
      '🔴 Significant non-compliance · 8 quarters in violation (of 12) · 💲 $125,000 penalties (2)'
    );
    expect(renderFacilities('x', [], 0, 'none')).toBe('none');
    expect(renderTotals({ facilities: 1234, totalPenalties: 5e6, caaFacilities: 10 })).toBe(
      '📊 1,234 active facilities · $5,000,000 in penalties · by program: Clean Air Act 10'
    );
  });
});
