// Patents as text for people: relevance, number, title, owners, dates and link.
import type { Patent } from './patent.js';
import type { Ranked } from './relevance.js';

/** "US 11,234,567"; application numbers as "application 16/123,456". */
export function label(p: Patent): string {
  if (p.patentNumber) {
    const digits = /^\d+$/.test(p.patentNumber)
      ? Number(p.patentNumber).toLocaleString('en-US')
      : p.patentNumber;
    return `US ${digits}`;
  }
  const a = p.applicationNumber ?? '';
  return /^\d{8}$/.test(a)
    ? `application ${a.slice(0, 2)}/${a.slice(2, 5)},${a.slice(5)}`
    : `application ${a}`;
}

function dates(p: Patent): string {
  const d = [
    p.filingDate ? `filed ${p.filingDate}` : '',
    p.grantDate ? `granted ${p.grantDate}` : '',
  ];
  return d.filter(Boolean).join(', ');
}

function block(p: Ranked, i: number): string[] {
  const pct = p.relevance === null ? '' : `${p.relevance}% · `;
  const lines = [`${i + 1}. ${pct}${label(p)} · ${p.title}`];
  const who = [
    p.assignees.length > 0 ? `🏢 ${p.assignees.slice(0, 2).join(', ')}` : '',
    p.inventors.length > 0 ? `👤 ${p.inventors.slice(0, 3).join(', ')}` : '',
    dates(p) ? `📅 ${dates(p)}` : '',
  ].filter(Boolean);
  if (who.length > 0) lines.push(`   ${who.join(' · ')}`);
  const tags = [
    p.cpc.length > 0 ? `🏷️ ${p.cpc.slice(0, 3).join(', ')}` : '',
    p.status ?? '',
  ].filter(Boolean);
  if (tags.length > 0) lines.push(`   ${tags.join(' · ')}`);
  lines.push(`   🔗 ${p.url}`);
  return lines;
}

export function renderList(
  heading: string,
  patents: readonly Ranked[],
  total: number,
  basis: string,
  empty: string
): string {
  if (patents.length === 0) return empty;
  const count = total > patents.length ? `${patents.length} of ${total}` : `${patents.length}`;
  const lines = [`${heading}: ${count}`];
  if (basis !== '') lines.push(basis);
  patents.forEach((p, i) => lines.push('', ...block(p, i)));
  return lines.join('\n');
}

export function renderDetail(p: Patent, source: string): string {
  const lines = [`📜 ${label(p)} · ${p.title}`, ''];
  if (p.applicationNumber) lines.push(`📁 Application ${p.applicationNumber}`);
  if (p.status) lines.push(`📌 Status: ${p.status}`);
  if (dates(p)) lines.push(`📅 ${dates(p)}`);
  if (p.assignees.length > 0) lines.push(`🏢 Assignees/applicants: ${p.assignees.join(', ')}`);
  if (p.inventors.length > 0) lines.push(`👤 Inventors: ${p.inventors.join(', ')}`);
  if (p.cpc.length > 0) lines.push(`🏷️ CPC: ${p.cpc.join(', ')}`);
  if (p.abstract) lines.push('', p.abstract);
  lines.push(`🔗 ${p.url}`, `(from ${source})`);
  return lines.join('\n');
}
