// Grants as text for people: one block per grant, each naming its source (NIH or NSF).
import type { Found, Grant, Source } from './grant.js';

export interface Failure {
  source: Source;
  message: string;
}

const BADGE: Record<Source, string> = { NIH: '🧬 NIH', NSF: '🔭 NSF' };

export function usd(n: number): string {
  return `$${Math.round(n).toLocaleString('en-US')}`;
}

function counts(found: readonly Found[]): string {
  return found
    .map((f) => {
      // NSF does not say how many it has: what was read is all that can be said.
      return f.total !== undefined
        ? `${f.source} ${f.total.toLocaleString('en-US')}`
        : `${f.source} ${f.grants.length} read`;
    })
    .join(' · ');
}

export function renderGrants(
  heading: string,
  grants: readonly Grant[],
  found: readonly Found[],
  failures: readonly Failure[]
): string {
  const lines: string[] = [];
  if (grants.length === 0) lines.push(`🎓 No research grants found for ${heading}.`);
  else
    lines.push(
      `🎓 Research grants for ${heading}: ${grants.length} shown (found: ${counts(found)})`
    );
  for (const f of failures) lines.push(`⚠️ ${f.source} did not answer: ${f.message}`);
  grants.forEach((g, i) => {
    lines.push('', `${i + 1}. [${BADGE[g.source]}] ${g.title}`);
    const who = [
      g.investigators.length > 0
        ? `👤 ${g.investigators.slice(0, 3).join(', ')}${g.investigators.length > 3 ? ' +' + (g.investigators.length - 3) : ''}`
        : '',
      g.institution !== ''
        ? `🏛️ ${g.institution}${g.city ? `, ${g.city}` : ''}${g.state ? `, ${g.state}` : ''}`
        : '',
    ].filter((s) => s !== '');
    if (who.length > 0) lines.push(`   ${who.join(' · ')}`);
    const facts = [
      g.amount !== null
        ? `💵 ${usd(g.amount)}${g.source === 'NIH' && g.fiscalYear ? ` (FY${g.fiscalYear})` : g.source === 'NSF' ? ' obligated' : ''}`
        : '',
      g.startDate ? `📅 ${g.startDate}${g.endDate ? ` → ${g.endDate}` : ''}` : '',
      g.funder ? `🏷️ ${g.funder}` : '',
      `#${g.id}`,
    ].filter((s) => s !== '');
    lines.push(`   ${facts.join(' · ')}`);
    if (g.url !== '') lines.push(`   🔗 ${g.url}`);
  });
  return lines.join('\n');
}
