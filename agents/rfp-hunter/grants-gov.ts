// Grants.gov (data-sources.md "rfp-hunter"), no key: POST /v1/api/search2 with startRecordNum/rows
// paging, and POST /v1/api/fetchOpportunity for one opportunity. Errors come as HTTP 200 with a
// non-zero `errorcode` and a `msg`: they fail the task and are never cached.
import { z } from 'zod';
import { UnavailableError } from '../../runtime/errors/index.js';
import { readPages, type Provenance, type Upstream } from '../kit/public-data/index.js';
import { GRANTS_GOV, isoDate, type Opportunity } from './opportunity.js';

const SEARCH = '/v1/api/search2';
const FETCH = '/v1/api/fetchOpportunity';

export function grantUrl(id: string): string {
  return `https://www.grants.gov/search-results-detail/${id}`;
}

const s = z.string().nullish();
const Envelope = z.looseObject({ errorcode: z.number(), msg: s, data: z.unknown() });
const Hit = z.looseObject({
  id: z.union([z.string(), z.number()]),
  number: s,
  title: s,
  agencyCode: s,
  agency: s,
  openDate: s,
  closeDate: s,
  oppStatus: s,
  docType: s,
});
const SearchData = z.looseObject({ hitCount: z.number().int(), oppHits: z.array(z.unknown()) });

const ok = (b: unknown) => Envelope.safeParse(b).data?.errorcode === 0;

function unexpected(): UnavailableError {
  return new UnavailableError(
    `${GRANTS_GOV} answered JSON in an unexpected shape; ask the operator to check GRANTS_GOV_URL`
  );
}

/** The answer's data, or a failure in Grants.gov's own words. */
function data(body: unknown): unknown {
  const e = Envelope.safeParse(body);
  if (!e.success) throw unexpected();
  if (e.data.errorcode !== 0) {
    throw new UnavailableError(
      `${GRANTS_GOV} answered an error: ${e.data.msg ?? `errorcode ${e.data.errorcode}`}`
    );
  }
  return e.data.data;
}

export function readHit(raw: unknown): Opportunity | undefined {
  const p = Hit.safeParse(raw);
  if (!p.success) return undefined;
  const h = p.data;
  const id = String(h.id);
  return {
    source: GRANTS_GOV,
    id,
    url: grantUrl(id),
    number: h.number ?? null,
    title: h.title ?? h.number ?? id,
    agency: h.agency ?? h.agencyCode ?? null,
    kind: 'funding',
    type: h.docType ?? null,
    status: h.oppStatus ?? null,
    postedDate: isoDate(h.openDate),
    deadline: isoDate(h.closeDate),
    setAside: null,
    naics: null,
    notices: 1,
    alsoOn: [],
  };
}

export interface GrantsQuery {
  keyword?: string;
  oppNum?: string;
  /** Keep only opportunities opened on or after this date (search2 has no date filter). */
  openedFrom?: string;
  openedTo?: string;
}

export interface GrantsPage {
  opportunities: Opportunity[];
  total: number;
  provenance: Provenance[];
}

/** Forecasted and posted opportunities, pages of `limit` read until `limit` pass the date filter. */
export async function searchGrants(
  up: Upstream,
  q: GrantsQuery,
  limit: number,
  maxPages: number
): Promise<GrantsPage> {
  let total = 0;
  const { items, provenance } = await readPages(limit, maxPages, async (page) => {
    const a = await up.get({
      path: SEARCH,
      body: {
        ...(q.keyword !== undefined ? { keyword: q.keyword } : {}),
        ...(q.oppNum !== undefined ? { oppNum: q.oppNum } : {}),
        oppStatuses: 'forecasted|posted',
        sortBy: 'openDate|desc',
        rows: limit,
        startRecordNum: page * limit,
      },
      cacheable: ok,
    });
    const d = SearchData.safeParse(data(a.body));
    if (!d.success) throw unexpected();
    total = d.data.hitCount;
    const found: Opportunity[] = [];
    for (const raw of d.data.oppHits) {
      const o = readHit(raw);
      if (o === undefined) throw unexpected();
      const opened = o.postedDate ?? '';
      if (q.openedFrom !== undefined && opened < q.openedFrom) continue;
      if (q.openedTo !== undefined && opened > q.openedTo) continue;
      found.push(o);
    }
    const more = (page + 1) * limit < total && d.data.oppHits.length > 0;
    return { items: found, provenance: a.provenance, more };
  });
  return { opportunities: items.slice(0, limit), total, provenance };
}

