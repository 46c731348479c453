// A company named by ticker, name or CIK, with its EDGAR submissions; "not found" is an answer.
import type { Provenance } from '../kit/public-data/index.js';
import {
  findCompany,
  submissions,
  type SecClient,
  type Submissions,
} from '../kit/public-data/sec/index.js';

export interface Resolved {
  subs: Submissions | undefined;
  /** Other companies the name matched: "Name (TICKER, CIK n)". */
  others: string[];
  provenance: Provenance[];
}

export async function resolve(sec: SecClient, company: string): Promise<Resolved> {
  const m = await findCompany(sec, company);
  const provenance = [...m.provenance];
  const others = m.others.map((c) => `${c.name} (${c.ticker}, CIK ${c.cik})`);
  if (m.best === undefined) return { subs: undefined, others, provenance };
  const subs = await submissions(sec, m.best.cik);
  if (subs !== undefined) provenance.push(subs.provenance);
  return { subs, others, provenance };
}

export function notFound(company: string): string {
  return (
    `🏛️ SEC EDGAR lists no company “${company}”. Give its ticker (AAPL), its exact name, or its ` +
    'CIK; the name lookup covers listed companies (company_tickers.json).'
  );
}
