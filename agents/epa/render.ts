// ECHO facilities as text for people: a heading with the totals, one block per facility.
import type { Facility, Totals } from './echo.js';
import { STATES } from './states.js';

export function money(n: number): string {
  return `$${Math.round(n).toLocaleString('en-US')}`;
}

export function stateName(code: string): string {
  return STATES[code] ?? code;
}

function icon(f: Facility): string {
  if (f.snc) return '🔴 Significant non-compliance';
  if (f.quartersInViolation > 0 || /violation/i.test(f.complianceStatus)) {
    return /no violation/i.test(f.complianceStatus) && f.quartersInViolation === 0
      ? '🟢 No violation'
      : `🟠 ${f.complianceStatus}`;
  }
  return `🟢 ${f.complianceStatus}`;
}

function block(f: Facility, i: number): string[] {
  const where = [f.street, f.city, [f.state, f.zip].filter(Boolean).join(' ')]
    .filter((x) => x !== '')
    .join(', ');
  const lines = [`${i + 1}. ${f.name}${where ? ` · ${where}` : ''}`];
  const facts = [icon(f)];
  if (f.quartersInViolation > 0)
    facts.push(`${f.quartersInViolation} quarters in violation (of 12)`);
  if (f.penaltyCount > 0 || f.totalPenalties > 0) {
    facts.push(`💲 ${money(f.totalPenalties)} penalties (${f.penaltyCount})`);
  }
  lines.push(`   ${facts.join(' · ')}`);
  const programs = [
    f.programs.caa ? `CAA: ${f.programs.caa}` : '',
    f.programs.cwa ? `CWA: ${f.programs.cwa}` : '',
    f.programs.rcra ? `RCRA: ${f.programs.rcra}` : '',
  ].filter((x) => x !== '');
  const insp = `🔍 ${f.inspections} inspection${f.inspections === 1 ? '' : 's'}${f.lastInspection ? `, last ${f.lastInspection}` : ''}`;
  lines.push(`   ${[insp, ...programs].join(' · ')}`);
  lines.push(`   🔗 ${f.url}`);
  return lines;
}

export function renderFacilities(
  heading: string,
  facilities: readonly Facility[],
  total: number,
  empty: string
): string {
  if (facilities.length === 0) return empty;
  const count =
    total > facilities.length ? `${facilities.length} of ${total}` : `${facilities.length}`;
  const lines = [`${heading}: ${count}`];
  facilities.forEach((f, i) => lines.push('', ...block(f, i)));
  return lines.join('\n');
}

export function renderTotals(t: Totals): string {
  const parts = [`${t.facilities.toLocaleString('en-US')} active facilities`];
  if (t.totalPenalties !== undefined) parts.push(`${money(t.totalPenalties)} in penalties`);
  const programs = [
    t.caaFacilities !== undefined ? `Clean Air Act ${t.caaFacilities}` : '',
    t.cwaFacilities !== undefined ? `Clean Water Act ${t.cwaFacilities}` : '',
    t.rcraFacilities !== undefined ? `RCRA ${t.rcraFacilities}` : '',
  ].filter((x) => x !== '');
  if (programs.length > 0) parts.push(`by program: ${programs.join(', ')}`);
  return `📊 ${parts.join(' · ')}`;
}
