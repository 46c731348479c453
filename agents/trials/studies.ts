// ClinicalTrials.gov API v2 (data-sources.md "trials"): GET /studies with query.* and filter.*
// parameters, followed through nextPageToken up to the hub's page bound, and GET /studies/{nctId}.
// There is no filter.phase: phases go through filter.advanced=AREA[Phase]….
import { z } from 'zod';
import { UnavailableError } from '../../runtime/errors/index.js';
import { readPages, readRows, type Provenance, type Upstream } from '../kit/public-data/index.js';
import type { Phase } from './parse.js';

export const SOURCE = 'ClinicalTrials.gov';
/** Studies asked per page: small pages keep each cached answer small. */
export const PAGE_SIZE = 20;

/** Only the modules the agent reads: a full study record is tens of kilobytes. */
const FIELDS = [
  'protocolSection.identificationModule',
  'protocolSection.statusModule',
  'protocolSection.sponsorCollaboratorsModule',
  'protocolSection.conditionsModule',
  'protocolSection.designModule',
  'protocolSection.armsInterventionsModule',
  'protocolSection.contactsLocationsModule',
  'hasResults',
].join(',');

export interface Location {
  facility: string;
  city: string;
  state: string;
  country: string;
  lat?: number;
  lon?: number;
}

export interface Trial {
  nctId: string;
  title: string;
  officialTitle?: string;
  status: string;
  phases: string[];
  studyType?: string;
  sponsor?: string;
  sponsorClass?: string;
  conditions: string[];
  interventions: Array<{ type: string; name: string }>;
  enrollment?: number;
  startDate?: string;
  primaryCompletionDate?: string;
  lastUpdate?: string;
  hasResults: boolean;
  locations: Location[];
  url: string;
}

export interface StudyQuery {
  term?: string;
  sponsor?: string;
  recruiting?: boolean;
  phase?: Phase;
  geo?: { lat: number; lon: number; miles: number };
}

export interface StudyPage {
  trials: Trial[];
  total?: number;
  provenance: Provenance[];
}

/** The upstream's parameters for a query (pageToken and pageSize added per page). */
export function studyParams(q: StudyQuery): Record<string, string> {
  const p: Record<string, string> = { format: 'json', countTotal: 'true', fields: FIELDS };
  if (q.term !== undefined) p['query.term'] = q.term;
  if (q.sponsor !== undefined) p['query.spons'] = q.sponsor;
  if (q.recruiting === true) p['filter.overallStatus'] = 'RECRUITING';
  if (q.phase !== undefined) p['filter.advanced'] = `AREA[Phase]${q.phase}`;
  if (q.geo !== undefined) {
    p['filter.geo'] = `distance(${q.geo.lat.toFixed(6)},${q.geo.lon.toFixed(6)},${q.geo.miles}mi)`;
  }
  return p;
}

export async function searchStudies(
  up: Upstream,
  q: StudyQuery,
  limit: number,
  maxPages: number
): Promise<StudyPage> {
  const base = studyParams(q);
  let total: number | undefined;
  let token: string | undefined;
  const { items, provenance } = await readPages(limit, maxPages, async (_page, have) => {
    const a = await up.get({
      path: '/studies',
      params: { ...base, pageSize: Math.min(PAGE_SIZE, limit - have), pageToken: token },
    });
    const body = StudiesAnswer.safeParse(a.body);
    if (!body.success) throw unexpected();
    // totalCount comes with the first page only.
    total ??= body.data.totalCount;
    token = body.data.nextPageToken;
    return {
      items: readRows(body.data.studies, readStudy),
      provenance: a.provenance,
      more: token !== undefined,
    };
  });
  const trials = items.slice(0, limit);
  return { trials, ...(total !== undefined ? { total } : {}), provenance };
}

/** One study; undefined when ClinicalTrials.gov has no such NCT number (its 404). */
export async function studyDetail(
  up: Upstream,
  nctId: string
): Promise<{ trial: Trial | undefined; provenance: Provenance[] }> {
  const a = await up.get({
    path: `/studies/${encodeURIComponent(nctId)}`,
    params: { format: 'json' },
    noMatches: (status) => status === 404,
  });
  if (a.body === undefined) return { trial: undefined, provenance: [a.provenance] };
  const t = readStudy(a.body);
  if (t === undefined) throw unexpected();
  return { trial: t, provenance: [a.provenance] };
}

function unexpected(): UnavailableError {
  return new UnavailableError(
    `${SOURCE} answered JSON in an unexpected shape; ask the operator to check TRIALS_URL`
  );
}

