import { describe, expect, it } from 'vitest';
import { parseFeed } from './feed.js';
import { displayName } from './insider.js';
import { insiderFromText, recentFromText, sentimentFromText, stockFromText } from './parse.js';
import { monthlySentiment, monthsBetween, type Trade } from './trades.js';

const trade = (o: Partial<Trade>): Trade => ({
  table: 'non-derivative',
  security: 'Common Stock',
  date: '2026-03-04',
  code: 'P',
  codeMeaning: '',
  shares: 10,
  price: 5,
  acquiredDisposed: 'A',
  sharesAfter: 10,
  ownership: 'D',
  value: 50,
  footnoteIds: [],
  accession: 'x',
  filed: '2026-03-05',
  issuer: 'X',
  issuerCik: 1,
  ticker: 'X',
  owner: 'O',
  ownerCik: 2,
  relationship: 'Director',
  xmlUrl: null,
  ...o,
});

describe('insider-trades', () => {
  it('reads plain language into skills', () => {
    expect(stockFromText('insider trades at AAPL')).toEqual({ company: 'AAPL' });
    expect(stockFromText('insider buying at Tesla, top 20')).toEqual({
      company: 'Tesla',
      codes: ['P'],
      limit: 20,
    });
    expect(stockFromText('trades at Apple')).toBeUndefined();
    expect(insiderFromText('trades by Timothy Cook')).toEqual({ insider: 'Timothy Cook' });
    expect(insiderFromText('sales by insider 1214156')).toEqual({
      insider: '1214156',
      codes: ['S'],
    });
    expect(sentimentFromText('insider sentiment for AAPL over 6 months')).toEqual({
      company: 'AAPL',
      months: 6,
    });
    expect(sentimentFromText('sentiment')).toBeUndefined();
    expect(recentFromText('latest insider trades')).toEqual({});
    expect(recentFromText('latest insider trades at Apple')).toBeUndefined();
  });

  it('counts P and S by month, leaving other codes and derivatives out', () => {
    const months = monthlySentiment(
      [
        trade({}),
        trade({ code: 'S', value: 80, shares: 4 }),
        trade({ code: 'S', date: '2026-04-01', value: 20 }),
        trade({ code: 'A', value: 999 }),
        trade({ code: 'P', table: 'derivative', value: 999 }),
        trade({ date: '2025-01-01' }),
      ],
      monthsBetween('2026-02', '2026-04')
    );
    expect(
      months.map((m) => [m.month, m.buys, m.buyValue, m.sells, m.sellValue, m.signal])
    ).toEqual([
      ['2026-02', 0, 0, 0, 0, 'none'],
      ['2026-03', 1, 50, 1, 80, 'selling'],
      ['2026-04', 0, 0, 1, 20, 'selling'],
    ]);
    expect(months[1]!.buyRatio).toBe(0.385);
    expect(monthsBetween('2025-11', '2026-02')).toEqual([
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
    ]);
  });

  it('reads display names and the Atom feed', () => {
    expect(displayName('Cook Timothy D  (CIK 0001214156)')).toEqual({
      name: 'Cook Timothy D',
      ticker: null,
      cik: 1214156,
    });
    expect(displayName('Apple Inc.  (AAPL)  (CIK 0000320193)')).toEqual({
      name: 'Apple Inc.',
      ticker: 'AAPL',
      cik: 320193,
    });
    const feed = parseFeed(`<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom">
      <entry><title>4 - Doe Jane (0000000009) (Reporting)</title><updated>2026-11-26T18:30:12-05:00</updated>
      <id>urn:tag:sec.gov,2008:accession-number=0000000001-26-000001</id></entry>
      <entry><title>4 - Acme Corp (0000000001) (Issuer)</title><updated>2026-11-26T18:30:12-05:00</updated>
      <id>urn:tag:sec.gov,2008:accession-number=0000000001-26-000001</id></entry></feed>`);
    expect(feed).toEqual([
      {
        accession: '0000000001-26-000001',
        form: '4',
        updated: '2026-11-26T18:30:12-05:00',
        filers: [
          { cik: 9, name: 'Doe Jane', role: 'Reporting' },
          { cik: 1, name: 'Acme Corp', role: 'Issuer' },
        ],
      },
    ]);
    expect(parseFeed('<html/>')).toBeUndefined();
  });
});
