import { describe, expect, it } from 'vitest';
import {
  StockInput,
  memberFromText,
  recentFromText,
  searchFromText,
  stockFromText,
  windowOf,
} from './parse.js';

describe('congress-trades plain language', () => {
  it('reads a ticker only where it is one', () => {
    expect(stockFromText('which members of Congress traded $nvda')).toMatchObject({
      ticker: 'NVDA',
    });
    expect(stockFromText('senators who sold MSFT shares in 2025')).toEqual({
      ticker: 'MSFT',
      chamber: 'senate',
      year: 2025,
      type: 'sale',
    });
    expect(stockFromText('House trades in BRK.B last 30 days')).toMatchObject({
      ticker: 'BRK.B',
      chamber: 'house',
      days: 30,
    });
    expect(stockFromText('recent US congress stock trades')).toBeUndefined();
    expect(stockFromText('stock trades by Nancy Pelosi')).toBeUndefined();
  });

  it('reads a member’s name after a title or "by"', () => {
    expect(memberFromText('stock trades by Nancy Pelosi')).toEqual({ name: 'Nancy Pelosi' });
    expect(memberFromText('what did Senator Tuberville buy in 2026')).toEqual({
      name: 'Tuberville',
      chamber: 'senate',
      year: 2026,
      type: 'purchase',
    });
    expect(memberFromText("Pelosi's trades")).toEqual({ name: 'Pelosi' });
    expect(memberFromText('recent trades by Congress')).toBeUndefined();
  });

  it('tells recent trades from a search', () => {
    expect(recentFromText('recent congress stock trades')).toEqual({});
    expect(recentFromText('latest senate trades this week')).toEqual({
      chamber: 'senate',
      days: 7,
    });
    expect(recentFromText('recent trades in Microsoft')).toBeUndefined();
    expect(searchFromText('congress trades in Microsoft shares')).toEqual({ query: 'Microsoft' });
    expect(searchFromText('help')).toBeUndefined();
    expect(searchFromText('congress stock trades')).toBeUndefined();
  });

  it('checks a ticker and windows on the filing date', () => {
    expect(StockInput.safeParse({ ticker: '$aapl' }).data?.ticker).toBe('AAPL');
    expect(StockInput.safeParse({ ticker: 'not a ticker' }).success).toBe(false);
    const now = Date.parse('2026-03-10T12:00:00Z');
    expect(windowOf(now, {}, 30)).toEqual({
      from: '2026-02-09',
      to: '2026-03-10',
      label: 'filed in the last 30 days',
    });
    expect(windowOf(now, { year: 2025, days: 7 }, 30)).toMatchObject({
      from: '2025-01-01',
      to: '2025-12-31',
    });
  });
});
