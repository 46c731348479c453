// The congress-trades replies for people: the trades, what was read and what was not (scans,
// paper filings, reports past the bound), and the Ethics in Government Act notice on every reply.
import type { Trade } from './model.js';
import type { Collected, ReadReport } from './reports.js';

/** 5 U.S.C. § 13107(c) (formerly § 105(c) of the Ethics in Government Act of 1978). */
export const NOTICE =
  '⚖️ Notice: the Ethics in Government Act (5 U.S.C. § 13107(c)) makes it unlawful to obtain or ' +
  'use these reports for any unlawful purpose, for any commercial purpose other than by news and ' +
  'communications media for dissemination to the general public, for determining or establishing ' +
  'anyone’s credit rating, or for soliciting money for any political, charitable or other purpose.';

const TYPE_ICON: Record<string, string> = {
  purchase: '🟢 Purchase',
  sale: '🔴 Sale',
  'partial sale': '🟠 Partial sale',
  exchange: '🔄 Exchange',
};

const CHAMBER = { house: 'House', senate: 'Senate' } as const;

function who(t: Trade): string {
  const where = t.state ? `${CHAMBER[t.chamber]}, ${t.state}` : CHAMBER[t.chamber];
  return `${t.member} (${where})`;
}

function tradeLines(t: Trade, i: number): string[] {
  const asset = [t.ticker, t.asset, t.assetType ? `[${t.assetType}]` : '']
    .filter((s) => s !== null && s !== '')
    .join(' ');
  return [
    `${i + 1}. 📅 ${t.date ?? 'date not given'} · ${TYPE_ICON[t.type] ?? t.type} · ${asset}`,
    `   👤 ${who(t)} · owner ${t.owner} · 💵 ${t.amount} · filed ${t.filed}`,
    `   🔗 ${t.reportUrl}`,
  ];
}

const STATUS_NOTE: Record<string, string> = {
  scanned: 'scanned, not parsed',
  paper: 'paper filing (images), not parsed',
  missing: 'document not found upstream',
  unrecognised: 'text found but no transaction rows recognised',
};

/** What was read, and each report that could not be: named with its link, never guessed. */
export function coverage(c: Collected): string[] {
  const parsed = c.read.filter((r) => r.status === 'parsed').length;
  const lines = [
    `📄 Reports: ${c.read.length} of ${c.found} in range read, newest first (${parsed} parsed)` +
      (c.found > c.read.length
        ? `; ${c.found - c.read.length} older not read (CONGRESS_MAX_REPORTS); narrow the request to reach them`
        : ''),
  ];
  for (const r of c.read.filter((x: ReadReport) => x.status !== 'parsed')) {
    lines.push(
      `   ⚠️ ${r.member} (${CHAMBER[r.chamber]}), filed ${r.filed}: ${STATUS_NOTE[r.status] ?? r.status} · ${r.url}`
    );
  }
  return lines;
}

export function renderTrades(heading: string, c: Collected, trades: Trade[]): string {
  const head =
    trades.length === 0
      ? `🏛️ No congressional trades found ${heading}.`
      : `🏛️ Congressional trades ${heading}: ${trades.length}${
          trades.length < c.trades.length ? ` of ${c.trades.length}` : ''
        }`;
  return [head, '', ...trades.flatMap(tradeLines), ...(trades.length ? [''] : []), ...coverage(c)]
    .join('\n')
    .trim();
}