export interface GrantDetail extends Opportunity {
  description: string | null;
  awardCeiling: number | null;
  awardFloor: number | null;
  estimatedFunding: number | null;
  expectedAwards: number | null;
  eligibility: string[];
  instruments: string[];
  categories: string[];
  assistanceListings: Array<{ number: string; title: string | null }>;
  contact: string | null;
}

const Described = z.array(z.looseObject({ description: s })).nullish();
const Detail = z.looseObject({
  id: z.union([z.string(), z.number()]),
  opportunityNumber: s,
  opportunityTitle: s,
  owningAgencyCode: s,
  docType: s,
  opportunityCategory: z.looseObject({ description: s }).nullish(),
  synopsis: z
    .looseObject({
      agencyName: s,
      postingDate: s,
      responseDate: s,
      awardCeiling: z.union([z.number(), z.string()]).nullish(),
      awardFloor: z.union([z.number(), z.string()]).nullish(),
      estimatedFunding: z.union([z.number(), z.string()]).nullish(),
      expectedNumberOfAwards: z.union([z.number(), z.string()]).nullish(),
      synopsisDesc: s,
      agencyContactName: s,
      agencyContactEmail: s,
      applicantTypes: Described,
      fundingInstruments: Described,
      fundingActivityCategories: Described,
    })
    .nullish(),
  cfdas: z.array(z.looseObject({ cfdaNumber: s, programTitle: s })).nullish(),
});

function amount(v: unknown): number | null {
  const n = typeof v === 'string' ? Number(v.replace(/[$,]/g, '')) : v;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : null;
}

function descriptions(xs: z.output<typeof Described>): string[] {
  return (xs ?? []).map((x) => x.description ?? '').filter((x) => x !== '');
}

/** Text of an HTML synopsis, for people. */
function plain(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

export async function grantDetail(
  up: Upstream,
  id: string
): Promise<{ opportunity: GrantDetail | undefined; provenance: Provenance }> {
  const a = await up.get({ path: FETCH, body: { opportunityId: Number(id) }, cacheable: ok });
  const raw = data(a.body);
  // An unknown id answers an empty data object.
  if (raw === null || raw === undefined || (typeof raw === 'object' && !('id' in raw))) {
    return { opportunity: undefined, provenance: a.provenance };
  }
  const p = Detail.safeParse(raw);
  if (!p.success) throw unexpected();
  const d = p.data;
  const syn = d.synopsis;
  const oid = String(d.id);
  return {
    opportunity: {
      source: GRANTS_GOV,
      id: oid,
      url: grantUrl(oid),
      number: d.opportunityNumber ?? null,
      title: d.opportunityTitle ?? d.opportunityNumber ?? oid,
      agency: syn?.agencyName ?? d.owningAgencyCode ?? null,
      kind: 'funding',
      type: d.opportunityCategory?.description ?? d.docType ?? null,
      status: null,
      postedDate: isoDate(syn?.postingDate),
      deadline: isoDate(syn?.responseDate),
      setAside: null,
      naics: null,
      notices: 1,
      alsoOn: [],
      description: syn?.synopsisDesc ? plain(syn.synopsisDesc) : null,
      awardCeiling: amount(syn?.awardCeiling),
      awardFloor: amount(syn?.awardFloor),
      estimatedFunding: amount(syn?.estimatedFunding),
      expectedAwards: amount(syn?.expectedNumberOfAwards),
      eligibility: descriptions(syn?.applicantTypes),
      instruments: descriptions(syn?.fundingInstruments),
      categories: descriptions(syn?.fundingActivityCategories),
      assistanceListings: (d.cfdas ?? [])
        .filter((c) => c.cfdaNumber)
        .map((c) => ({ number: c.cfdaNumber!, title: c.programTitle ?? null })),
      contact:
        [syn?.agencyContactName, syn?.agencyContactEmail].filter(Boolean).join(' · ') || null,
    },
    provenance: a.provenance,
  };
}
