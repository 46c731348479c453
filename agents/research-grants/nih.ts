// NIH RePORTER API v2 (data-sources.md "research-grants"): POST /v2/projects/search with
// `criteria`, `include_fields` (PascalCase names; the answer is snake_case), `offset` (≤ 14,999)
// and `limit` (≤ 500), sorted newest start first. RePORTER asks for about one request a second.
import { z } from 'zod';
import { UnavailableError } from '../../runtime/errors/index.js';
import { readPages, readRows, type Provenance, type Upstream } from '../kit/public-data/index.js';
import { isoDay, snippet, type Found, type Grant } from './grant.js';

export const NIH = 'NIH RePORTER';
/** RePORTER's largest page and its deepest offset. */
export const NIH_MAX_LIMIT = 500;
export const NIH_MAX_OFFSET = 14_999;

const FIELDS = [
  'ApplId',
  'ProjectNum',
  'ProjectTitle',
  'FiscalYear',
  'AwardAmount',
  'Organization',
  'PrincipalInvestigators',
  'AgencyIcAdmin',
  'ProjectStartDate',
  'ProjectEndDate',
  'AbstractText',
  'ProjectDetailUrl',
];

export interface GrantQuery {
  text?: string;
  /** A person's name: "Jennifer Doudna" or a last name. */
  investigator?: string;
  institution?: string;
  year?: number;
  /** Started (NIH) or awarded (NSF) on or after this day, YYYY-MM-DD. */
  since?: string;
}

/** RePORTER's criteria for a query. */
export function nihCriteria(q: GrantQuery): Record<string, unknown> {
  const c: Record<string, unknown> = {};
  if (q.text !== undefined) {
    c.advanced_text_search = {
      operator: 'and',
      search_field: 'projecttitle,terms,abstracttext',
      search_text: q.text,
    };
  }
  if (q.investigator !== undefined) {
    const parts = q.investigator.trim().split(/\s+/);
    c.pi_names =
      parts.length >= 2
        ? [{ first_name: parts[0], last_name: parts[parts.length - 1] }]
        : [{ any_name: q.investigator }];
  }
  if (q.institution !== undefined) c.org_names = [q.institution];
  if (q.year !== undefined) c.fiscal_years = [q.year];
  if (q.since !== undefined) c.project_start_date = { from_date: q.since };
  return c;
}

export async function searchNih(
  up: Upstream,
  q: GrantQuery,
  limit: number,
  maxPages: number
): Promise<Found & { provenance: Provenance[] }> {
  const criteria = nihCriteria(q);
  let total: number | undefined;
  let offset = 0;
  const read = await readPages(limit, maxPages, async (_n, have) => {
    const size = Math.min(NIH_MAX_LIMIT, limit - have);
    const a = await up.get({
      path: '/v2/projects/search',
      body: {
        criteria,
        include_fields: FIELDS,
        offset,
        limit: size,
        sort_field: 'project_start_date',
        sort_order: 'desc',
      },
    });
    const body = Answer.safeParse(a.body);
    if (!body.success) throw unexpected();
    total ??= body.data.meta.total;
    offset += size;
    const more =
      body.data.results.length >= size && offset < body.data.meta.total && offset <= NIH_MAX_OFFSET;
    return { items: readRows(body.data.results, readProject), provenance: a.provenance, more };
  });
  const { items: grants, provenance } = read;
  return { source: 'NIH', grants, ...(total !== undefined ? { total } : {}), provenance };
}

function unexpected(): UnavailableError {
  return new UnavailableError(
    `${NIH} answered JSON in an unexpected shape; ask the operator to check RESEARCH_GRANTS_NIH_URL`
  );
}

const Str = z.string().nullish();
const Answer = z.looseObject({
  meta: z.looseObject({ total: z.number().int() }),
  results: z.array(z.unknown()),
});

const Project = z.looseObject({
  appl_id: z.number().int().nullish(),
  project_num: z.string(),
  project_title: Str,
  fiscal_year: z.number().int().nullish(),
  award_amount: z.number().nullish(),
  abstract_text: Str,
  organization: z.looseObject({ org_name: Str, org_city: Str, org_state: Str }).nullish(),
  principal_investigators: z
    .array(
      z.looseObject({
        first_name: Str,
        last_name: Str,
        full_name: Str,
        is_contact_pi: z.boolean().nullish(),
      })
    )
    .nullish(),
  agency_ic_admin: z.looseObject({ abbreviation: Str, name: Str }).nullish(),
  project_start_date: Str,
  project_end_date: Str,
  project_detail_url: Str,
});

/** A RePORTER project as a Grant; undefined when it is not one. */
export function readProject(raw: unknown): Grant | undefined {
  const p = Project.safeParse(raw);
  if (!p.success) return undefined;
  const r = p.data;
  // The contact PI first: RePORTER lists multi-PI projects in no particular order.
  const pis = [...(r.principal_investigators ?? [])].sort(
    (a, b) => Number(b.is_contact_pi === true) - Number(a.is_contact_pi === true)
  );
  const g: Grant = {
    source: 'NIH',
    id: r.project_num,
    title: r.project_title?.trim() || r.project_num,
    institution: r.organization?.org_name ?? '',
    investigators: pis
      .map((x) => x.full_name ?? [x.first_name, x.last_name].filter(Boolean).join(' '))
      .filter((x) => x !== ''),
    amount: typeof r.award_amount === 'number' ? r.award_amount : null,
    url:
      r.project_detail_url ??
      (r.appl_id ? `https://reporter.nih.gov/project-details/${r.appl_id}` : ''),
  };
  if (r.organization?.org_city) g.city = r.organization.org_city;
  if (r.organization?.org_state) g.state = r.organization.org_state;
  if (typeof r.fiscal_year === 'number') g.fiscalYear = r.fiscal_year;
  const start = isoDay(r.project_start_date);
  const end = isoDay(r.project_end_date);
  if (start) g.startDate = start;
  if (end) g.endDate = end;
  const ic = r.agency_ic_admin;
  if (ic?.abbreviation || ic?.name) g.funder = ic.abbreviation ?? ic.name!;
  const abstract = snippet(r.abstract_text);
  if (abstract) g.abstract = abstract;
  return g;
}
