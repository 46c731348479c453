// EPA ECHO (data-sources.md "epa"): get_facilities answers a query id (QID) and totals, get_qid
// pages through the facilities of that QID. A QID lives about 30 minutes, so answers that carry or
// use one are cached for less, and a QID the upstream no longer knows is asked for afresh once,
// never reported as a failure. ECHO answers its own errors as {Results: {Error: {ErrorMessage}}}.
import { z } from 'zod';
import { UnavailableError } from '../../runtime/errors/index.js';
import { fail } from '../kit/index.js';
import type { Provenance, Upstream } from '../kit/public-data/index.js';

export const SOURCE = 'EPA ECHO';
/** Facilities per get_qid page (ECHO's responseset). */
export const PAGE_SIZE = 25;
/** Under ECHO's ~30-minute QID life, so a cached QID is still good when it is used. */
export const QID_TTL_MS = 25 * 60_000;

export interface FacilityQuery {
  name?: string | undefined;
  city?: string | undefined;
  state?: string | undefined;
  zip?: string | undefined;
}

export interface Facility {
  registryId: string;
  name: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  county?: string;
  lat?: number;
  lon?: number;
  complianceStatus: string;
  /** In significant non-compliance (FacSNCFlg). */
  snc: boolean;
  quartersInViolation: number;
  inspections: number;
  lastInspection?: string;
  formalActions: number;
  penaltyCount: number;
  totalPenalties: number;
  programs: { caa?: string; cwa?: string; rcra?: string };
  naics: string[];
  url: string;
}

export interface Totals {
  facilities: number;
  totalPenalties?: number;
  caaFacilities?: number;
  cwaFacilities?: number;
  rcraFacilities?: number;
}

export interface Found {
  totals: Totals;
  facilities: Facility[];
  /** get_qid pages read. */
  pages: number;
  provenance: Provenance[];
}

const ErrorBody = z.looseObject({
  Results: z.looseObject({ Error: z.looseObject({ ErrorMessage: z.string() }) }),
});

function echoError(body: unknown): string | undefined {
  const e = ErrorBody.safeParse(body);
  return e.success ? e.data.Results.Error.ErrorMessage : undefined;
}

const notAnError = (body: unknown) => echoError(body) === undefined;
const STALE_QID = /query\s*id|qid|expired|re-?run/i;

const num = z.union([z.string(), z.number()]).nullish();
const FacilitiesAnswer = z.looseObject({
  Results: z.looseObject({
    QueryID: z.union([z.string(), z.number()]),
    QueryRows: num,
    TotalPenalties: num,
    CAARows: num,
    CWARows: num,
    RCRRows: num,
  }),
});
const QidAnswer = z.looseObject({
  Results: z.looseObject({ Facilities: z.array(z.unknown()).nullish() }),
});

/** "$1,234.50", "1234", 12 → 1234.5; blank → 0. */
export function amount(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return 0;
  const n = Number(v.replace(/[$,\s]/g, ''));
  return Number.isFinite(n) ? n : 0;
}

function unexpected(): UnavailableError {
  return new UnavailableError(
    `${SOURCE} answered JSON in an unexpected shape; ask the operator to check EPA_URL`
  );
}

/**
 * Facilities matching `q`: the totals, and facilities from up to `maxPages` pages, stopping once
 * `wanted` of them pass `keep`.
 */
export async function findFacilities(
  up: Upstream,
  q: FacilityQuery,
  wanted: number,
  maxPages: number,
  keep: (f: Facility) => boolean = () => true
): Promise<Found> {
  const provenance: Provenance[] = [];
  const ask = async (fresh: boolean) => {
    const a = await up.get({
      path: '/echo_rest_services.get_facilities',
      params: {
        output: 'JSON',
        p_fn: q.name,
        p_ct: q.city,
        p_st: q.state,
        p_zip: q.zip,
        p_act: 'Y',
        responseset: PAGE_SIZE,
      },
      fresh,
      cacheTtlMs: QID_TTL_MS,
      cacheable: notAnError,
    });
    provenance.push(a.provenance);
    const err = echoError(a.body);
    if (err !== undefined) fail(`${SOURCE} refused the search: ${err}`);
    const r = FacilitiesAnswer.safeParse(a.body);
    if (!r.success) throw unexpected();
    return r.data.Results;
  };
  let head = await ask(false);
  const totals: Totals = { facilities: amount(head.QueryRows) };
  if (head.TotalPenalties != null) totals.totalPenalties = amount(head.TotalPenalties);
  if (head.CAARows != null) totals.caaFacilities = amount(head.CAARows);
  if (head.CWARows != null) totals.cwaFacilities = amount(head.CWARows);
  if (head.RCRRows != null) totals.rcraFacilities = amount(head.RCRRows);

  const facilities: Facility[] = [];
  const lastPage = Math.min(maxPages, Math.ceil(totals.facilities / PAGE_SIZE));
  let requeried = false;
  let pages = 0;
  for (let pageno = 1; pageno <= lastPage && facilities.length < wanted; pageno++) {
    const a = await up.get({
      path: '/echo_rest_services.get_qid',
      params: { output: 'JSON', qid: String(head.QueryID), pageno },
      cacheTtlMs: QID_TTL_MS,
      cacheable: notAnError,
    });
    provenance.push(a.provenance);
    const err = echoError(a.body);
    if (err !== undefined) {
      if (requeried || !STALE_QID.test(err)) {
        throw new UnavailableError(`${SOURCE} could not page its results: ${err}`);
      }
      // The QID expired (or the cache outlived it): a new query, and this page again.
      requeried = true;
      head = await ask(true);
      pageno -= 1;
      continue;
    }
    const r = QidAnswer.safeParse(a.body);
    if (!r.success) throw unexpected();
    pages += 1;
    for (const raw of r.data.Results.Facilities ?? []) {
      const f = readFacility(raw);
      if (f !== undefined && keep(f)) facilities.push(f);
    }
  }
  return { totals, facilities: facilities.slice(0, wanted), pages, provenance };
}

