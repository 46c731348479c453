// EDGAR's latest-filings Atom feed (www.sec.gov/cgi-bin/browse-edgar?action=getcurrent&type=4
// &owner=include&count=100&output=atom): each Form 4 appears twice, as "(Reporting)" and
// "(Issuer)"; the accession is in the entry id, the filer's CIK in the title. The raw XML is found
// in the filing's index.json (the .xml that is not a rendering).
import { XMLParser } from 'fast-xml-parser';
import { UnavailableError } from '../../runtime/errors/index.js';
import type { Provenance } from '../kit/public-data/index.js';
import { filingIndex, type SecClient } from '../kit/public-data/sec/index.js';

/** The feed changes by the minute: kept five minutes, not the default. */
export const FEED_TTL_MS = 5 * 60 * 1000;

export interface FeedFiling {
  accession: string;
  form: string;
  updated: string;
  /** Filers named by the entries: their CIK, name and role (Reporting or Issuer). */
  filers: Array<{ cik: number; name: string; role: string }>;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  isArray: (name) => name === 'entry',
});

export function parseFeed(xml: string): FeedFiling[] | undefined {
  let doc: { feed?: { entry?: Array<Record<string, unknown>> } };
  try {
    doc = parser.parse(xml) as typeof doc;
  } catch {
    return undefined;
  }
  if (doc.feed === undefined) return undefined;
  const byAccession = new Map<string, FeedFiling>();
  for (const e of doc.feed.entry ?? []) {
    const id = typeof e.id === 'string' ? e.id : '';
    const accession = /accession-number=(\d{10}-\d{2}-\d{6})/.exec(id)?.[1];
    const title = typeof e.title === 'string' ? e.title : '';
    const t = /^(\S+) - (.*) \((\d{10})\) \(([^)]+)\)$/.exec(title.trim());
    if (accession === undefined || t === null) continue;
    const f = byAccession.get(accession) ?? {
      accession,
      form: t[1]!,
      updated: typeof e.updated === 'string' ? e.updated : '',
      filers: [],
    };
    f.filers.push({ cik: Number(t[3]), name: t[2]!, role: t[4]! });
    byAccession.set(accession, f);
  }
  return [...byAccession.values()];
}

export async function latestForm4s(
  sec: SecClient
): Promise<{ filings: FeedFiling[]; provenance: Provenance }> {
  const a = await sec.www.get({
    path: '/cgi-bin/browse-edgar',
    params: { action: 'getcurrent', type: '4', owner: 'include', count: 100, output: 'atom' },
    text: true,
    cacheTtlMs: FEED_TTL_MS,
  });
  const filings = parseFeed(typeof a.body === 'string' ? a.body : '');
  if (filings === undefined) {
    throw new UnavailableError(
      `${sec.www.source} answered the latest-filings feed in an unknown shape`
    );
  }
  return {
    filings: filings.filter((f) => f.form === '4' || f.form === '4/A'),
    provenance: a.provenance,
  };
}

/** The raw XML's name in a filing's folder, from its index. */
export async function rawXmlOf(
  sec: SecClient,
  cik: number,
  accession: string
): Promise<{ name: string | undefined; provenance: Provenance | undefined }> {
  const index = await filingIndex(sec, cik, accession);
  if (index === undefined) return { name: undefined, provenance: undefined };
  const xml = index.files.find(
    (f) => f.name.toLowerCase().endsWith('.xml') && !f.name.includes('/')
  );
  return { name: xml?.name, provenance: index.provenance };
}
