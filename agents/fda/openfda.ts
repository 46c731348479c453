// openFDA (data-sources.md "fda"): GET /drug/{label,event,enforcement,drugsfda}.json with
// search=<field:"term" OR/AND …>, skip/limit paging bounded by the hub, and count=<field>.exact
// tallies. A 404 {"error":{"code":"NOT_FOUND"}} means no matches, never a failure.
import { z } from 'zod';
import { UnavailableError } from '../../runtime/errors/index.js';
import { readPages, type Provenance, type Upstream } from '../kit/public-data/index.js';

export const SOURCE = 'openFDA';
/** Records asked per page (openFDA allows 1000): small pages keep cached answers small. */
export const PAGE_SIZE = 25;
/** openFDA refuses a skip beyond this. */
const MAX_SKIP = 25_000;

/** A term inside a quoted openFDA phrase: quotes and backslashes would end or escape it. */
export function term(s: string): string {
  return `"${s.replace(/["\\]/g, ' ').replace(/\s+/g, ' ').trim()}"`;
}

/** Any of `fields` equal to the phrase `value`. */
export function anyOf(fields: readonly string[], value: string): string {
  return fields.map((f) => `${f}:${term(value)}`).join(' OR ');
}

const NotFound = z.looseObject({ error: z.looseObject({ code: z.literal('NOT_FOUND') }) });

function noMatches(status: number, body: unknown): boolean {
  return status === 404 && NotFound.safeParse(body).success;
}

const Envelope = z.looseObject({
  meta: z
    .looseObject({ results: z.looseObject({ total: z.number().int() }).optional() })
    .optional(),
  results: z.array(z.unknown()),
});

function unexpected(): UnavailableError {
  return new UnavailableError(
    `${SOURCE} answered JSON in an unexpected shape; ask the operator to check FDA_URL`
  );
}

export interface Records {
  records: unknown[];
  total: number;
  provenance: Provenance[];
}

/** Up to `limit` records of `endpoint` matching `search`, page by page. */
export async function searchRecords(
  up: Upstream,
  endpoint: string,
  q: { search: string; sort?: string },
  limit: number,
  maxPages: number
): Promise<Records> {
  let total = 0;
  const { items, provenance } = await readPages(limit, maxPages, async (page, have) => {
    const skip = page * PAGE_SIZE;
    const a = await up.get({
      path: endpoint,
      params: { search: q.search, sort: q.sort, limit: Math.min(PAGE_SIZE, limit - have), skip },
      noMatches,
    });
    if (a.body === undefined) return { items: [], provenance: a.provenance, more: false };
    const body = Envelope.safeParse(a.body);
    if (!body.success) throw unexpected();
    total = body.data.meta?.results?.total ?? total;
    const got = body.data.results.length;
    // The page after is not asked for when its skip is past what openFDA accepts.
    const more = got > 0 && skip + got < total && skip + PAGE_SIZE <= MAX_SKIP;
    return { items: body.data.results, provenance: a.provenance, more };
  });
  return { records: items.slice(0, limit), total: Math.max(total, items.length), provenance };
}

const Count = z.looseObject({
  results: z.array(z.looseObject({ term: z.union([z.string(), z.number()]), count: z.number() })),
});

/** The top `limit` values of `field` among records matching `search` (openFDA's count=). */
export async function countTerms(
  up: Upstream,
  endpoint: string,
  search: string,
  field: string,
  limit: number
): Promise<{ terms: Array<{ term: string; count: number }>; provenance: Provenance }> {
  const a = await up.get({
    path: endpoint,
    params: { search, count: field, limit },
    noMatches,
  });
  if (a.body === undefined) return { terms: [], provenance: a.provenance };
  const body = Count.safeParse(a.body);
  if (!body.success) throw unexpected();
  return {
    terms: body.data.results.map((r) => ({ term: String(r.term), count: r.count })),
    provenance: a.provenance,
  };
}

const strs = z.array(z.string()).nullish();
const Openfda = z
  .looseObject({
    brand_name: strs,
    generic_name: strs,
    manufacturer_name: strs,
    product_ndc: strs,
  })
  .nullish();

export interface Label {
  setId: string;
  brandName: string;
  genericName: string;
  manufacturer: string;
  effectiveDate?: string;
  indications?: string;
  boxedWarning: boolean;
}

const LabelRecord = z.looseObject({
  set_id: z.string(),
  effective_time: z.string().nullish(),
  openfda: Openfda,
  indications_and_usage: strs,
  boxed_warning: strs,
});

