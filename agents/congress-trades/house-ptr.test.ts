import { describe, expect, it } from 'vitest';
import { housePtrPdf, scannedPdf } from '../../test/support/pdf-fixtures.js';
import { isoDate, pdfLines, ptrRows } from './house-ptr.js';

describe('House PTR PDFs', () => {
  it('reads the rows of an e-filed PTR, the wrapped amount joined', async () => {
    const pdf = housePtrPdf({
      filingId: '20030001',
      name: 'Hon. Nancy Pelosi',
      stateDst: 'CA11',
      rows: [
        {
          owner: 'SP',
          asset: 'NVIDIA Corporation - Common Stock (NVDA) [ST]',
          type: 'P',
          date: '01/05/2026',
          notified: '01/06/2026',
          amount: '$1,000,001 - $5,000,000',
          description: 'Purchased 50 call options.',
        },
        {
          asset: 'US Treasury Bill [GS]',
          type: 'S (partial)',
          date: '12/30/2025',
          notified: '01/02/2026',
          amount: '$15,001 - $50,000',
        },
      ],
    });
    const text = await pdfLines(pdf);
    expect(text.kind).toBe('text');
    const rows = ptrRows(text.kind === 'text' ? text.lines : []);
    expect(rows).toEqual([
      {
        owner: 'spouse',
        asset: 'NVIDIA Corporation - Common Stock',
        ticker: 'NVDA',
        assetType: 'ST',
        type: 'purchase',
        date: '2026-01-05',
        notified: '2026-01-06',
        amount: '$1,000,001 - $5,000,000',
      },
      {
        owner: 'self',
        asset: 'US Treasury Bill',
        ticker: null,
        assetType: 'GS',
        type: 'partial sale',
        date: '2025-12-30',
        notified: '2026-01-02',
        amount: '$15,001 - $50,000',
      },
    ]);
  });

  it('says a page with only an image is a scan', async () => {
    expect(await pdfLines(scannedPdf())).toEqual({ kind: 'scanned', pages: 1 });
  });

  it('joins an asset name wrapped onto the next line and an amount on a label line', () => {
    const rows = ptrRows([
      'JT Microsoft Corporation - Common S 1/5/2026 1/7/2026 $15,001 -',
      'Stock (MSFT) [ST]',
      'F S : New $50,000',
      'DC Exxon Mobil (XOM) [ST] E 02/01/2026 02/03/2026 Over $50,000,000',
    ]);
    expect(rows.map((r) => [r.owner, r.asset, r.ticker, r.type, r.amount])).toEqual([
      ['joint', 'Microsoft Corporation - Common Stock', 'MSFT', 'sale', '$15,001 - $50,000'],
      ['dependent child', 'Exxon Mobil', 'XOM', 'exchange', 'Over $50,000,000'],
    ]);
    expect(isoDate('1/5/2026')).toBe('2026-01-05');
    expect(isoDate('soon')).toBeNull();
  });
});
