// One award from USAspending.gov: GET /api/v2/awards/{generated_internal_id}/ (its 404 means "no
// such award"). A plain award id (PIID, FAIN, URI) is first looked up with the search's award_ids
// filter, one request per award-type group.
import { z } from 'zod';
import { UnavailableError } from '../../runtime/errors/index.js';
import type { Provenance, Upstream } from '../kit/public-data/index.js';
import { SOURCE, awardUrl, searchAwards } from './awards.js';
import { GROUPS } from './groups.js';

/** USAspending's own award keys: CONT_AWD_…, CONT_IDV_…, ASST_NON_…, ASST_AGG_…. */
export const GENERATED_ID =
  /\b((?:CONT_(?:AWD|IDV)|ASST_(?:NON|AGG))_[A-Z0-9_.-]*[A-Z0-9_-])(?![A-Z0-9_-])/i;

export interface AwardDetail {
  generatedId: string;
  awardId: string | null;
  category: string | null;
  type: string | null;
  description: string | null;
  totalObligation: number | null;
  potentialValue: number | null;
  dateSigned: string | null;
  recipient: { name: string | null; uei: string | null; parent: string | null; location: string };
  awardingAgency: { name: string | null; subAgency: string | null; office: string | null };
  fundingAgency: string | null;
  period: { start: string | null; end: string | null; lastModified: string | null };
  placeOfPerformance: string;
  naics: { code: string; description: string | null } | null;
  psc: { code: string; description: string | null } | null;
  url: string;
}

const s = z.string().nullish();
const n = z.number().nullish();
const Agency = z
  .looseObject({
    toptier_agency: z.looseObject({ name: s }).nullish(),
    subtier_agency: z.looseObject({ name: s }).nullish(),
    office_agency_name: s,
  })
  .nullish();
const Place = z
  .looseObject({ city_name: s, state_code: s, country_name: s, location_country_code: s })
  .nullish();
const Code = z.looseObject({ code: s, description: s }).nullish();
const Detail = z.looseObject({
  generated_unique_award_id: z.string(),
  piid: s,
  fain: s,
  uri: s,
  category: s,
  type_description: s,
  description: s,
  total_obligation: n,
  base_and_all_options: n,
  date_signed: s,
  recipient: z
    .looseObject({
      recipient_name: s,
      recipient_uei: s,
      recipient_unique_id: s,
      parent_recipient_name: s,
      location: Place,
    })
    .nullish(),
  awarding_agency: Agency,
  funding_agency: Agency,
  period_of_performance: z
    .looseObject({ start_date: s, end_date: s, last_modified_date: s })
    .nullish(),
  place_of_performance: Place,
  naics_hierarchy: z.looseObject({ base_code: Code }).nullish(),
  psc_hierarchy: z.looseObject({ base_code: Code }).nullish(),
  latest_transaction_contract_data: z
    .looseObject({ naics: s, naics_description: s, product_or_service_code: s })
    .nullish(),
});

function place(p: z.output<typeof Place>): string {
  if (!p) return '';
  return [p.city_name, p.state_code, p.country_name ?? p.location_country_code]
    .filter((x): x is string => typeof x === 'string' && x !== '')
    .join(', ');
}

function code(c: z.output<typeof Code>): AwardDetail['naics'] {
  return c?.code ? { code: c.code, description: c.description ?? null } : null;
}

export function readDetail(raw: unknown): AwardDetail | undefined {
  const p = Detail.safeParse(raw);
  if (!p.success) return undefined;
  const d = p.data;
  const latest = d.latest_transaction_contract_data;
  return {
    generatedId: d.generated_unique_award_id,
    awardId: d.piid ?? d.fain ?? d.uri ?? null,
    category: d.category ?? null,
    type: d.type_description ?? null,
    description: d.description ?? null,
    totalObligation: d.total_obligation ?? null,
    potentialValue: d.base_and_all_options ?? null,
    dateSigned: d.date_signed ?? null,
    recipient: {
      name: d.recipient?.recipient_name ?? null,
      uei: d.recipient?.recipient_uei ?? d.recipient?.recipient_unique_id ?? null,
      parent: d.recipient?.parent_recipient_name ?? null,
      location: place(d.recipient?.location),
    },
    awardingAgency: {
      name: d.awarding_agency?.toptier_agency?.name ?? null,
      subAgency: d.awarding_agency?.subtier_agency?.name ?? null,
      office: d.awarding_agency?.office_agency_name ?? null,
    },
    fundingAgency: d.funding_agency?.toptier_agency?.name ?? null,
    period: {
      start: d.period_of_performance?.start_date ?? null,
      end: d.period_of_performance?.end_date ?? null,
      lastModified: d.period_of_performance?.last_modified_date ?? null,
    },
    placeOfPerformance: place(d.place_of_performance),
    naics:
      code(d.naics_hierarchy?.base_code) ??
      (latest?.naics
        ? { code: latest.naics, description: latest.naics_description ?? null }
        : null),
    psc:
      code(d.psc_hierarchy?.base_code) ??
      (latest?.product_or_service_code
        ? { code: latest.product_or_service_code, description: null }
        : null),
    url: awardUrl(d.generated_unique_award_id),
  };
}

export async function awardDetail(
  up: Upstream,
  id: string,
  maxPages: number
): Promise<{ award: AwardDetail | undefined; provenance: Provenance[] }> {
  const provenance: Provenance[] = [];
  let generated = GENERATED_ID.test(id) ? id : undefined;
  if (generated === undefined) {
    // A PIID, FAIN or URI: which group it is in is unknown, so each is asked (groups never mix).
    const found = await searchAwards(up, { awardIds: [id] }, GROUPS, 5, Math.min(1, maxPages));
    provenance.push(...found.provenance);
    const exact = found.awards.find((a) => a.awardId.toUpperCase() === id.toUpperCase());
    generated = (exact ?? found.awards[0])?.generatedId;
    if (generated === undefined) return { award: undefined, provenance };
  }
  const a = await up.get({
    path: `/api/v2/awards/${encodeURIComponent(generated)}/`,
    noMatches: (status) => status === 404,
  });
  provenance.push(a.provenance);
  if (a.body === undefined) return { award: undefined, provenance };
  const award = readDetail(a.body);
  if (award === undefined) {
    throw new UnavailableError(
      `${SOURCE} answered an award in an unexpected shape; ask the operator to check USASPENDING_URL`
    );
  }
  return { award, provenance };
}
