// Trials as text for people (symbols, one block per trial) and as the JSON data form.
import type { Location, Trial } from './studies.js';

export interface Listed extends Trial {
  /** nearby: the site nearest to the place asked about. */
  nearest?: { location: Location; miles: number };
}

const STATUS_ICON: Record<string, string> = {
  RECRUITING: '🟢',
  NOT_YET_RECRUITING: '🟡',
  ENROLLING_BY_INVITATION: '🟡',
  ACTIVE_NOT_RECRUITING: '🔵',
  COMPLETED: '✅',
  TERMINATED: '⛔',
  WITHDRAWN: '⛔',
  SUSPENDED: '⏸️',
};

export function phaseLabel(phases: readonly string[]): string {
  if (phases.length === 0 || phases.every((p) => p === 'NA')) return 'no phase';
  return phases
    .filter((p) => p !== 'NA')
    .map((p) => p.replace('EARLY_PHASE1', 'Early phase 1').replace(/^PHASE(\d)$/, 'Phase $1'))
    .join('/');
}

export function place(l: Location): string {
  return [l.facility, l.city, l.state, l.country].filter((s) => s !== '').join(', ');
}

function status(t: Trial): string {
  return `${STATUS_ICON[t.status] ?? '⚪'} ${t.status}`;
}

export function renderList(
  heading: string,
  trials: readonly Listed[],
  total: number | undefined
): string {
  if (trials.length === 0) return `🧪 No clinical trials found for ${heading}.`;
  const count =
    total !== undefined && total > trials.length
      ? `${trials.length} of ${total}`
      : `${trials.length}`;
  const lines = [`🧪 Clinical trials for ${heading}: ${count}`];
  trials.forEach((t, i) => {
    lines.push('', `${i + 1}. ${t.nctId} · ${t.title}`);
    lines.push(`   ${status(t)} · ${phaseLabel(t.phases)}${t.sponsor ? ` · 🏢 ${t.sponsor}` : ''}`);
    const facts = [
      t.conditions.length > 0 ? `🩺 ${t.conditions.slice(0, 3).join(', ')}` : '',
      t.interventions.length > 0
        ? `💊 ${t.interventions
            .slice(0, 3)
            .map((x) => x.name)
            .join(', ')}`
        : '',
      t.enrollment !== undefined ? `👥 ${t.enrollment}` : '',
      t.startDate
        ? `📅 ${t.startDate}${t.primaryCompletionDate ? ` → ${t.primaryCompletionDate}` : ''}`
        : '',
    ].filter((s) => s !== '');
    if (facts.length > 0) lines.push(`   ${facts.join(' · ')}`);
    if (t.nearest) {
      lines.push(`   📍 ${place(t.nearest.location)} (${t.nearest.miles.toFixed(1)} mi)`);
    }
    lines.push(`   🔗 ${t.url}`);
  });
  return lines.join('\n');
}

export function renderDetail(t: Trial): string {
  const lines = [`🧪 ${t.nctId} · ${t.title}`];
  if (t.officialTitle) lines.push(`   ${t.officialTitle}`);
  lines.push(
    '',
    `${status(t)} · ${phaseLabel(t.phases)}${t.studyType ? ` · ${t.studyType}` : ''}`,
    `🏢 Sponsor: ${t.sponsor ?? 'not stated'}${t.sponsorClass ? ` (${t.sponsorClass})` : ''}`
  );
  if (t.conditions.length > 0) lines.push(`🩺 Conditions: ${t.conditions.join(', ')}`);
  if (t.interventions.length > 0) {
    lines.push(
      `💊 Interventions: ${t.interventions.map((x) => `${x.name} (${x.type})`).join(', ')}`
    );
  }
  if (t.enrollment !== undefined) lines.push(`👥 Enrollment: ${t.enrollment}`);
  if (t.startDate) lines.push(`📅 Start: ${t.startDate}`);
  if (t.primaryCompletionDate) lines.push(`🏁 Primary completion: ${t.primaryCompletionDate}`);
  if (t.lastUpdate) lines.push(`🔄 Last update: ${t.lastUpdate}`);
  lines.push(`📊 Results posted: ${t.hasResults ? 'yes' : 'no'}`);
  if (t.locations.length > 0) {
    lines.push(`📍 Sites (${t.locations.length}):`);
    for (const l of t.locations.slice(0, 10)) lines.push(`   • ${place(l)}`);
    if (t.locations.length > 10) lines.push(`   • … and ${t.locations.length - 10} more`);
  }
  lines.push(`🔗 ${t.url}`);
  return lines.join('\n');
}
