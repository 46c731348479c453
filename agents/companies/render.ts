// companies' replies for people.
import type { Executive, Profile } from '../kit/public-data/sec/index.js';
import type { ChCompany, ChOfficer } from './companies-house.js';
import type { LeiRecord } from './gleif.js';
import type { Presence } from './presence.js';

export function secLines(p: Profile | undefined): string[] {
  if (p === undefined) return ['🇺🇸 SEC EDGAR: no listed company by that name, ticker or CIK'];
  const addr = p.businessAddress;
  const lines = [
    `🇺🇸 SEC EDGAR: ${p.name} · CIK ${p.cik}${p.tickers.length ? ` · ${p.tickers.join('/')}` : ''}${p.exchanges.length ? ` (${p.exchanges.join('/')})` : ''}`,
  ];
  const facts = [
    p.sic ? `SIC ${p.sic} ${p.sicDescription ?? ''}`.trim() : '',
    p.stateOfIncorporation ? `incorporated in ${p.stateOfIncorporation}` : '',
    addr
      ? [addr.street1, addr.city, addr.stateOrCountry, addr.zipCode].filter(Boolean).join(', ')
      : '',
  ].filter((s) => s !== '');
  if (facts.length > 0) lines.push(`   ${facts.join(' · ')}`);
  if (p.formerNames.length > 0)
    lines.push(`   formerly ${p.formerNames.map((f) => f.name).join('; ')}`);
  return lines;
}

export function gleifLines(records: readonly LeiRecord[], total: number | null): string[] {
  if (records.length === 0) return ['🌐 GLEIF: no LEI record with that legal name'];
  const lines = [`🌐 GLEIF: ${records.length}${total !== null ? ` of ${total}` : ''} LEI records`];
  for (const r of records) {
    const where = [r.address.city, r.address.country].filter(Boolean).join(', ');
    lines.push(
      `   ${r.lei} · ${r.legalName} · ${r.jurisdiction ?? '?'} · ${r.entityStatus ?? '?'}/${r.registrationStatus ?? '?'}${where ? ` · ${where}` : ''}`
    );
  }
  return lines;
}

export function chLines(items: readonly ChCompany[] | string, total: number | null): string[] {
  if (typeof items === 'string') return [`🇬🇧 Companies House: ${items}`];
  if (items.length === 0) return ['🇬🇧 Companies House: no company by that name'];
  const lines = [`🇬🇧 Companies House: ${items.length}${total !== null ? ` of ${total}` : ''}`];
  for (const c of items) {
    lines.push(
      `   ${c.companyNumber} · ${c.name} · ${c.status ?? '?'}${c.createdOn ? ` · since ${c.createdOn}` : ''}${c.address ? ` · ${c.address}` : ''}`
    );
  }
  return lines;
}

export function officerLines(
  company: ChCompany | undefined,
  officers: readonly ChOfficer[] | string
): string[] {
  if (typeof officers === 'string') return [`🇬🇧 Companies House: ${officers}`];
  const head = `🇬🇧 Companies House${company ? `: ${company.name} (${company.companyNumber})` : ''}`;
  if (officers.length === 0) return [`${head}: no officers listed`];
  const lines = [`${head}: ${officers.length} officers`];
  for (const o of officers) {
    const when = o.resignedOn
      ? `${o.appointedOn ?? '?'} → ${o.resignedOn}`
      : `since ${o.appointedOn ?? '?'}`;
    lines.push(
      `   ${o.name} · ${o.role ?? '?'} · ${when}${o.occupation ? ` · ${o.occupation}` : ''}`
    );
  }
  return lines;
}

export function secOfficerLines(
  p: Profile | undefined,
  execs: readonly Executive[],
  peo: readonly string[]
): string[] {
  if (p === undefined) return ['🇺🇸 SEC EDGAR: no listed company by that name, ticker or CIK'];
  const lines = [`🇺🇸 SEC EDGAR: ${p.name} (CIK ${p.cik})`];
  for (const n of peo)
    lines.push(`   ${n} · principal executive officer (latest proxy, ecd:PeoName)`);
  for (const e of execs) lines.push(`   ${e.name} · ${e.role} · ${e.source}`);
  if (peo.length === 0 && execs.length === 0)
    lines.push('   no officers in its latest proxy or ownership forms');
  return lines;
}

const MARK = { found: '✅', none: '—', 'not configured': '⚙️' } as const;

export function presenceLines(rows: readonly Presence[]): string[] {
  return rows.map((r) => {
    const what =
      r.status === 'found'
        ? `${r.count ?? '?'}${r.ids.length > 0 ? ` · ${r.ids.join(', ')}` : ''}`
        : r.status === 'none'
          ? 'none'
          : `not configured${r.note ? `: ${r.note}` : ''}`;
    return `${MARK[r.status]} ${r.dataset} [${r.agent}]: ${what}`;
  });
}
