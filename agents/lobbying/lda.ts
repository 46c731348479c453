// The Lobbying Disclosure Act API (data-sources.md "lobbying"): GET {LOBBYING_URL}/filings/ with
// its filters, DRF paging (`count`, `next`, `previous`, `results`; `page` and `page_size`), followed
// up to the hub's page bound. The host is lda.gov; lda.senate.gov is sunset on 2026-06-30.
import { z } from 'zod';
import { UnavailableError } from '../../runtime/errors/index.js';
import { readPages, readRows, type Provenance, type Upstream } from '../kit/public-data/index.js';

export const SOURCE = 'LDA (lda.gov)';
/** LDA's largest page; DRF quietly caps a larger page_size, so asking more gains nothing. */
export const PAGE_SIZE = 25;

export const PERIODS = [
  'first_quarter',
  'second_quarter',
  'third_quarter',
  'fourth_quarter',
  'mid_year',
  'year_end',
] as const;
export type Period = (typeof PERIODS)[number];

export interface Issue {
  code: string;
  display: string;
  description: string;
}

export interface Filing {
  filingUuid: string;
  filingType: string;
  filingTypeDisplay: string;
  year: number;
  period: string;
  registrant: { id: number | null; name: string };
  client: { id: number | null; name: string; description?: string };
  /** Dollars, from `income` (a firm's, for the client) or `expenses` (in-house); null if neither. */
  amount: number | null;
  amountKind: 'income' | 'expenses' | null;
  issues: Issue[];
  lobbyists: string[];
  postedAt: string;
  documentUrl?: string;
}

export interface FilingQuery {
  year?: number;
  period?: Period;
  clientName?: string;
  registrantName?: string;
  issueCode?: string;
  specificIssues?: string;
}

export interface FilingPage {
  filings: Filing[];
  /** How many filings LDA has for the query (its `count`). */
  total: number;
  provenance: Provenance[];
}

/** The upstream's parameters for a query; newest filings first. */
export function filingParams(q: FilingQuery): Record<string, string> {
  const p: Record<string, string> = { ordering: '-dt_posted' };
  if (q.year !== undefined) p.filing_year = String(q.year);
  if (q.period !== undefined) p.filing_period = q.period;
  if (q.clientName !== undefined) p.client_name = q.clientName;
  if (q.registrantName !== undefined) p.registrant_name = q.registrantName;
  if (q.issueCode !== undefined) p.filing_general_issue_code = q.issueCode;
  if (q.specificIssues !== undefined) p.filing_specific_lobbying_issues = q.specificIssues;
  return p;
}

/** Filings for `q`, up to `max` of them, following `next` page by page. */
export async function searchFilings(
  up: Upstream,
  q: FilingQuery,
  max: number,
  maxPages: number
): Promise<FilingPage> {
  const base = filingParams(q);
  let total = 0;
  let page: number | undefined = 1;
  const { items, provenance } = await readPages(max, maxPages, async (n) => {
    const a = await up.get({
      path: '/filings/',
      params: { ...base, page_size: PAGE_SIZE, page: page === 1 ? undefined : page },
      // DRF's answer for a page past the end: {"detail": "Invalid page."} with 404.
      noMatches: (status) => status === 404,
    });
    if (a.body === undefined) return { items: [], provenance: a.provenance, more: false };
    const body = FilingsAnswer.safeParse(a.body);
    if (!body.success) throw unexpected();
    if (n === 0) total = body.data.count;
    page = nextPage(body.data.next);
    return {
      items: readRows(body.data.results, readFiling),
      provenance: a.provenance,
      more: page !== undefined,
    };
  });
  return { filings: items.slice(0, max), total, provenance };
}

/**
 * The page number in DRF's `next` link. The link names LDA's own host (lda.gov), which may not be
 * the one the hub is configured with (a proxy, a mirror), so only its `page` is taken from it.
 */
export function nextPage(next: string | null | undefined): number | undefined {
  if (next === null || next === undefined || next === '') return undefined;
  try {
    const page = Number(new URL(next).searchParams.get('page'));
    return Number.isInteger(page) && page > 1 ? page : undefined;
  } catch {
    return undefined;
  }
}