export function readLabel(raw: unknown): Label | undefined {
  const r = LabelRecord.safeParse(raw);
  if (!r.success) return undefined;
  const o = r.data.openfda;
  const l: Label = {
    setId: r.data.set_id,
    brandName: o?.brand_name?.[0] ?? 'unnamed',
    genericName: o?.generic_name?.[0] ?? '',
    manufacturer: o?.manufacturer_name?.[0] ?? '',
    boxedWarning: (r.data.boxed_warning?.length ?? 0) > 0,
  };
  if (r.data.effective_time) l.effectiveDate = isoDay(r.data.effective_time);
  const ind = r.data.indications_and_usage?.join(' ').replace(/\s+/g, ' ').trim();
  if (ind) l.indications = ind.length > 300 ? `${ind.slice(0, 297)}…` : ind;
  return l;
}

export interface Recall {
  recallNumber: string;
  classification: string;
  status: string;
  reason: string;
  product: string;
  firm: string;
  reportDate?: string;
  state?: string;
  country?: string;
}

const RecallRecord = z.looseObject({
  recall_number: z.string(),
  reason_for_recall: z.string().nullish(),
  status: z.string().nullish(),
  classification: z.string().nullish(),
  product_description: z.string().nullish(),
  recalling_firm: z.string().nullish(),
  report_date: z.string().nullish(),
  state: z.string().nullish(),
  country: z.string().nullish(),
});

export function readRecall(raw: unknown): Recall | undefined {
  const r = RecallRecord.safeParse(raw);
  if (!r.success) return undefined;
  const d = r.data;
  return {
    recallNumber: d.recall_number,
    classification: d.classification ?? 'unclassified',
    status: d.status ?? 'unknown',
    reason: d.reason_for_recall ?? '',
    product: d.product_description ?? '',
    firm: d.recalling_firm ?? '',
    ...(d.report_date ? { reportDate: isoDay(d.report_date) } : {}),
    ...(d.state ? { state: d.state } : {}),
    ...(d.country ? { country: d.country } : {}),
  };
}

export interface Application {
  applicationNumber: string;
  sponsor: string;
  brandName: string;
  genericName: string;
  products: Array<{ brandName: string; dosageForm: string; route: string; ingredients: string[] }>;
  /** The original approval (submission ORIG, status AP), when there is one. */
  approvedOn?: string;
  reviewPriority?: string;
  /** The latest submission with its date. */
  latest?: { type: string; number: string; status: string; date: string };
}

const AppRecord = z.looseObject({
  application_number: z.string(),
  sponsor_name: z.string().nullish(),
  openfda: Openfda,
  products: z
    .array(
      z.looseObject({
        brand_name: z.string().nullish(),
        dosage_form: z.string().nullish(),
        route: z.string().nullish(),
        active_ingredients: z
          .array(z.looseObject({ name: z.string().nullish(), strength: z.string().nullish() }))
          .nullish(),
      })
    )
    .nullish(),
  submissions: z
    .array(
      z.looseObject({
        submission_type: z.string().nullish(),
        submission_number: z.string().nullish(),
        submission_status: z.string().nullish(),
        submission_status_date: z.string().nullish(),
        review_priority: z.string().nullish(),
      })
    )
    .nullish(),
});

export function readApplication(raw: unknown): Application | undefined {
  const r = AppRecord.safeParse(raw);
  if (!r.success) return undefined;
  const d = r.data;
  const products = (d.products ?? []).map((p) => ({
    brandName: p.brand_name ?? '',
    dosageForm: p.dosage_form ?? '',
    route: p.route ?? '',
    ingredients: (p.active_ingredients ?? [])
      .map((i) => [i.name, i.strength].filter(Boolean).join(' '))
      .filter((s) => s !== ''),
  }));
  const subs = (d.submissions ?? []).filter((s) => s.submission_status_date);
  const orig = subs.find((s) => s.submission_type === 'ORIG' && s.submission_status === 'AP');
  const latest = [...subs].sort((a, b) =>
    (b.submission_status_date ?? '').localeCompare(a.submission_status_date ?? '')
  )[0];
  const a: Application = {
    applicationNumber: d.application_number,
    sponsor: d.sponsor_name ?? '',
    brandName: d.openfda?.brand_name?.[0] ?? products[0]?.brandName ?? '',
    genericName: d.openfda?.generic_name?.[0] ?? '',
    products,
  };
  if (orig?.submission_status_date) a.approvedOn = isoDay(orig.submission_status_date);
  if (orig?.review_priority) a.reviewPriority = orig.review_priority;
  if (latest) {
    a.latest = {
      type: latest.submission_type ?? '',
      number: latest.submission_number ?? '',
      status: latest.submission_status ?? '',
      date: isoDay(latest.submission_status_date!),
    };
  }
  return a;
}

/** YYYYMMDD → YYYY-MM-DD; anything else as it is. */
export function isoDay(s: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : s;
}
