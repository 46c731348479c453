// Opportunities as text for people (symbols, one block per opportunity).
import type { GrantDetail } from './grants-gov.js';
import type { Opportunity } from './opportunity.js';

function money(n: number | null): string | null {
  return n === null ? null : `$${n.toLocaleString('en-US', { maximumFractionDigits: 0 })}`;
}

function block(o: Opportunity, i?: number): string[] {
  const icon = o.kind === 'procurement' ? '📑' : '💵';
  const facts = [
    o.source,
    o.type,
    o.number ? `🔖 ${o.number}` : null,
    o.postedDate ? `📅 posted ${o.postedDate}` : null,
    o.deadline ? `⏰ due ${o.deadline}` : null,
    o.status,
  ].filter((x): x is string => x !== null && x !== '');
  const tags = [
    o.setAside ? `🏷️ ${o.setAside}` : null,
    o.naics ? `NAICS ${o.naics}` : null,
    o.notices > 1 ? `${o.notices} notices (latest shown)` : null,
  ].filter((x): x is string => x !== null);
  const pad = i === undefined ? '' : '   ';
  const lines = [
    `${i === undefined ? '' : `${i + 1}. `}${icon} ${o.title}`,
    `${pad}${facts.join(' · ')}`,
  ];
  if (o.agency) lines.push(`${pad}🏛️ ${o.agency}`);
  if (tags.length > 0) lines.push(`${pad}${tags.join(' · ')}`);
  lines.push(
    `${pad}🔗 ${o.url}` + o.alsoOn.map((l) => ` · also on ${l.source}: ${l.url}`).join('')
  );
  return lines;
}

export function renderList(
  heading: string,
  found: readonly Opportunity[],
  counts: readonly string[],
  notes: readonly string[]
): string {
  const lines =
    found.length === 0
      ? [`📣 No opportunities found for ${heading}.`]
      : [`📣 Opportunities for ${heading}: ${found.length} shown`];
  if (counts.length > 0) lines.push(counts.join(' · '));
  for (const n of notes) lines.push(`⚠️ ${n}`);
  found.forEach((o, i) => lines.push('', ...block(o, i)));
  return lines.join('\n');
}

export function renderOpportunity(o: Opportunity | GrantDetail): string {
  const lines = block(o);
  if ('awardCeiling' in o) {
    const award = [
      o.estimatedFunding !== null ? `total ${money(o.estimatedFunding)}` : null,
      o.expectedAwards !== null ? `${o.expectedAwards} awards expected` : null,
      o.awardFloor !== null || o.awardCeiling !== null
        ? `each ${money(o.awardFloor) ?? '?'} – ${money(o.awardCeiling) ?? '?'}`
        : null,
    ].filter((x): x is string => x !== null);
    if (award.length > 0) lines.push(`💰 ${award.join(' · ')}`);
    if (o.eligibility.length > 0) lines.push(`✅ Eligible: ${o.eligibility.join('; ')}`);
    if (o.instruments.length > 0) lines.push(`📜 Instruments: ${o.instruments.join('; ')}`);
    if (o.categories.length > 0) lines.push(`🗂️ Categories: ${o.categories.join('; ')}`);
    if (o.assistanceListings.length > 0) {
      lines.push(
        `📋 Assistance listings: ${o.assistanceListings.map((a) => `${a.number}${a.title ? ` ${a.title}` : ''}`).join('; ')}`
      );
    }
    if (o.contact) lines.push(`✉️ ${o.contact}`);
    if (o.description) {
      const d = o.description;
      lines.push(`📝 ${d.length > 500 ? `${d.slice(0, 499).trimEnd()}…` : d}`);
    }
  }
  return lines.join('\n');
}
