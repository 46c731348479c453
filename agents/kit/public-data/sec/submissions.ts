// EDGAR submissions (data.sec.gov/submissions/CIK##########.json): a filer's profile and filings.
// The filings are columnar (one array per field, zipped here by index); `recent` holds the latest
// 1,000 or so and `files[]` names older pages (CIK##########-submissions-001.json, the same
// columns at the top level), followed only while a filter still wants more, up to a bounded count.
import { UnavailableError } from '../../../../runtime/errors/index.js';
import type { Provenance } from '../upstream.js';
import { cik10, documentUrl, filingUrl, scalar, type SecClient } from './client.js';

export interface Filing {
  accession: string;
  form: string;
  filingDate: string;
  reportDate: string | null;
  acceptedAt: string | null;
  items: string | null;
  primaryDocument: string | null;
  description: string | null;
  isXbrl: boolean;
  /** The filing's folder in the Archives. */
  url: string;
  documentUrl: string | null;
}

export interface Address {
  street1: string | null;
  street2: string | null;
  city: string | null;
  stateOrCountry: string | null;
  zipCode: string | null;
}

export interface Profile {
  cik: number;
  name: string;
  entityType: string | null;
  tickers: string[];
  exchanges: string[];
  sic: string | null;
  sicDescription: string | null;
  stateOfIncorporation: string | null;
  fiscalYearEnd: string | null;
  ein: string | null;
  businessAddress: Address | null;
  formerNames: Array<{ name: string; from: string | null; to: string | null }>;
}

export interface Submissions {
  profile: Profile;
  recent: Filing[];
  /** Older pages not read yet. */
  olderPages: Array<{ name: string; filingCount: number; filingFrom: string; filingTo: string }>;
  provenance: Provenance;
}

type Columns = Record<string, unknown[] | undefined>;

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The filings of one columnar block, zipped by index. */
export function zipFilings(site: string, cik: number, c: Columns): Filing[] {
  const acc = c.accessionNumber ?? [];
  const at = (k: string, i: number) => c[k]?.[i];
  return acc.map((a, i): Filing => {
    const accession = String(a);
    const doc = text(at('primaryDocument', i));
    return {
      accession,
      form: scalar(at('form', i)),
      filingDate: scalar(at('filingDate', i)),
      reportDate: text(at('reportDate', i)),
      acceptedAt: text(at('acceptanceDateTime', i)),
      items: text(at('items', i)),
      primaryDocument: doc,
      description: text(at('primaryDocDescription', i)),
      isXbrl: Number(at('isXBRL', i)) === 1,
      url: filingUrl(site, cik, accession),
      documentUrl: doc === null ? null : documentUrl(site, cik, accession, doc),
    };
  });
}

function address(a: unknown): Address | null {
  if (a === null || typeof a !== 'object') return null;
  const r = a as Record<string, unknown>;
  return {
    street1: text(r.street1),
    street2: text(r.street2),
    city: text(r.city),
    stateOrCountry: text(r.stateOrCountry),
    zipCode: text(r.zipCode),
  };
}

/** The filer's submissions, or undefined when EDGAR has no such CIK (its 404). */
export async function submissions(sec: SecClient, cik: number): Promise<Submissions | undefined> {
  const a = await sec.data.get({
    path: `/submissions/CIK${cik10(cik)}.json`,
    noMatches: (status) => status === 404,
  });
  if (a.body === undefined) return undefined;
  const b = a.body as Record<string, unknown>;
  const filings = b.filings as { recent?: Columns; files?: unknown[] } | undefined;
  if (typeof b.name !== 'string' || filings?.recent === undefined) {
    throw new UnavailableError(`${sec.data.source} answered submissions in an unknown shape`);
  }
  const addresses = b.addresses as { business?: unknown } | undefined;
  const profile: Profile = {
    cik: Number(b.cik ?? cik),
    name: b.name,
    entityType: text(b.entityType),
    tickers: Array.isArray(b.tickers) ? b.tickers.map(String) : [],
    exchanges: Array.isArray(b.exchanges) ? b.exchanges.filter((e) => e !== null).map(String) : [],
    sic: text(b.sic),
    sicDescription: text(b.sicDescription),
    stateOfIncorporation: text(b.stateOfIncorporation),
    fiscalYearEnd: text(b.fiscalYearEnd),
    ein: text(b.ein),
    businessAddress: address(addresses?.business),
    formerNames: Array.isArray(b.formerNames)
      ? (b.formerNames as Array<Record<string, unknown>>).map((f) => ({
          name: scalar(f.name),
          from: text(f.from),
          to: text(f.to),
        }))
      : [],
  };
  const olderPages = (filings.files ?? []).map((f) => {
    const r = f as Record<string, unknown>;
    return {
      name: String(r.name),
      filingCount: Number(r.filingCount ?? 0),
      filingFrom: scalar(r.filingFrom),
      filingTo: scalar(r.filingTo),
    };
  });
  return {
    profile,
    recent: zipFilings(sec.site, cik, filings.recent),
    olderPages,
    provenance: a.provenance,
  };
}

export interface FilingQuery {
  /** Forms wanted (exact, e.g. "10-K", "4"); all when empty. */
  forms?: readonly string[];
  /** Filed on or after / before (YYYY-MM-DD). */
  from?: string;
  to?: string;
  limit: number;
  /** Older pages read at most. */
  maxPages: number;
}

export interface FilingList {
  filings: Filing[];
  /** True when older pages were left unread because of the bound. */
  truncated: boolean;
  provenance: Provenance[];
}

/** Filings of a filer matching a query, newest first, reading older pages while more are wanted. */
export async function filingsOf(
  sec: SecClient,
  s: Submissions,
  q: FilingQuery
): Promise<FilingList> {
  const forms = new Set((q.forms ?? []).map((f) => f.toUpperCase()));
  const keep = (f: Filing) =>
    (forms.size === 0 || forms.has(f.form.toUpperCase())) &&
    (q.from === undefined || f.filingDate >= q.from) &&
    (q.to === undefined || f.filingDate <= q.to);
  const out = s.recent.filter(keep);
  const provenance: Provenance[] = [];
  let pages = 0;
  let truncated = false;
  for (const page of s.olderPages) {
    if (out.length >= q.limit) break;
    // Pages run newest to oldest: one that ends before the window cannot hold any.
    if (q.from !== undefined && page.filingTo !== '' && page.filingTo < q.from) break;
    if (pages >= q.maxPages) {
      truncated = true;
      break;
    }
    pages += 1;
    const a = await sec.data.get({ path: `/submissions/${page.name}` });
    provenance.push(a.provenance);
    out.push(...zipFilings(sec.site, s.profile.cik, (a.body ?? {}) as Columns).filter(keep));
  }
  return { filings: out.slice(0, q.limit), truncated, provenance };
}
