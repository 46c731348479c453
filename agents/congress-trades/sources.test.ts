import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readIndex } from './house.js';
import { ptrTable } from './senate.js';

describe('the House index', () => {
  it('keeps the PTRs of {YEAR}FD.xml, with empty elements and a BOM', () => {
    const xml =
      '\uFEFF<?xml version="1.0" encoding="utf-8"?>\r\n<FinancialDisclosure>' +
      '<Member><Prefix>Hon.</Prefix><Last>Pelosi</Last><First>Nancy</First><Suffix />' +
      '<FilingType>P</FilingType><StateDst>CA11</StateDst><Year>2026</Year>' +
      '<FilingDate>1/9/2026</FilingDate><DocID>20030001</DocID></Member>' +
      '<Member><Prefix /><Last>Doe</Last><First>Jane</First><Suffix>Jr.</Suffix>' +
      '<FilingType>O</FilingType><StateDst>NY01</StateDst><Year>2026</Year>' +
      '<FilingDate>5/15/2026</FilingDate><DocID>10060001</DocID></Member></FinancialDisclosure>';
    const zip = zipSync({ '2026FD.txt': strToU8('x'), '2026FD.xml': strToU8(xml) });
    expect(readIndex(zip, 2026, 'https://clerk.example/public_disc/')).toEqual([
      {
        chamber: 'house',
        member: 'Hon. Nancy Pelosi',
        first: 'Nancy',
        last: 'Pelosi',
        state: 'CA11',
        filed: '2026-01-09',
        id: '20030001',
        url: 'https://clerk.example/public_disc/ptr-pdfs/2026/20030001.pdf',
        paper: false,
      },
    ]);
  });

  it('fails plainly on a zip without the index', () => {
    const zip = zipSync({ 'other.xml': strToU8('<a/>') });
    expect(() => readIndex(zip, 2026, 'https://x')).toThrow(/has no 2026FD\.xml index/);
    expect(() => readIndex(strToU8('not a zip'), 2026, 'https://x')).toThrow(/not a readable zip/);
  });
});

describe('the Senate PTR page', () => {
  it('reads the transactions table, "--" as nothing', () => {
    const html = `<table class="table"><thead><tr><th>#</th><th>Transaction Date</th><th>Owner</th>
      <th>Ticker</th><th>Asset Name</th><th>Asset Type</th><th>Type</th><th>Amount</th><th>Comment</th>
      </tr></thead><tbody><tr><td>1</td><td>01/05/2026</td><td>Child</td>
      <td><a href="https://finance.yahoo.com/quote/KO">KO</a></td><td>The Coca-Cola
      Company <div class="text-muted"><em>Rate/Coupon:</em> n/a</div></td><td>Stock</td>
      <td>Sale (Partial)</td><td>$1,001 - $15,000</td><td>--</td></tr></tbody></table>`;
    expect(ptrTable(html)).toEqual([
      {
        owner: 'dependent child',
        asset: 'The Coca-Cola Company Rate/Coupon: n/a',
        ticker: 'KO',
        assetType: 'Stock',
        type: 'partial sale',
        date: '2026-01-05',
        notified: null,
        amount: '$1,001 - $15,000',
        comment: null,
      },
    ]);
    expect(ptrTable('<html><body><p>No table</p></body></html>')).toBeUndefined();
  });
});