function unexpected(): UnavailableError {
  return new UnavailableError(
    `${SOURCE} answered JSON in an unexpected shape; ask the operator to check LOBBYING_URL`
  );
}

/**
 * A decimal string ("12345.00"), a number, or null, as whole cents; undefined when it is none of
 * them. Cents keep sums exact over thousands of filings.
 */
export function cents(v: unknown): number | null | undefined {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'number') return Number.isFinite(v) ? Math.round(v * 100) : undefined;
  if (typeof v !== 'string') return undefined;
  const m = /^\s*(-?)(\d+)(?:\.(\d{1,2})\d*)?\s*$/.exec(v);
  if (!m) return undefined;
  const whole = Number(m[2]) * 100 + Number((m[3] ?? '0').padEnd(2, '0'));
  return m[1] === '-' ? -whole : whole;
}

const Str = z.string().nullish();
const Id = z.number().int().nullish();
const FilingsAnswer = z.looseObject({
  count: z.number().int(),
  next: z.string().nullish(),
  previous: z.string().nullish(),
  results: z.array(z.unknown()),
});

const RawFiling = z.looseObject({
  filing_uuid: z.string(),
  filing_type: Str,
  filing_type_display: Str,
  filing_year: z.number().int(),
  filing_period: Str,
  filing_document_url: Str,
  income: z.union([z.string(), z.number()]).nullish(),
  expenses: z.union([z.string(), z.number()]).nullish(),
  dt_posted: Str,
  registrant: z.looseObject({ id: Id, name: Str }).nullish(),
  client: z.looseObject({ id: Id, client_id: Id, name: Str, general_description: Str }).nullish(),
  lobbying_activities: z
    .array(
      z.looseObject({
        general_issue_code: Str,
        general_issue_code_display: Str,
        description: Str,
        lobbyists: z
          .array(
            z.looseObject({
              lobbyist: z.looseObject({ first_name: Str, last_name: Str }).nullish(),
            })
          )
          .nullish(),
      })
    )
    .nullish(),
});

/** A filing in the API's shape as our Filing; undefined when it is not one. */
export function readFiling(raw: unknown): Filing | undefined {
  const p = RawFiling.safeParse(raw);
  if (!p.success) return undefined;
  const f = p.data;
  const income = cents(f.income);
  const expenses = cents(f.expenses);
  // An amount that is not a decimal is not guessed at: the filing counts, its amount does not.
  const kind =
    typeof income === 'number' ? 'income' : typeof expenses === 'number' ? 'expenses' : null;
  const amount = kind === 'income' ? income! : kind === 'expenses' ? expenses! : null;
  const lobbyists = new Set<string>();
  const issues: Issue[] = [];
  for (const a of f.lobbying_activities ?? []) {
    if (a.general_issue_code) {
      issues.push({
        code: a.general_issue_code,
        display: a.general_issue_code_display ?? a.general_issue_code,
        description: (a.description ?? '').trim(),
      });
    }
    for (const l of a.lobbyists ?? []) {
      const name = [l.lobbyist?.first_name, l.lobbyist?.last_name].filter(Boolean).join(' ');
      if (name !== '') lobbyists.add(name);
    }
  }
  const filing: Filing = {
    filingUuid: f.filing_uuid,
    filingType: f.filing_type ?? '',
    filingTypeDisplay: f.filing_type_display ?? f.filing_type ?? '',
    year: f.filing_year,
    period: f.filing_period ?? '',
    registrant: { id: f.registrant?.id ?? null, name: f.registrant?.name ?? '' },
    client: { id: f.client?.id ?? null, name: f.client?.name ?? '' },
    amount: amount === null ? null : amount / 100,
    amountKind: kind,
    issues,
    lobbyists: [...lobbyists],
    postedAt: f.dt_posted ?? '',
  };
  if (f.client?.general_description) filing.client.description = f.client.general_description;
  if (f.filing_document_url) filing.documentUrl = f.filing_document_url;
  return filing;
}
