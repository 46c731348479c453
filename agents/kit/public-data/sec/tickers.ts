// Ticker or name → CIK, from the SEC's company_tickers.json ({"0":{cik_str,ticker,title},…}): one
// file of every listed company, cached for a day (the SEC rebuilds it daily), so a name costs no
// request most of the time.
import { UnavailableError } from '../../../../runtime/errors/index.js';
import type { Provenance } from '../upstream.js';
import type { SecClient } from './client.js';

export const TICKERS_TTL_MS = 24 * 60 * 60 * 1000;

export interface ListedCompany {
  cik: number;
  ticker: string;
  name: string;
}

export interface TickerFile {
  companies: ListedCompany[];
  provenance: Provenance;
}

export async function tickerFile(sec: SecClient): Promise<TickerFile> {
  const a = await sec.www.get({ path: '/files/company_tickers.json', cacheTtlMs: TICKERS_TTL_MS });
  if (a.body === null || typeof a.body !== 'object') {
    throw new UnavailableError(
      `${sec.www.source} answered company_tickers.json in an unknown shape`
    );
  }
  const companies: ListedCompany[] = [];
  for (const row of Object.values(a.body as Record<string, unknown>)) {
    const r = row as { cik_str?: unknown; ticker?: unknown; title?: unknown };
    if (typeof r.ticker !== 'string' || typeof r.title !== 'string') continue;
    const cik = Number(r.cik_str);
    if (Number.isInteger(cik) && cik > 0) companies.push({ cik, ticker: r.ticker, name: r.title });
  }
  return { companies, provenance: a.provenance };
}

const SUFFIXES =
  /\b(?:INC|INCORPORATED|CORP|CORPORATION|CO|COMPANY|LTD|LIMITED|LLC|PLC|LP|SA|AG|NV|HOLDINGS?|GROUP|THE)\b/g;

/** A name for matching: upper case, no punctuation, no legal suffixes. */
export function normalName(name: string): string {
  return name
    .toUpperCase()
    .replace(/&/g, ' AND ')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(SUFFIXES, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The listed companies a ticker or name means, best first: the exact ticker (a share class's dash
 * or dot alike), then the exact name, then names that start with it, then names holding every word.
 * A CIK (digits) matches its companies.
 */
export function matchCompanies(all: readonly ListedCompany[], q: string): ListedCompany[] {
  const query = q.trim();
  if (/^\d{1,10}$/.test(query)) return all.filter((c) => c.cik === Number(query));
  const ticker = query.toUpperCase().replace(/[.\s]/g, '-');
  const byTicker = all.filter((c) => c.ticker.toUpperCase() === ticker);
  const n = normalName(query);
  if (n === '') return byTicker;
  const exact = all.filter((c) => normalName(c.name) === n);
  const starts = all.filter((c) => normalName(c.name).startsWith(`${n} `));
  const words = n.split(' ');
  const every = all.filter((c) => {
    const cw = new Set(normalName(c.name).split(' '));
    return words.every((w) => cw.has(w));
  });
  const out: ListedCompany[] = [];
  const seen = new Set<string>();
  for (const c of [...byTicker, ...exact, ...starts, ...every]) {
    const k = `${c.cik}:${c.ticker}`;
    if (!seen.has(k)) {
      seen.add(k);
      out.push(c);
    }
  }
  return out;
}

/** One company per CIK (a CIK lists one row per share class), in the order given. */
export function distinctCiks(cs: readonly ListedCompany[]): ListedCompany[] {
  const seen = new Set<number>();
  return cs.filter((c) => (seen.has(c.cik) ? false : (seen.add(c.cik), true)));
}

export interface CompanyMatch {
  /** The best match's CIK; undefined when nothing matched. */
  best: ListedCompany | undefined;
  /** Other companies (other CIKs) the words also matched, best first. */
  others: ListedCompany[];
  provenance: Provenance[];
}

/**
 * The company a ticker, name or CIK means. A CIK is taken as given (EDGAR then says whether it
 * exists); a ticker or name is looked up in company_tickers.json, which lists listed companies only.
 */
export async function findCompany(sec: SecClient, q: string): Promise<CompanyMatch> {
  const query = q.trim().replace(/^CIK\s*/i, '');
  if (/^\d{1,10}$/.test(query)) {
    return { best: { cik: Number(query), ticker: '', name: '' }, others: [], provenance: [] };
  }
  const file = await tickerFile(sec);
  const found = distinctCiks(matchCompanies(file.companies, query));
  return { best: found[0], others: found.slice(1, 6), provenance: [file.provenance] };
}
