// Lobbying filings and spending as text for people (symbols, one block per filing or client).
import { issueLabel } from './issues.js';
import type { Filing, Period } from './lda.js';
import { issueCounts, usd, type Spending } from './spend.js';

const PERIOD_LABEL: Record<string, string> = {
  first_quarter: 'Q1',
  second_quarter: 'Q2',
  third_quarter: 'Q3',
  fourth_quarter: 'Q4',
  mid_year: 'mid-year',
  year_end: 'year-end',
  registration: 'registration',
};

export function periodLabel(p: string): string {
  return PERIOD_LABEL[p] ?? p.replace(/_/g, ' ');
}

/** "2025 Q1", "2025", "all years": the window a request covered. */
export function windowLabel(year: number | undefined, period: Period | undefined): string {
  if (year === undefined) return period ? `${periodLabel(period)} of every year` : 'all years';
  return period ? `${year} ${periodLabel(period)}` : `${year}`;
}

function amount(f: Filing): string {
  if (f.amount === null) return 'no amount reported';
  return `${usd(f.amount)} ${f.amountKind === 'expenses' ? 'expenses (in-house)' : 'income'}`;
}

function snippet(s: string, max = 160): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** One block per filing; `focus` picks the activity whose description is quoted. */
export function filingBlocks(
  filings: readonly Filing[],
  focus: (f: Filing) => string | undefined = () => undefined
): string[] {
  const lines: string[] = [];
  filings.forEach((f, i) => {
    lines.push(
      '',
      `${i + 1}. ${f.client.name} · ${f.year} ${periodLabel(f.period)} · ${f.filingTypeDisplay}`
    );
    lines.push(`   🏢 ${f.registrant.name} · 💵 ${amount(f)}`);
    const codes = [...new Set(f.issues.map((x) => x.code))];
    if (codes.length > 0)
      lines.push(`   🏷️ ${codes.slice(0, 8).join(', ')}${codes.length > 8 ? ', …' : ''}`);
    const quote = focus(f) ?? f.issues.find((x) => x.description !== '')?.description;
    if (quote) lines.push(`   📝 ${snippet(quote)}`);
    if (f.lobbyists.length > 0) {
      const more = f.lobbyists.length > 3 ? ` +${f.lobbyists.length - 3}` : '';
      lines.push(`   👤 ${f.lobbyists.slice(0, 3).join(', ')}${more}`);
    }
    lines.push(
      `   📅 posted ${f.postedAt.slice(0, 10)}${f.documentUrl ? ` · 🔗 ${f.documentUrl}` : ''}`
    );
  });
  return lines;
}

/** "12 filings" or "25 of 1,204 filings (newest first)". */
export function countLabel(shown: number, total: number): string {
  const s = (n: number) => `${n.toLocaleString('en-US')} filing${n === 1 ? '' : 's'}`;
  return total > shown ? `${shown} of ${s(total)} (newest first)` : s(shown);
}

/** Which filings a total covers: all LDA lists, or the most recent part of them. */
export function coverage(s: Spending, total: number): string {
  const read = s.filingsRead.toLocaleString('en-US');
  const head =
    total > s.filingsRead
      ? `Over the ${read} most recently posted of ${total.toLocaleString('en-US')} filings LDA lists; the totals cover those only.`
      : `Over all ${read} filing${s.filingsRead === 1 ? '' : 's'} LDA lists.`;
  const notes = [
    s.amendmentsFolded > 0
      ? `${s.amendmentsFolded} amendment${s.amendmentsFolded === 1 ? '' : 's'} replaced the report${s.amendmentsFolded === 1 ? '' : 's'} amended`
      : '',
    s.withoutAmount > 0
      ? `${s.withoutAmount} report${s.withoutAmount === 1 ? '' : 's'} stated no amount`
      : '',
  ].filter((x) => x !== '');
  return notes.length > 0 ? `${head} ${notes.join('; ')}.` : head;
}

export function renderSpenders(what: string, s: Spending, total: number, limit: number): string {
  if (s.spenders.length === 0) {
    return `💰 No lobbying spending reported ${what}. ${coverage(s, total)}`;
  }
  const top = s.spenders.slice(0, limit);
  const lines = [
    `💰 Top lobbying spenders ${what}: ${top.length} of ${s.spenders.length} clients`,
    `📊 ${coverage(s, total)} Reported in all: ${usd(s.total)}.`,
    '',
  ];
  top.forEach((c, i) => {
    const firms = c.inHouse
      ? 'in-house'
      : `via ${c.registrants.slice(0, 2).join(', ')}${c.registrants.length > 2 ? ` +${c.registrants.length - 2}` : ''}`;
    lines.push(
      `${i + 1}. ${c.client} · ${usd(c.total)} · ${c.reports} report${c.reports === 1 ? '' : 's'} · ${firms}`
    );
  });
  return lines.join('\n');
}

export function renderCompany(
  company: string,
  when: string,
  filings: readonly Filing[],
  shown: readonly Filing[],
  total: number,
  s: Spending
): string {
  if (filings.length === 0)
    return `🏛️ No lobbying filings found for client “${company}” (${when}).`;
  const lines = [
    `🏛️ Lobbying for client “${company}” (${when}): ${countLabel(filings.length, total)}`,
  ];
  lines.push(`💵 Reported: ${usd(s.total)}. ${coverage(s, total)}`);
  const clients = s.spenders.map((c) => `${c.client} ${usd(c.total)}`);
  if (clients.length > 1) lines.push(`🧾 By client: ${clients.slice(0, 5).join(' · ')}`);
  const firms = [...new Set(filings.map((f) => f.registrant.name))];
  lines.push(`🏢 Filed by: ${firms.slice(0, 6).join(', ')}${firms.length > 6 ? ', …' : ''}`);
  const issues = issueCounts(filings).slice(0, 6);
  if (issues.length > 0) {
    lines.push(`🏷️ Issues: ${issues.map((x) => `${issueLabel(x.code)} ×${x.filings}`).join(', ')}`);
  }
  lines.push(...filingBlocks(shown));
  return lines.join('\n');
}

export function renderFilings(
  heading: string,
  filings: readonly Filing[],
  total: number,
  focus?: (f: Filing) => string | undefined
): string {
  if (filings.length === 0) return `🏛️ No lobbying filings found for ${heading}.`;
  return [
    `🏛️ Lobbying filings for ${heading}: ${countLabel(filings.length, total)}`,
    ...filingBlocks(filings, focus),
  ].join('\n');
}
