// How the entity graph compares what datasets call things (data-sources.md "research"): names
// normalised (upper case, accents and punctuation gone, legal suffixes stripped) and identifiers
// in one spelling per scheme, so "Acme Pharma Inc." and "ACME PHARMA" are one key.

/** Legal forms stripped from the end of a company name, longest spellings first. */
const LEGAL = [
  'INCORPORATED',
  'CORPORATION',
  'COMPANY',
  'LIMITED',
  'HOLDINGS',
  'GMBH',
  'CORP',
  'INC',
  'LLC',
  'LLP',
  'LTD',
  'PLC',
  'SPA',
  'SRL',
  'SAS',
  'PTY',
  'PVT',
  'CO',
  'LP',
  'AG',
  'SA',
  'NV',
  'BV',
  'AB',
  'KK',
];
const LEGAL_SET = new Set(LEGAL);

/** Upper case, accents removed, every run of punctuation or space one space. */
export function plainName(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toUpperCase()
      // L.L.C. → LLC, S.A. → SA: initials of a legal form stay one word.
      .replace(/\b([A-Z])\.(?=[A-Z]\.)/g, '$1')
      .replace(/&/g, ' ')
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim()
  );
}

/**
 * The name as the graph compares it: `plainName` without a leading THE and without legal forms at
 * the end ("SAMSUNG SDI CO., LTD." → "SAMSUNG SDI"). A name that is only a legal form is kept.
 */
export function normName(name: string): string {
  const words = plainName(name).split(' ').filter(Boolean);
  const kept = [...words];
  if (kept.length > 1 && kept[0] === 'THE') kept.shift();
  while (kept.length > 1 && LEGAL_SET.has(kept.at(-1)!)) kept.pop();
  return kept.join(' ') || words.join(' ');
}

/** The identifier schemes the graph joins on; agents may add others in lower_snake case. */
export const SCHEMES = {
  cik: 'cik',
  ticker: 'ticker',
  lei: 'lei',
  uei: 'uei',
  companiesHouse: 'companies_house',
  epaRegistry: 'epa_registry',
  nct: 'nct',
  patentApplication: 'patent_application',
  patentNumber: 'patent_number',
  fdaApplication: 'fda_application',
} as const;

const SCHEME = /^[a-z][a-z0-9_]{1,39}$/;

/** One spelling per scheme; undefined for a value that cannot be one (so it is not joined on). */
export function normIdentifier(scheme: string, raw: string): string | undefined {
  if (!SCHEME.test(scheme)) return undefined;
  const v = raw.trim();
  if (v === '') return undefined;
  switch (scheme) {
    case SCHEMES.cik: {
      const d = v.replace(/^CIK/i, '').replace(/^0+/, '');
      return /^\d{1,10}$/.test(d) ? d.padStart(10, '0') : undefined;
    }
    case SCHEMES.ticker:
      return /^[A-Za-z0-9.-]{1,10}$/.test(v) ? v.toUpperCase() : undefined;
    case SCHEMES.lei:
      return /^[A-Za-z0-9]{20}$/.test(v) ? v.toUpperCase() : undefined;
    case SCHEMES.uei:
      return /^[A-Za-z0-9]{12}$/.test(v) ? v.toUpperCase() : undefined;
    case SCHEMES.companiesHouse: {
      const c = v.toUpperCase().replace(/\s+/g, '');
      return /^[A-Z0-9]{1,8}$/.test(c) ? c.padStart(8, '0') : undefined;
    }
    case SCHEMES.nct:
      return /^NCT\d{8}$/i.test(v) ? v.toUpperCase() : undefined;
    case SCHEMES.patentApplication:
    case SCHEMES.patentNumber:
    case SCHEMES.epaRegistry: {
      const d = v.replace(/[\s,/-]/g, '').toUpperCase();
      return /^[A-Z]{0,2}\d{4,15}[A-Z0-9]{0,2}$/.test(d) ? d : undefined;
    }
    default:
      return v.toUpperCase().replace(/\s+/g, ' ');
  }
}
