// The House Clerk's financial disclosures (data-sources.md "congress-trades"): the yearly
// {YEAR}FD.zip holds {YEAR}FD.xml, one <Member> per filing (FilingType P = periodic transaction
// report), and each PTR is a PDF at ptr-pdfs/{YEAR}/{DocID}.pdf. The index and each PDF's rows are
// kept in the shared cache as parsed values; the zip and PDF bytes are not.
import { XMLParser } from 'fast-xml-parser';
import { unzipSync } from 'fflate';
import { UnavailableError } from '../../runtime/errors/index.js';
import { fail } from '../kit/index.js';
import type { Provenance, Remembered, Upstream } from '../kit/public-data/index.js';
import { isoDate, pdfLines, ptrRows } from './house-ptr.js';
import type { Filing, ReportRead } from './model.js';

export const HOUSE = 'House Clerk (disclosures-clerk.house.gov)';
/** A filed PTR never changes: its rows are kept this long. */
export const DOCUMENT_TTL_MS = 30 * 24 * 3600 * 1000;

const xml = new XMLParser({
  isArray: (name) => name === 'Member',
  parseTagValue: false,
  trimValues: true,
});

interface MemberXml {
  Prefix?: string;
  Last?: string;
  First?: string;
  Suffix?: string;
  FilingType?: string;
  StateDst?: string;
  Year?: string;
  FilingDate?: string;
  DocID?: string;
}

/** The PTR filings of one year's index; a year the Clerk has not published answers none. */
export async function houseFilings(
  up: Upstream,
  base: string,
  year: number
): Promise<Remembered<Filing[]>> {
  return up.remember(`house-index-${year}`, async () => {
    const a = await up.request({
      path: `/financial-pdfs/${year}FD.zip`,
      accept: 'application/zip, application/octet-stream',
    });
    if (a.status === 404) return { value: [], provenance: [a.provenance] };
    if (a.status !== 200) fail(`${HOUSE} answered HTTP ${a.status} for ${year}FD.zip`);
    return { value: readIndex(a.bytes, year, base), provenance: [a.provenance] };
  });
}

/** The zip's {YEAR}FD.xml, read into the year's PTR filings. */
export function readIndex(zip: Uint8Array, year: number, base: string): Filing[] {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, { filter: (f) => /\.xml$/i.test(f.name) });
  } catch (err) {
    throw new UnavailableError(`${HOUSE}: ${year}FD.zip is not a readable zip file`, err);
  }
  const name = Object.keys(files).find((n) => n.toLowerCase().endsWith(`${year}fd.xml`));
  if (name === undefined) {
    throw new UnavailableError(`${HOUSE}: ${year}FD.zip has no ${year}FD.xml index`);
  }
  const text = Buffer.from(files[name]!)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const doc = xml.parse(text) as { FinancialDisclosure?: { Member?: MemberXml[] } };
  const members = doc.FinancialDisclosure?.Member ?? [];
  const root = base.replace(/\/+$/, '');
  return members
    .filter((m) => m.FilingType === 'P' && (m.DocID ?? '') !== '')
    .map((m): Filing => {
      const filingYear = m.Year ?? String(year);
      const name = [m.Prefix, m.First, m.Last, m.Suffix].filter((s) => s && s !== '').join(' ');
      return {
        chamber: 'house',
        member: name,
        first: m.First ?? '',
        last: m.Last ?? '',
        state: m.StateDst || null,
        filed: isoDate(m.FilingDate ?? '') ?? `${filingYear}-01-01`,
        id: m.DocID!,
        url: `${root}/ptr-pdfs/${filingYear}/${m.DocID}.pdf`,
        paper: false,
      };
    });
}

/** One PTR's rows, or why there are none (a scan, a missing PDF). */
export async function readHousePtr(up: Upstream, f: Filing): Promise<Remembered<ReportRead>> {
  const year = /\/ptr-pdfs\/(\d{4})\//.exec(f.url)?.[1] ?? f.filed.slice(0, 4);
  return up.remember<ReportRead>(
    `house-ptr-${year}-${f.id}`,
    async () => {
      const a = await up.request({
        path: `/ptr-pdfs/${year}/${f.id}.pdf`,
        accept: 'application/pdf',
      });
      const provenance: Provenance[] = [a.provenance];
      if (a.status === 404) return { value: { status: 'missing', rows: [] }, provenance };
      if (a.status !== 200) fail(`${HOUSE} answered HTTP ${a.status} for PTR ${f.id}`);
      let text;
      try {
        text = await pdfLines(a.bytes);
      } catch (err) {
        throw new UnavailableError(`${HOUSE}: PTR ${f.id} is not a readable PDF`, err);
      }
      if (text.kind === 'scanned') return { value: { status: 'scanned', rows: [] }, provenance };
      const rows = ptrRows(text.lines);
      return {
        value: { status: rows.length > 0 ? 'parsed' : 'unrecognised', rows },
        provenance,
      };
    },
    DOCUMENT_TTL_MS
  );
}
