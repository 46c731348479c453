// openFDA answers as text for people (symbols, one block per item).
import type { Application, Label, Recall } from './openfda.js';

const CLASS_ICON: Record<string, string> = { 'Class I': '🔴', 'Class II': '🟠', 'Class III': '🟡' };

export function renderSearch(drug: string, labels: readonly Label[], recalls: readonly Recall[]) {
  if (labels.length === 0 && recalls.length === 0) {
    return `💊 openFDA has no drug labels or recalls for “${drug}”.`;
  }
  const lines = [
    `💊 openFDA for “${drug}”: ${labels.length} label${labels.length === 1 ? '' : 's'}, ` +
      `${recalls.length} recall${recalls.length === 1 ? '' : 's'}`,
  ];
  if (labels.length > 0) lines.push('', '📄 Labels');
  labels.forEach((l, i) => {
    const who = [
      l.genericName ? `(${l.genericName})` : '',
      l.manufacturer ? `· ${l.manufacturer}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    lines.push(
      `${i + 1}. ${l.brandName} ${who}${l.effectiveDate ? ` · label ${l.effectiveDate}` : ''}`
    );
    if (l.boxedWarning) lines.push('   ⚠️ Boxed warning');
    if (l.indications) lines.push(`   ${l.indications}`);
  });
  if (recalls.length > 0) lines.push('', '📢 Recalls');
  recalls.forEach((r, i) => {
    lines.push(
      `${i + 1}. ${CLASS_ICON[r.classification] ?? '⚪'} ${r.classification} · ${r.recallNumber} · ` +
        `${r.status}${r.reportDate ? ` · ${r.reportDate}` : ''}${r.firm ? ` · ${r.firm}` : ''}`
    );
    if (r.reason) lines.push(`   Reason: ${r.reason}`);
  });
  return lines.join('\n');
}

export function renderAdverse(
  drug: string,
  reports: { total: number; serious: number },
  reactions: ReadonlyArray<{ term: string; count: number }>
): string {
  if (reports.total === 0) return `⚠️ openFDA has no adverse event reports for “${drug}”.`;
  const lines = [
    `⚠️ Adverse event reports for “${drug}” (FAERS): ${reports.total} reports, ${reports.serious} serious`,
    '',
    'Most reported reactions:',
    ...reactions.map((r, i) => `${i + 1}. ${r.term} — ${r.count}`),
    '',
    'ℹ️ Reports are voluntary and do not show that the drug caused the reaction.',
  ];
  return lines.join('\n');
}

function appLine(a: Application, i: number, date: string | undefined): string[] {
  const name = [a.brandName, a.genericName ? `(${a.genericName})` : ''].filter(Boolean).join(' ');
  const head = [date, name || 'unnamed', a.applicationNumber, a.sponsor]
    .filter(Boolean)
    .join(' · ');
  const out = [`${i + 1}. ${head}`];
  const prod = a.products[0];
  if (prod) {
    const facts = [prod.ingredients.join(', '), prod.dosageForm, prod.route].filter(Boolean);
    if (facts.length > 0) out.push(`   💊 ${facts.join(' · ')}`);
  }
  if (a.reviewPriority) out.push(`   🏷️ ${a.reviewPriority.toLowerCase()} review`);
  return out;
}

export function renderApprovals(
  w: { from: string; to: string },
  apps: readonly Application[],
  total: number
): string {
  if (apps.length === 0) return `✅ No original FDA drug approvals from ${w.from} to ${w.to}.`;
  const count = total > apps.length ? `${apps.length} of ${total}` : `${apps.length}`;
  const lines = [`✅ Original FDA drug approvals, ${w.from} → ${w.to}: ${count}`];
  apps.forEach((a, i) => lines.push('', ...appLine(a, i, a.approvedOn)));
  return lines.join('\n');
}

export function renderSponsor(
  sponsor: string,
  apps: readonly Application[],
  total: number
): string {
  if (apps.length === 0) return `🏢 openFDA has no drug applications of sponsor “${sponsor}”.`;
  const count = total > apps.length ? `${apps.length} of ${total}` : `${apps.length}`;
  const lines = [`🏢 FDA drug applications of sponsor “${sponsor}”: ${count}`];
  apps.forEach((a, i) => {
    lines.push('', ...appLine(a, i, undefined));
    if (a.approvedOn) lines.push(`   ✅ approved ${a.approvedOn}`);
    if (a.latest) {
      lines.push(
        `   🔄 latest: ${a.latest.type} ${a.latest.number} ${a.latest.status} ${a.latest.date}`
      );
    }
  });
  return lines.join('\n');
}
