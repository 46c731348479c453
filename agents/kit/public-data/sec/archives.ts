// The EDGAR Archives: a filing's folder listing (…/{accessionNoDashes}/index.json, a 404 when there
// is no such filing) and its documents, read as text (HTML and XML are not JSON).
import { UnavailableError } from '../../../../runtime/errors/index.js';
import type { Answer, Provenance } from '../upstream.js';
import { accessionFolder, filingUrl, scalar, type SecClient } from './client.js';

export interface FilingFile {
  name: string;
  type: string;
  size: number | null;
  lastModified: string | null;
  url: string;
}

export interface FilingIndex {
  files: FilingFile[];
  url: string;
  provenance: Provenance;
}

/** 0000320193-24-000123, the form EDGAR prints; a folder name (18 digits) is accepted too. */
export function normalAccession(a: string): string | undefined {
  const digits = a.replace(/-/g, '');
  if (!/^\d{18}$/.test(digits)) return undefined;
  return `${digits.slice(0, 10)}-${digits.slice(10, 12)}-${digits.slice(12)}`;
}

export async function filingIndex(
  sec: SecClient,
  cik: number,
  accession: string
): Promise<FilingIndex | undefined> {
  const folder = `/Archives/edgar/data/${cik}/${accessionFolder(accession)}`;
  const a = await sec.www.get({
    path: `${folder}/index.json`,
    noMatches: (status) => status === 404,
  });
  if (a.body === undefined) return undefined;
  const dir = (a.body as { directory?: { item?: unknown } }).directory;
  if (!Array.isArray(dir?.item)) {
    throw new UnavailableError(`${sec.www.source} answered a filing index in an unknown shape`);
  }
  const url = filingUrl(sec.site, cik, accession);
  const files = (dir.item as Array<Record<string, unknown>>).map((f) => {
    const size = Number(f.size);
    return {
      name: scalar(f.name),
      type: scalar(f.type),
      size: f.size === '' || !Number.isFinite(size) ? null : size,
      lastModified: typeof f['last-modified'] === 'string' ? f['last-modified'] : null,
      url: `${url}${scalar(f.name)}`,
    };
  });
  return { files, url, provenance: a.provenance };
}

/** One document of a filing as text, or undefined when the Archives have no such file. */
export async function filingDocument(
  sec: SecClient,
  cik: number,
  accession: string,
  name: string
): Promise<{ text: string; provenance: Provenance } | undefined> {
  const a: Answer = await sec.www.get({
    path: `/Archives/edgar/data/${cik}/${accessionFolder(accession)}/${name}`,
    // Documents are XML, HTML or plain text; one that happens to parse as JSON is given back as written.
    text: true,
    noMatches: (status) => status === 404,
  });
  if (a.body === undefined) return undefined;
  return {
    text: typeof a.body === 'string' ? a.body : JSON.stringify(a.body),
    provenance: a.provenance,
  };
}

/**
 * The raw XML of an ownership form (3/4/5): submissions name the rendering
 * (`xslF345X05/wf-form4_….xml`), whose folder prefix is dropped to reach the XML itself.
 */
export function rawOwnershipDocument(primaryDocument: string): string {
  return primaryDocument.replace(/^xsl[^/]*\//i, '');
}
