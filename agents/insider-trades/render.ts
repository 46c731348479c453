// insider-trades' replies for people: trade lists, the monthly sentiment table and its method.
import type { MonthSentiment, Trade } from './trades.js';

const usd = (n: number) =>
  `$${n.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 2 })}`;
const num = (n: number) => n.toLocaleString('en-US');

const ICON: Record<string, string> = { P: '🟢', S: '🔴' };

export function tradeLine(t: Trade): string {
  const parts = [
    `${ICON[t.code] ?? '⚪'} ${t.date ?? t.filed}`,
    `${t.owner}${t.relationship ? ` (${t.relationship})` : ''}`,
    `${t.code} ${t.codeMeaning}${t.table === 'derivative' ? ' (derivative)' : ''}`,
  ];
  let amount = t.shares === null ? '' : `${num(t.shares)} sh`;
  if (t.price !== null && t.price > 0) amount += ` @ ${usd(t.price)}`;
  if (t.value !== null && t.value > 0) amount += ` = ${usd(t.value)}`;
  if (amount !== '') parts.push(amount);
  if (t.sharesAfter !== null) {
    parts.push(`holds ${num(t.sharesAfter)} after${t.ownership === 'I' ? ' (indirect)' : ''}`);
  }
  return parts.join(' · ');
}

export function renderTrades(
  heading: string,
  trades: readonly Trade[],
  filingsRead: number,
  unreadable: readonly string[]
): string {
  const lines = [`${heading}: ${trades.length} transactions in ${filingsRead} Form 4 filings`];
  if (trades.length === 0)
    lines[0] = `${heading}: no transactions in ${filingsRead} Form 4 filings`;
  let last = '';
  for (const t of trades) {
    if (t.accession !== last) {
      lines.push(
        `📄 ${t.issuer}${t.ticker ? ` (${t.ticker})` : ''} · filed ${t.filed} · ${t.accession}`
      );
      last = t.accession;
    }
    lines.push(`   ${tradeLine(t)}`);
  }
  if (unreadable.length > 0) lines.push(`Not parsed (no ownership XML): ${unreadable.join(', ')}`);
  return lines.join('\n');
}

export const METHOD =
  'Method: open-market purchases (code P) against open-market sales (code S) of non-derivative ' +
  'securities in Form 4 filings, by month of the transaction date; value = shares × price per ' +
  'share as reported; grants, exercises, tax withholding, gifts and other codes are left out.';

export function renderSentiment(
  who: string,
  months: readonly MonthSentiment[],
  filingsRead: number,
  truncated: boolean
): string {
  const lines = [
    `📊 Insider sentiment for ${who}, ${months.length} months (${filingsRead} Form 4 filings read)`,
  ];
  for (const m of [...months].reverse()) {
    const icon = { buying: '🟢', selling: '🔴', balanced: '⚪', none: '·' }[m.signal];
    lines.push(
      `${icon} ${m.month}: ${m.buys} buys ${usd(m.buyValue)} · ${m.sells} sells ${usd(m.sellValue)} · net ${usd(m.netValue)}`
    );
  }
  const buys = months.reduce((s, m) => s + m.buyValue, 0);
  const sells = months.reduce((s, m) => s + m.sellValue, 0);
  lines.push(`Total: buys ${usd(buys)} · sells ${usd(sells)} · net ${usd(buys - sells)}`);
  lines.push(METHOD);
  if (truncated)
    lines.push(
      'Older filings in the window were not read (the filing bound); earlier months may be incomplete.'
    );
  return lines.join('\n');
}
