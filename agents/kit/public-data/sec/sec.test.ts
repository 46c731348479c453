import { describe, expect, it } from 'vitest';
import { normalAccession, rawOwnershipDocument } from './archives.js';
import { peoNames } from './insiders.js';
import { parseOwnership, relationship } from './ownership.js';
import { matchCompanies, normalName } from './tickers.js';
import { zipFilings } from './submissions.js';

const LISTED = [
  { cik: 320193, ticker: 'AAPL', name: 'Apple Inc.' },
  { cik: 1418121, ticker: 'APLE', name: 'Apple Hospitality REIT, Inc.' },
  { cik: 1067983, ticker: 'BRK-B', name: 'BERKSHIRE HATHAWAY INC' },
  { cik: 1067983, ticker: 'BRK-A', name: 'BERKSHIRE HATHAWAY INC' },
];

describe('EDGAR readers', () => {
  it('matches tickers, names and CIKs, best first', () => {
    expect(normalName('Apple Inc.')).toBe('APPLE');
    expect(matchCompanies(LISTED, 'apple').map((c) => c.ticker)).toEqual(['AAPL', 'APLE']);
    expect(matchCompanies(LISTED, 'brk.b')[0]!.ticker).toBe('BRK-B');
    expect(matchCompanies(LISTED, 'Berkshire Hathaway').map((c) => c.cik)).toEqual([
      1067983, 1067983,
    ]);
    expect(matchCompanies(LISTED, '320193').map((c) => c.ticker)).toEqual(['AAPL']);
    expect(matchCompanies(LISTED, 'zzz')).toEqual([]);
  });

  it('zips columnar filings by index', () => {
    const f = zipFilings('https://www.sec.gov', 320193, {
      accessionNumber: ['0000320193-25-000079', '0000320193-25-000073'],
      form: ['10-K', '10-Q'],
      filingDate: ['2025-10-31', '2025-08-01'],
      reportDate: ['2025-09-27', ''],
      primaryDocument: ['aapl-20250927.htm', ''],
      isXBRL: [1, 0],
    });
    expect(f[0]).toMatchObject({
      form: '10-K',
      reportDate: '2025-09-27',
      isXbrl: true,
      documentUrl:
        'https://www.sec.gov/Archives/edgar/data/320193/000032019325000079/aapl-20250927.htm',
    });
    expect(f[1]).toMatchObject({
      form: '10-Q',
      reportDate: null,
      primaryDocument: null,
      documentUrl: null,
    });
  });

  it('normalizes accessions and drops the rendering prefix', () => {
    expect(normalAccession('000032019325000079')).toBe('0000320193-25-000079');
    expect(normalAccession('0000320193-25-79')).toBeUndefined();
    expect(rawOwnershipDocument('xslF345X05/wf-form4_1.xml')).toBe('wf-form4_1.xml');
    expect(rawOwnershipDocument('form4.xml')).toBe('form4.xml');
  });

  it('parses an ownershipDocument', () => {
    const f = parseOwnership(`<?xml version="1.0"?><ownershipDocument><documentType>4</documentType>
      <issuer><issuerCik>0000320193</issuerCik><issuerName>Apple Inc.</issuerName><issuerTradingSymbol>AAPL</issuerTradingSymbol></issuer>
      <reportingOwner><reportingOwnerId><rptOwnerCik>0001214156</rptOwnerCik><rptOwnerName>Cook Timothy D</rptOwnerName></reportingOwnerId>
      <reportingOwnerRelationship><isDirector>1</isDirector><isOfficer>true</isOfficer><officerTitle>CEO</officerTitle></reportingOwnerRelationship></reportingOwner>
      <nonDerivativeTable><nonDerivativeTransaction><securityTitle><value>Common Stock</value></securityTitle>
      <transactionDate><value>2026-10-02</value></transactionDate><transactionCoding><transactionCode>S</transactionCode></transactionCoding>
      <transactionAmounts><transactionShares><value>1,000</value></transactionShares><transactionPricePerShare><value>230.5</value><footnoteId id="F1"/></transactionPricePerShare>
      <transactionAcquiredDisposedCode><value>D</value></transactionAcquiredDisposedCode></transactionAmounts>
      <postTransactionAmounts><sharesOwnedFollowingTransaction><value>5000</value></sharesOwnedFollowingTransaction></postTransactionAmounts>
      <ownershipNature><directOrIndirectOwnership><value>I</value></directOrIndirectOwnership></ownershipNature></nonDerivativeTransaction></nonDerivativeTable>
      <footnotes><footnote id="F1">Weighted average.</footnote></footnotes></ownershipDocument>`)!;
    expect(f.issuer).toEqual({ cik: 320193, name: 'Apple Inc.', ticker: 'AAPL' });
    expect(relationship(f.owners[0]!)).toBe('Director, CEO');
    expect(f.transactions[0]).toMatchObject({
      code: 'S',
      shares: 1000,
      price: 230.5,
      value: 230500,
      acquiredDisposed: 'D',
      sharesAfter: 5000,
      ownership: 'I',
      footnoteIds: ['F1'],
    });
    expect(f.footnotes).toEqual([{ id: 'F1', text: 'Weighted average.' }]);
    expect(parseOwnership('<html>not a form</html>')).toBeUndefined();
  });

  it('reads ecd:PeoName from inline XBRL', () => {
    expect(
      peoNames(
        '<ix:nonNumeric name="ecd:PeoName" contextRef="c">Jane <b>Q.</b> Doe</ix:nonNumeric>' +
          '<ix:nonNumeric contextRef="d" name="ecd:PeoName">Jane&#160;Q. Doe</ix:nonNumeric>'
      )
    ).toEqual(['Jane Q. Doe']);
  });
});
