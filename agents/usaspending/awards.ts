// The USAspending.gov API v2 (data-sources.md "usaspending"): POST spending_by_award once per
// award-type group (mixing groups is a 422), pages followed while page_metadata.hasNext, the groups'
// answers merged by amount; spending_by_award_count for the totals; recipient and awarding-agency
// autocomplete; GET /awards/{generated_internal_id}/ for one award (its 404 means "no such award").
import { z } from 'zod';
import { UnavailableError } from '../../runtime/errors/index.js';
import { readPages, readRows, type Provenance, type Upstream } from '../kit/public-data/index.js';
import { GROUP, fieldsOf, type Group } from './groups.js';

export const SOURCE = 'USAspending.gov';
/** Awards asked per page: small pages keep each cached answer small. */
export const PAGE_SIZE = 20;
/** The earliest date the search endpoints accept (FY2008 began on 2007-10-01). */
export const EARLIEST = '2007-10-01';

const BY_AWARD = '/api/v2/search/spending_by_award/';
const COUNT = '/api/v2/search/spending_by_award_count/';
const RECIPIENTS = '/api/v2/autocomplete/recipient/';
const AGENCIES = '/api/v2/autocomplete/awarding_agency/';

export interface AgencyRef {
  name: string;
  tier: 'toptier' | 'subtier';
  /** A subtier agency's department. */
  toptierName?: string;
  abbreviation?: string;
}

export interface AwardFilters {
  query?: string;
  recipient?: string;
  agency?: AgencyRef;
  from?: string;
  to?: string;
  awardIds?: string[];
}

export interface Award {
  awardId: string;
  generatedId: string;
  group: Group;
  type: string | null;
  recipient: string | null;
  recipientUei: string | null;
  amount: number | null;
  agency: string | null;
  subAgency: string | null;
  startDate: string | null;
  endDate: string | null;
  description: string | null;
  url: string;
}

export interface AwardSearch {
  awards: Award[];
  /** Per group asked: awards read, and whether the upstream had more. */
  groups: Array<{ group: Group; read: number; more: boolean }>;
  provenance: Provenance[];
}

function unexpected(what: string): UnavailableError {
  return new UnavailableError(
    `${SOURCE} answered ${what} in an unexpected shape; ask the operator to check USASPENDING_URL`
  );
}

/** The `filters` object, with the codes of `group` (none for the count endpoint, which counts by group). */
export function filtersBody(f: AwardFilters, group?: Group): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // An empty keywords array is a 400 upstream: leave the key out.
  if (f.query !== undefined && f.query !== '') out.keywords = [f.query];
  if (f.recipient !== undefined) out.recipient_search_text = [f.recipient];
  if (f.agency !== undefined) {
    out.agencies = [
      {
        type: 'awarding',
        tier: f.agency.tier,
        name: f.agency.name,
        ...(f.agency.toptierName !== undefined ? { toptier_name: f.agency.toptierName } : {}),
      },
    ];
  }
  if (f.from !== undefined || f.to !== undefined) {
    out.time_period = [
      { start_date: f.from ?? EARLIEST, end_date: f.to ?? new Date().toISOString().slice(0, 10) },
    ];
  }
  if (f.awardIds !== undefined) out.award_ids = f.awardIds;
  if (group !== undefined) out.award_type_codes = GROUP[group].codes;
  return out;
}

const SearchAnswer = z.looseObject({
  results: z.array(z.record(z.string(), z.unknown())),
  page_metadata: z.looseObject({ page: z.number(), hasNext: z.boolean() }),
});

function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v : null;
}

