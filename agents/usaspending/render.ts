// USAspending answers as text for people (symbols, one block per award).
import type { AgencyRef, Award, Recipient } from './awards.js';
import type { AwardDetail } from './detail.js';
import { GROUP, type Group } from './groups.js';

/** $1,234 below a million, then $4.56M / $1.23B. */
export function money(n: number | null): string {
  if (n === null) return 'amount not reported';
  const sign = n < 0 ? '-' : '';
  const a = Math.abs(n);
  if (a >= 1e9) return `${sign}$${(a / 1e9).toFixed(2)}B`;
  if (a >= 1e6) return `${sign}$${(a / 1e6).toFixed(2)}M`;
  return `${sign}$${a.toLocaleString('en-US', { maximumFractionDigits: 0 })}`;
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

export function groupList(groups: readonly Group[]): string {
  return groups.map((g) => `${GROUP[g].label}s`).join(', ');
}

export function countLine(
  counts: Partial<Record<Group, number>>,
  groups: readonly Group[]
): string {
  const parts = groups
    .filter((g) => counts[g] !== undefined)
    .map((g) => plural(counts[g]!, GROUP[g].label));
  return parts.length === 0 ? '' : `${parts.join(', ')} match`;
}

function cut(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n - 1).trimEnd()}…`;
}

export function renderAwards(
  heading: string,
  awards: readonly Award[],
  counts: Partial<Record<Group, number>>,
  groups: readonly Group[]
): string {
  const matched = countLine(counts, groups);
  if (awards.length === 0) return `💰 No awards found for ${heading} (${groupList(groups)}).`;
  const lines = [
    `💰 Awards for ${heading} (${groupList(groups)}): ${awards.length} largest shown` +
      (matched ? ` · ${matched}` : ''),
  ];
  awards.forEach((a, i) => {
    lines.push(
      '',
      `${i + 1}. ${a.awardId} · ${GROUP[a.group].label}${a.type ? ` (${a.type})` : ''} · ${money(a.amount)}`,
      `   🏢 ${a.recipient ?? 'recipient not reported'}${a.recipientUei ? ` (UEI ${a.recipientUei})` : ''}`,
      `   🏛️ ${agencyPath(a.agency, a.subAgency)}`
    );
    if (a.startDate || a.endDate) lines.push(`   📅 ${a.startDate ?? '?'} → ${a.endDate ?? '?'}`);
    if (a.description) lines.push(`   📝 ${cut(a.description, 160)}`);
    lines.push(`   🔗 ${a.url}`);
  });
  return lines.join('\n');
}

function agencyPath(agency: string | null, sub: string | null): string {
  const parts = [agency, sub !== agency ? sub : null].filter((x): x is string => x !== null);
  return parts.length === 0 ? 'agency not reported' : parts.join(' / ');
}

export function recipientLine(r: Recipient): string {
  return `${r.name}${r.uei ? ` (UEI ${r.uei})` : ''}`;
}

export function agencyLabel(a: AgencyRef): string {
  const abbr = a.abbreviation ? ` (${a.abbreviation})` : '';
  return a.tier === 'subtier' && a.toptierName
    ? `${a.name}${abbr}, ${a.toptierName}`
    : `${a.name}${abbr}`;
}

export function renderDetail(d: AwardDetail): string {
  const lines = [
    `💰 ${d.awardId ?? d.generatedId} · ${d.type ?? d.category ?? 'award'}`,
    `💵 Obligated ${money(d.totalObligation)}` +
      (d.potentialValue !== null && d.potentialValue !== d.totalObligation
        ? ` · potential ${money(d.potentialValue)}`
        : ''),
    `🏢 Recipient: ${d.recipient.name ?? 'not reported'}${d.recipient.uei ? ` (UEI ${d.recipient.uei})` : ''}` +
      (d.recipient.parent && d.recipient.parent !== d.recipient.name
        ? ` · parent ${d.recipient.parent}`
        : '') +
      (d.recipient.location ? ` · ${d.recipient.location}` : ''),
    `🏛️ Awarded by: ${[d.awardingAgency.name, d.awardingAgency.subAgency, d.awardingAgency.office].filter(Boolean).join(' / ') || 'not reported'}`,
  ];
  if (d.fundingAgency && d.fundingAgency !== d.awardingAgency.name) {
    lines.push(`💳 Funded by: ${d.fundingAgency}`);
  }
  lines.push(
    `📅 Signed ${d.dateSigned ?? '?'} · performance ${d.period.start ?? '?'} → ${d.period.end ?? '?'}`
  );
  if (d.placeOfPerformance) lines.push(`📍 Place of performance: ${d.placeOfPerformance}`);
  if (d.naics)
    lines.push(`🏭 NAICS ${d.naics.code}${d.naics.description ? ` ${d.naics.description}` : ''}`);
  if (d.psc) lines.push(`📦 PSC ${d.psc.code}${d.psc.description ? ` ${d.psc.description}` : ''}`);
  if (d.description) lines.push(`📝 ${cut(d.description, 400)}`);
  lines.push(`🔗 ${d.url}`);
  return lines.join('\n');
}
