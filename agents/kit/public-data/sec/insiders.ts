// What a company's filings say about its people: the ownership forms (3/4/5) its officers and
// directors file, read from their raw XML, and the principal executive officer its latest proxy
// (DEF 14A) tags in inline XBRL (ecd:PeoName, the pay-versus-performance table, 2022 on).
import type { Provenance } from '../upstream.js';
import { filingDocument, rawOwnershipDocument } from './archives.js';
import type { SecClient } from './client.js';
import { parseOwnership, relationship, type OwnershipForm } from './ownership.js';
import type { Filing, Submissions } from './submissions.js';

export const OWNERSHIP_FORMS = ['3', '4', '5', '3/A', '4/A', '5/A'] as const;

export interface ReadForm {
  filing: Filing;
  /** The filer whose submissions listed it (the issuer, or a reporting owner). */
  cik: number;
  form: OwnershipForm | undefined;
  /** The raw XML's URL. */
  xmlUrl: string | null;
}

/** The raw XML of each ownership filing, parsed; a missing or unreadable one has `form` undefined. */
export async function readOwnershipForms(
  sec: SecClient,
  cik: number,
  filings: readonly Filing[]
): Promise<{ forms: ReadForm[]; provenance: Provenance[] }> {
  const forms: ReadForm[] = [];
  const provenance: Provenance[] = [];
  for (const filing of filings) {
    if (filing.primaryDocument === null) {
      forms.push({ filing, cik, form: undefined, xmlUrl: null });
      continue;
    }
    const name = rawOwnershipDocument(filing.primaryDocument);
    const doc = await filingDocument(sec, cik, filing.accession, name);
    if (doc !== undefined) provenance.push(doc.provenance);
    forms.push({
      filing,
      cik,
      form: doc === undefined ? undefined : parseOwnership(doc.text),
      xmlUrl: `${filing.url}${name}`,
    });
  }
  return { forms, provenance };
}

export interface Executive {
  name: string;
  cik: number | null;
  /** "Director, Chief Executive Officer" as the latest form gives it. */
  role: string;
  isDirector: boolean;
  isOfficer: boolean;
  officerTitle: string | null;
  /** Where it came from, e.g. "Form 4 filed 2026-10-02 (0000320193-26-000101)". */
  source: string;
  sourceUrl: string | null;
}

/** Officers and directors named by the reporting owners of the given forms, latest role first. */
export function executivesFromForms(forms: readonly ReadForm[]): Executive[] {
  const byName = new Map<string, Executive>();
  for (const f of forms) {
    for (const o of f.form?.owners ?? []) {
      if (!o.isDirector && !o.isOfficer) continue;
      const key = o.cik !== null ? `cik:${o.cik}` : `name:${o.name.toUpperCase()}`;
      if (byName.has(key)) continue;
      byName.set(key, {
        name: o.name,
        cik: o.cik,
        role: relationship({ ...o, isTenPercentOwner: false, isOther: false }),
        isDirector: o.isDirector,
        isOfficer: o.isOfficer,
        officerTitle: o.officerTitle,
        source: `Form ${f.filing.form} filed ${f.filing.filingDate} (${f.filing.accession})`,
        sourceUrl: f.xmlUrl,
      });
    }
  }
  return [...byName.values()];
}

export interface ProxyExecutive {
  name: string;
  tag: 'ecd:PeoName';
  source: string;
  sourceUrl: string;
}

/** Inline XBRL's ecd:PeoName values in a proxy's HTML (tags inside are dropped, entities read). */
export function peoNames(html: string): string[] {
  const re = /<ix:nonNumeric\b[^>]*\bname="ecd:PeoName"[^>]*>([\s\S]*?)<\/ix:nonNumeric>/gi;
  const names: string[] = [];
  for (const m of html.matchAll(re)) {
    const name = m[1]!
      .replace(/<[^>]+>/g, '')
      .replace(/&amp;/g, '&')
      .replace(/&#160;|&nbsp;/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (name !== '' && !names.includes(name)) names.push(name);
  }
  return names;
}

export interface ExecutivesFound {
  executives: Executive[];
  proxy: { filing: Filing; peo: ProxyExecutive[] } | null;
  formsRead: number;
  provenance: Provenance[];
}

/**
 * The company's people from its latest proxy (the PEO it tags) and its latest `maxForms`
 * ownership filings (officers and directors with their titles).
 */
export async function executivesOf(
  sec: SecClient,
  s: Submissions,
  maxForms: number
): Promise<ExecutivesFound> {
  const provenance: Provenance[] = [];
  const cik = s.profile.cik;
  let proxy: ExecutivesFound['proxy'] = null;
  const def14a = s.recent.find((f) => f.form === 'DEF 14A' && f.primaryDocument !== null);
  if (def14a !== undefined) {
    const doc = await filingDocument(sec, cik, def14a.accession, def14a.primaryDocument!);
    if (doc !== undefined) {
      provenance.push(doc.provenance);
      const source = `DEF 14A filed ${def14a.filingDate} (${def14a.accession}), inline XBRL ecd:PeoName`;
      proxy = {
        filing: def14a,
        peo: peoNames(doc.text).map((name) => ({
          name,
          tag: 'ecd:PeoName',
          source,
          sourceUrl: def14a.documentUrl!,
        })),
      };
    }
  }
  const own = s.recent
    .filter((f) => (OWNERSHIP_FORMS as readonly string[]).includes(f.form))
    .slice(0, maxForms);
  const read = await readOwnershipForms(sec, cik, own);
  provenance.push(...read.provenance);
  return {
    executives: executivesFromForms(read.forms),
    proxy,
    formsRead: read.forms.length,
    provenance,
  };
}