const s = z.union([z.string(), z.number()]).nullish();
const FacilityRecord = z.looseObject({
  RegistryID: z.union([z.string(), z.number()]),
  FacName: s,
  FacStreet: s,
  FacCity: s,
  FacState: s,
  FacZip: s,
  FacCounty: s,
  FacLat: s,
  FacLong: s,
  FacComplianceStatus: s,
  FacSNCFlg: s,
  FacQtrsWithNC: s,
  FacInspectionCount: s,
  FacDateLastInspection: s,
  FacFormalActionCount: s,
  FacPenaltyCount: s,
  FacTotalPenalties: s,
  CAAComplianceStatus: s,
  CWAComplianceStatus: s,
  RCRAComplianceStatus: s,
  FacNAICSCodes: s,
  DfrUrl: s,
});

const str = (v: string | number | null | undefined) => (v == null ? '' : String(v).trim());

/** A facility row of get_qid as our Facility; undefined when it is not one. */
export function readFacility(raw: unknown): Facility | undefined {
  const p = FacilityRecord.safeParse(raw);
  if (!p.success) return undefined;
  const d = p.data;
  const id = str(d.RegistryID);
  const lat = Number(str(d.FacLat));
  const lon = Number(str(d.FacLong));
  const f: Facility = {
    registryId: id,
    name: str(d.FacName) || id,
    street: str(d.FacStreet),
    city: str(d.FacCity),
    state: str(d.FacState),
    zip: str(d.FacZip),
    complianceStatus: str(d.FacComplianceStatus) || 'Unknown',
    snc: str(d.FacSNCFlg).toUpperCase() === 'Y',
    quartersInViolation: amount(d.FacQtrsWithNC),
    inspections: amount(d.FacInspectionCount),
    formalActions: amount(d.FacFormalActionCount),
    penaltyCount: amount(d.FacPenaltyCount),
    totalPenalties: amount(d.FacTotalPenalties),
    programs: {},
    naics: str(d.FacNAICSCodes)
      .split(/[\s,]+/)
      .filter((x) => x !== ''),
    url: str(d.DfrUrl) || `https://echo.epa.gov/detailed-facility-report?fid=${id}`,
  };
  if (str(d.FacCounty)) f.county = str(d.FacCounty);
  if (str(d.FacLat) !== '' && Number.isFinite(lat)) f.lat = lat;
  if (str(d.FacLong) !== '' && Number.isFinite(lon)) f.lon = lon;
  if (str(d.FacDateLastInspection)) f.lastInspection = str(d.FacDateLastInspection);
  if (str(d.CAAComplianceStatus)) f.programs.caa = str(d.CAAComplianceStatus);
  if (str(d.CWAComplianceStatus)) f.programs.cwa = str(d.CWAComplianceStatus);
  if (str(d.RCRAComplianceStatus)) f.programs.rcra = str(d.RCRAComplianceStatus);
  return f;
}

/** In violation now, or in significant non-compliance, or with quarters in violation. */
export function isViolator(f: Facility): boolean {
  const status = f.complianceStatus.toLowerCase();
  return (
    f.snc ||
    f.quartersInViolation > 0 ||
    (status.includes('violation') && !status.includes('no violation'))
  );
}

/** Worst first: significant non-compliance, then quarters in violation, then penalties. */
export function byConcern(a: Facility, b: Facility): number {
  return (
    Number(b.snc) - Number(a.snc) ||
    b.quartersInViolation - a.quartersInViolation ||
    b.totalPenalties - a.totalPenalties ||
    a.name.localeCompare(b.name)
  );
}
