// sec-filings' replies for people: filings, one filing's detail, full-text hits and executives.
import type {
  Executive,
  Filing,
  FilingFile,
  Profile,
  ProxyExecutive,
  SearchHit,
} from '../kit/public-data/sec/index.js';

export function who(p: Pick<Profile, 'name' | 'cik' | 'tickers'>): string {
  const t = p.tickers.length > 0 ? `, ${p.tickers.join('/')}` : '';
  return `${p.name} (CIK ${p.cik}${t})`;
}

function filingLines(f: Filing, i: number): string[] {
  const head = [
    `${i + 1}. ${f.form}`,
    `filed ${f.filingDate}`,
    f.reportDate ? `period ${f.reportDate}` : '',
    f.accession,
  ];
  const lines = [head.filter((s) => s !== '').join(' · ')];
  if (f.primaryDocument) {
    lines.push(`   📄 ${f.primaryDocument}${f.description ? ` (${f.description})` : ''}`);
  }
  if (f.items) lines.push(`   Items: ${f.items}`);
  lines.push(`   🔗 ${f.documentUrl ?? f.url}`);
  return lines;
}

export function renderFilings(
  p: Profile,
  forms: readonly string[],
  filings: readonly Filing[],
  truncated: boolean,
  others: readonly string[]
): string {
  const what = forms.length > 0 ? `${forms.join(', ')} filings` : 'filings';
  if (filings.length === 0) {
    return `🏛️ ${who(p)}: no ${what} found in EDGAR${truncated ? ' (older pages not read)' : ''}.`;
  }
  const lines = [`🏛️ ${who(p)}: ${what}, newest first (${filings.length})`];
  filings.forEach((f, i) => lines.push(...filingLines(f, i)));
  if (truncated) lines.push('Older filings were not read (PUBLIC_DATA_MAX_PAGES).');
  if (others.length > 0) lines.push(`Other companies by that name: ${others.join('; ')}`);
  return lines.join('\n');
}

export function renderFiling(
  accession: string,
  filer: Profile | undefined,
  f: Filing | undefined,
  files: readonly FilingFile[],
  url: string
): string {
  const lines = [
    `🏛️ Filing ${accession}${f ? ` · ${f.form}` : ''}${filer ? ` · ${who(filer)}` : ''}`,
  ];
  if (f) {
    const dates = [
      `📅 filed ${f.filingDate}`,
      f.reportDate ? `period ${f.reportDate}` : '',
      f.acceptedAt ? `accepted ${f.acceptedAt}` : '',
    ];
    lines.push(dates.filter((s) => s !== '').join(' · '));
    if (f.items) lines.push(`Items: ${f.items}`);
    if (f.primaryDocument) {
      lines.push(
        `📄 Primary document: ${f.primaryDocument}${f.description ? ` (${f.description})` : ''}`
      );
    }
  }
  const docs = files.filter(
    (x) => !x.name.endsWith('-index-headers.html') && !x.name.endsWith('-index.html')
  );
  lines.push(`🗂️ Files (${docs.length}):`);
  for (const x of docs.slice(0, 20)) {
    lines.push(`• ${x.name}${x.size !== null ? ` (${x.size.toLocaleString('en-US')} bytes)` : ''}`);
  }
  if (docs.length > 20) lines.push(`… and ${docs.length - 20} more`);
  lines.push(`🔗 ${url}`);
  return lines.join('\n');
}

export function renderSearch(
  query: string,
  total: number | null,
  hits: readonly SearchHit[]
): string {
  if (hits.length === 0) return `🔎 No EDGAR filings found for ${query}.`;
  const lines = [
    `🔎 EDGAR full-text search for ${query}: ${hits.length}${total !== null ? ` of ${total}` : ''}`,
  ];
  hits.forEach((h, i) => {
    lines.push(
      `${i + 1}. ${h.form} · filed ${h.filedAt} · ${h.names.join('; ') || 'unknown filer'}`
    );
    if (h.description) lines.push(`   📄 ${h.file} (${h.description})`);
    else if (h.file) lines.push(`   📄 ${h.file}`);
    if (h.url) lines.push(`   🔗 ${h.url}`);
  });
  return lines.join('\n');
}

export function renderExecutives(
  p: Profile,
  executives: readonly Executive[],
  peo: readonly ProxyExecutive[],
  proxyNote: string,
  formsRead: number
): string {
  const lines = [`👔 ${who(p)}: executives and directors`];
  if (peo.length > 0) {
    lines.push(`From the latest proxy: ${peo[0]!.source}`);
    for (const x of peo) lines.push(`• ${x.name} — principal executive officer (PEO)`);
  } else {
    lines.push(proxyNote);
  }
  if (executives.length > 0) {
    lines.push(
      `From the latest ${formsRead} ownership filings (Forms 3/4/5), as the filers state:`
    );
    for (const e of executives) lines.push(`• ${e.name} — ${e.role} · ${e.source}`);
  } else {
    lines.push(
      formsRead === 0
        ? 'No ownership filings (Forms 3/4/5) among its recent filings.'
        : `No officer or director in its latest ${formsRead} ownership filings.`
    );
  }
  return lines.join('\n');
}