const Str = z.string().nullish();
const StudiesAnswer = z.looseObject({
  studies: z.array(z.unknown()),
  nextPageToken: z.string().optional(),
  totalCount: z.number().int().optional(),
});

const Study = z.looseObject({
  protocolSection: z.looseObject({
    identificationModule: z.looseObject({
      nctId: z.string(),
      briefTitle: Str,
      officialTitle: Str,
    }),
    statusModule: z
      .looseObject({
        overallStatus: Str,
        startDateStruct: z.looseObject({ date: Str }).nullish(),
        primaryCompletionDateStruct: z.looseObject({ date: Str }).nullish(),
        lastUpdatePostDateStruct: z.looseObject({ date: Str }).nullish(),
      })
      .nullish(),
    sponsorCollaboratorsModule: z
      .looseObject({ leadSponsor: z.looseObject({ name: Str, class: Str }).nullish() })
      .nullish(),
    conditionsModule: z.looseObject({ conditions: z.array(z.string()).nullish() }).nullish(),
    designModule: z
      .looseObject({
        studyType: Str,
        phases: z.array(z.string()).nullish(),
        enrollmentInfo: z.looseObject({ count: z.number().nullish() }).nullish(),
      })
      .nullish(),
    armsInterventionsModule: z
      .looseObject({
        interventions: z.array(z.looseObject({ type: Str, name: Str })).nullish(),
      })
      .nullish(),
    contactsLocationsModule: z
      .looseObject({
        locations: z
          .array(
            z.looseObject({
              facility: Str,
              city: Str,
              state: Str,
              country: Str,
              geoPoint: z.looseObject({ lat: z.number(), lon: z.number() }).nullish(),
            })
          )
          .nullish(),
      })
      .nullish(),
  }),
  hasResults: z.boolean().nullish(),
});

/** A study record in the API's shape as our Trial; undefined when it is not one. */
export function readStudy(raw: unknown): Trial | undefined {
  const p = Study.safeParse(raw);
  if (!p.success) return undefined;
  const s = p.data.protocolSection;
  const id = s.identificationModule;
  const st = s.statusModule;
  const lead = s.sponsorCollaboratorsModule?.leadSponsor;
  const design = s.designModule;
  const t: Trial = {
    nctId: id.nctId,
    title: id.briefTitle ?? id.officialTitle ?? id.nctId,
    status: st?.overallStatus ?? 'UNKNOWN',
    phases: design?.phases ?? [],
    conditions: s.conditionsModule?.conditions ?? [],
    interventions: (s.armsInterventionsModule?.interventions ?? [])
      .filter((i) => i.name)
      .map((i) => ({ type: i.type ?? 'OTHER', name: i.name! })),
    hasResults: p.data.hasResults === true,
    locations: (s.contactsLocationsModule?.locations ?? []).map((l) => ({
      facility: l.facility ?? '',
      city: l.city ?? '',
      state: l.state ?? '',
      country: l.country ?? '',
      ...(l.geoPoint ? { lat: l.geoPoint.lat, lon: l.geoPoint.lon } : {}),
    })),
    url: `https://clinicaltrials.gov/study/${id.nctId}`,
  };
  if (id.officialTitle && id.officialTitle !== t.title) t.officialTitle = id.officialTitle;
  if (design?.studyType) t.studyType = design.studyType;
  if (lead?.name) t.sponsor = lead.name;
  if (lead?.class) t.sponsorClass = lead.class;
  if (typeof design?.enrollmentInfo?.count === 'number') t.enrollment = design.enrollmentInfo.count;
  if (st?.startDateStruct?.date) t.startDate = st.startDateStruct.date;
  if (st?.primaryCompletionDateStruct?.date) {
    t.primaryCompletionDate = st.primaryCompletionDateStruct.date;
  }
  if (st?.lastUpdatePostDateStruct?.date) t.lastUpdate = st.lastUpdatePostDateStruct.date;
  return t;
}

/** Great-circle distance in miles. */
export function miles(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 3958.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The trial's site nearest to `at`, with its distance; undefined without geolocated sites. */
export function nearestSite(
  t: Trial,
  at: { lat: number; lon: number }
): { location: Location; miles: number } | undefined {
  let best: { location: Location; miles: number } | undefined;
  for (const l of t.locations) {
    if (l.lat === undefined || l.lon === undefined) continue;
    const d = miles(at, { lat: l.lat, lon: l.lon });
    if (best === undefined || d < best.miles) best = { location: l, miles: d };
  }
  return best;
}