function num(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

export function awardUrl(generatedId: string): string {
  return `https://www.usaspending.gov/award/${encodeURIComponent(generatedId)}`;
}

/** One result row (columns named with spaces) as an Award; undefined without an id. */
export function readRow(g: Group, r: Record<string, unknown>): Award | undefined {
  const d = GROUP[g];
  const generatedId = str(r.generated_internal_id);
  const awardId = str(r['Award ID']);
  if (generatedId === null || awardId === null) return undefined;
  return {
    awardId,
    generatedId,
    group: g,
    type: str(r[d.type]),
    recipient: str(r['Recipient Name']),
    recipientUei: str(r['Recipient UEI']),
    amount: num(r[d.amount]),
    agency: str(r['Awarding Agency']),
    subAgency: str(r['Awarding Sub Agency']),
    startDate: str(r[d.start]),
    endDate: d.end === undefined ? null : str(r[d.end]),
    description: str(r.Description),
    url: awardUrl(generatedId),
  };
}

/** Biggest first; awards without an amount last; ties by id so merged pages stay stable. */
export function byAmount(a: Award, b: Award): number {
  return (
    (b.amount ?? -Infinity) - (a.amount ?? -Infinity) || a.generatedId.localeCompare(b.generatedId)
  );
}

async function searchGroup(
  up: Upstream,
  f: AwardFilters,
  g: Group,
  limit: number,
  maxPages: number
): Promise<{ awards: Award[]; more: boolean; provenance: Provenance[] }> {
  let more = false;
  const { items, provenance } = await readPages(limit, maxPages, async (n) => {
    const a = await up.get({
      path: BY_AWARD,
      body: {
        filters: filtersBody(f, g),
        fields: fieldsOf(g),
        // USAspending numbers its pages from 1.
        page: n + 1,
        limit: PAGE_SIZE,
        sort: GROUP[g].amount,
        order: 'desc',
        subawards: false,
      },
    });
    const body = SearchAnswer.safeParse(a.body);
    if (!body.success) throw unexpected('spending_by_award');
    more = body.data.page_metadata.hasNext;
    return {
      items: readRows(body.data.results, (r) => readRow(g, r)),
      provenance: a.provenance,
      more,
    };
  });
  return { awards: items, more: more || items.length > limit, provenance };
}

/**
 * The top `limit` awards by amount over `groups`: each group is its own request (its top `limit`
 * is all the merge can need), and the answers are merged biggest first.
 */
export async function searchAwards(
  up: Upstream,
  f: AwardFilters,
  groups: readonly Group[],
  limit: number,
  maxPages: number
): Promise<AwardSearch> {
  const per = await Promise.all(groups.map((g) => searchGroup(up, f, g, limit, maxPages)));
  const seen = new Set<string>();
  const awards = per
    .flatMap((p) => p.awards)
    .sort(byAmount)
    .filter((a) => !seen.has(a.generatedId) && seen.add(a.generatedId));
  return {
    awards: awards.slice(0, limit),
    groups: groups.map((group, i) => ({
      group,
      read: per[i]!.awards.length,
      more: per[i]!.more,
    })),
    provenance: per.flatMap((p) => p.provenance),
  };
}

const CountAnswer = z.looseObject({ results: z.record(z.string(), z.number()) });

/** How many awards match, per group (one request: the count endpoint counts every group). */
export async function countAwards(
  up: Upstream,
  f: AwardFilters
): Promise<{ counts: Partial<Record<Group, number>>; provenance: Provenance }> {
  const a = await up.get({ path: COUNT, body: { filters: filtersBody(f), subawards: false } });
  const body = CountAnswer.safeParse(a.body);
  if (!body.success) throw unexpected('spending_by_award_count');
  const counts: Partial<Record<Group, number>> = {};
  for (const g of Object.keys(GROUP) as Group[]) {
    const n = body.data.results[g];
    if (typeof n === 'number') counts[g] = n;
  }
  return { counts, provenance: a.provenance };
}

export interface Recipient {
  name: string;
  uei: string | null;
  levels: string[];
}

const RecipientAnswer = z.looseObject({
  results: z.array(
    z.looseObject({
      recipient_name: z.string().nullish(),
      uei: z.string().nullish(),
      recipient_level: z.union([z.string(), z.array(z.string())]).nullish(),
    })
  ),
});

export async function findRecipients(
  up: Upstream,
  text: string
): Promise<{ recipients: Recipient[]; provenance: Provenance }> {
  const a = await up.get({ path: RECIPIENTS, body: { search_text: text, limit: 10 } });
  const body = RecipientAnswer.safeParse(a.body);
  if (!body.success) throw unexpected('the recipient autocomplete');
  const recipients: Recipient[] = [];
  for (const r of body.data.results) {
    if (!r.recipient_name) continue;
    const levels = r.recipient_level ?? [];
    recipients.push({
      name: r.recipient_name,
      uei: r.uei ?? null,
      levels: Array.isArray(levels) ? levels : [levels],
    });
  }
  return { recipients, provenance: a.provenance };
}

const Named = z.looseObject({ name: z.string(), abbreviation: z.string().nullish() });
const AgencyAnswer = z.looseObject({
  results: z.array(
    z.looseObject({
      toptier_flag: z.boolean(),
      toptier_agency: Named,
      subtier_agency: Named.nullish(),
    })
  ),
});

function norm(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/**
 * The awarding agency a text names: a department (its name or abbreviation) before one of its
 * sub-agencies, an exact name before a partial one; undefined when nothing matches.
 */
export async function findAgency(
  up: Upstream,
  text: string
): Promise<{ agency: AgencyRef | undefined; provenance: Provenance }> {
  const a = await up.get({ path: AGENCIES, body: { search_text: text, limit: 10 } });
  const body = AgencyAnswer.safeParse(a.body);
  if (!body.success) throw unexpected('the awarding-agency autocomplete');
  const want = norm(text.replace(/^the\s+/i, ''));
  const named = (n: { name: string; abbreviation?: string | null | undefined }) =>
    norm(n.name) === want || (n.abbreviation ? norm(n.abbreviation) === want : false);
  const rs = body.data.results;
  const top =
    rs.find((r) => r.toptier_flag && named(r.toptier_agency)) ??
    rs.find((r) => !r.toptier_flag && r.subtier_agency && named(r.subtier_agency)) ??
    rs.find((r) => r.toptier_flag) ??
    rs[0];
  if (top === undefined) return { agency: undefined, provenance: a.provenance };
  const agency: AgencyRef =
    top.toptier_flag || !top.subtier_agency
      ? {
          name: top.toptier_agency.name,
          tier: 'toptier',
          ...(top.toptier_agency.abbreviation
            ? { abbreviation: top.toptier_agency.abbreviation }
            : {}),
        }
      : {
          name: top.subtier_agency.name,
          tier: 'subtier',
          toptierName: top.toptier_agency.name,
          ...(top.subtier_agency.abbreviation
            ? { abbreviation: top.subtier_agency.abbreviation }
            : {}),
        };
  return { agency, provenance: a.provenance };
}
