// A ClinicalTrials.gov API v2 fixture (data-sources.md "trials"): GET /api/v2/studies with
// query.term/cond/spons, filter.overallStatus, filter.geo=distance(lat,lon,Nmi),
// filter.advanced=AREA[Phase]…, pageSize (≤ 1000), opaque pageToken → nextPageToken, totalCount on
// the first page with countTotal=true, a 400 for parameters the API does not have (filter.phase),
// and GET /api/v2/studies/{nctId} with a 404 for an unknown study. Studies are written for the
// tests in the API's nested shape. Terms "upstream down" (503), "slow" (no answer), "huge" (a
// 400 KB answer) and "throttled" (429 with Retry-After: 1 on its first request) exercise the failures.
import {
  milesBetween,
  sendJson,
  startFixtureServer,
  type FixtureServer,
} from './fixture-server.js';

export const CITIES = {
  boston: { city: 'Boston', state: 'Massachusetts', lat: 42.3601, lon: -71.0589 },
  cambridge: { city: 'Cambridge', state: 'Massachusetts', lat: 42.3736, lon: -71.1097 },
  chicago: { city: 'Chicago', state: 'Illinois', lat: 41.8781, lon: -87.6298 },
  houston: { city: 'Houston', state: 'Texas', lat: 29.7604, lon: -95.3698 },
} as const;

type City = keyof typeof CITIES;

export interface FixtureStudy {
  nctId: string;
  title: string;
  condition: string;
  sponsor: string;
  status: string;
  phase: string;
  intervention: string;
  enrollment: number;
  cities: City[];
}

const SPONSORS = ['Merck Sharp & Dohme LLC', 'Pfizer', 'National Cancer Institute (NCI)'];
const STATUSES = ['RECRUITING', 'COMPLETED', 'ACTIVE_NOT_RECRUITING'];
const PHASES = ['PHASE1', 'PHASE2', 'PHASE3'];
const SITES: City[][] = [['boston', 'chicago'], ['houston'], ['cambridge'], ['chicago']];

function make(condition: string, count: number, first: number, drug: string): FixtureStudy[] {
  return Array.from({ length: count }, (_, i) => ({
    nctId: `NCT0${String(5_000_000 + first + i)}`,
    title: `${drug} for ${condition} (study ${i + 1})`,
    condition,
    sponsor: SPONSORS[i % SPONSORS.length]!,
    status: STATUSES[i % STATUSES.length]!,
    phase: PHASES[i % PHASES.length]!,
    intervention: drug,
    enrollment: 100 + i * 10,
    cities: SITES[i % SITES.length]!,
  }));
}

/**
 * The company the research e2e finds in four datasets, as ClinicalTrials.gov spells it (openFDA,
 * EPA ECHO and the patent fixtures spell it their own ways).
 */
export const ACME_SPONSOR = 'Acme Pharma Inc.';

/** 30 melanoma studies (more than one page), 6 diabetes, 3 asthma, 2 migraine (Acme's). */
export const STUDIES: readonly FixtureStudy[] = [
  ...make('Melanoma', 30, 1, 'Pembrolizumab'),
  ...make('Type 2 Diabetes', 6, 101, 'Semaglutide'),
  ...make('Asthma', 3, 201, 'Tezepelumab'),
  ...make('Migraine', 2, 301, 'Acmeprant').map((s) => ({ ...s, sponsor: ACME_SPONSOR })),
];

/** The study as the API returns it (the modules the agent asks for, and some it does not read). */
export function apiStudy(s: FixtureStudy): Record<string, unknown> {
  return {
    protocolSection: {
      identificationModule: {
        nctId: s.nctId,
        orgStudyIdInfo: { id: `ORG-${s.nctId.slice(-4)}` },
        briefTitle: s.title,
        officialTitle: `A Randomized Study of ${s.title}`,
      },
      statusModule: {
        statusVerifiedDate: '2026-05',
        overallStatus: s.status,
        startDateStruct: { date: '2025-03-01', type: 'ACTUAL' },
        primaryCompletionDateStruct: { date: '2027-12-31', type: 'ESTIMATED' },
        lastUpdatePostDateStruct: { date: '2026-05-14', type: 'ACTUAL' },
      },
      sponsorCollaboratorsModule: {
        leadSponsor: {
          name: s.sponsor,
          class: s.sponsor === 'Pfizer' || s.sponsor === ACME_SPONSOR ? 'INDUSTRY' : 'NIH',
        },
      },
      conditionsModule: { conditions: [s.condition], keywords: [s.condition.toLowerCase()] },
      designModule: {
        studyType: 'INTERVENTIONAL',
        phases: [s.phase],
        enrollmentInfo: { count: s.enrollment, type: 'ESTIMATED' },
      },
      armsInterventionsModule: {
        interventions: [{ type: 'DRUG', name: s.intervention }],
      },
      contactsLocationsModule: {
        locations: s.cities.map((c) => ({
          facility: `${CITIES[c].city} Medical Center`,
          city: CITIES[c].city,
          state: CITIES[c].state,
          zip: '00000',
          country: 'United States',
          geoPoint: { lat: CITIES[c].lat, lon: CITIES[c].lon },
        })),
      },
    },
    hasResults: s.status === 'COMPLETED',
  };
}

const KNOWN = new Set([
  'format',
  'countTotal',
  'fields',
  'pageSize',
  'pageToken',
  'sort',
  'query.term',
  'query.cond',
  'query.intr',
  'query.spons',
  'query.locn',
  'query.titles',
  'filter.overallStatus',
  'filter.geo',
  'filter.ids',
  'filter.advanced',
]);

function matches(s: FixtureStudy, p: Record<string, string>): boolean | string {
  const has = (hay: string, needle: string | undefined) =>
    needle === undefined ||
    needle
      .toLowerCase()
      .split(/\s+/)
      .every((w) => hay.toLowerCase().includes(w));
  if (!has(`${s.title} ${s.condition} ${s.intervention}`, p['query.term'])) return false;
  if (!has(s.condition, p['query.cond'])) return false;
  if (!has(s.sponsor, p['query.spons'])) return false;
  const statuses = p['filter.overallStatus']?.split(/[,|]/);
  if (statuses && !statuses.includes(s.status)) return false;
  const adv = p['filter.advanced'];
  if (adv !== undefined) {
    const m = /^AREA\[Phase\](\w+)$/.exec(adv);
    if (!m) return 'filter.advanced';
    if (m[1] !== s.phase) return false;
  }
  const geo = p['filter.geo'];
  if (geo !== undefined) {
    const m = /^distance\((-?[\d.]+),(-?[\d.]+),(\d+)mi\)$/.exec(geo);
    if (!m) return 'filter.geo';
    const at: [number, number] = [Number(m[1]), Number(m[2])];
    const near = s.cities.some(
      (c) => milesBetween(at, [CITIES[c].lat, CITIES[c].lon]) <= Number(m[3])
    );
    if (!near) return false;
  }
  return true;
}

export function startFakeClinicalTrials(): Promise<FixtureServer> {
  const throttled = new Set<string>();
  return startFixtureServer((req, res) => {
    const p = req.params;
    if (req.path.startsWith('/api/v2/studies/')) {
      const id = req.path.slice('/api/v2/studies/'.length);
      const s = STUDIES.find((x) => x.nctId === id);
      if (!s) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end(`Study ${id} not found`);
        return;
      }
      sendJson(res, 200, apiStudy(s));
      return;
    }
    if (req.path !== '/api/v2/studies') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    const unknown = Object.keys(p).find((k) => !KNOWN.has(k));
    if (unknown !== undefined) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(`unknown parameter "${unknown}"`);
      return;
    }
    const term = p['query.term'];
    if (term === 'upstream down') {
      res
        .writeHead(503, 'Service Unavailable', { 'content-type': 'text/html' })
        .end('<h1>503</h1>');
      return;
    }
    if (term === 'slow') return;
    if (term === 'huge') {
      // A page of studies padded past the agent's byte limit in the e2e (256 KiB), sent chunked.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"studies":[');
      for (let i = 0; i < 40; i++)
        res.write(`${i ? ',' : ''}${JSON.stringify({ pad: 'x'.repeat(10_000) })}`);
      res.end(']}');
      return;
    }
    if (term === 'throttled' && !throttled.has(term)) {
      throttled.add(term);
      sendJson(res, 429, { message: 'Too Many Requests' }, { 'retry-after': '1' });
      return;
    }
    const size = Number(p.pageSize ?? '10');
    if (!Number.isInteger(size) || size < 1 || size > 1000) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('pageSize must be 1..1000');
      return;
    }
    let offset = 0;
    if (p.pageToken !== undefined) {
      const decoded = /^off:(\d+)$/.exec(Buffer.from(p.pageToken, 'base64url').toString());
      if (!decoded) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('invalid pageToken');
        return;
      }
      offset = Number(decoded[1]);
    }
    const all: FixtureStudy[] = [];
    for (const s of STUDIES) {
      const m = matches(s, p);
      if (typeof m === 'string') {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(`invalid ${m}`);
        return;
      }
      if (m) all.push(s);
    }
    const page = all.slice(offset, offset + size);
    const next = offset + size < all.length ? offset + size : undefined;
    sendJson(res, 200, {
      studies: page.map(apiStudy),
      ...(next !== undefined
        ? { nextPageToken: Buffer.from(`off:${next}`).toString('base64url') }
        : {}),
      ...(p.countTotal === 'true' && p.pageToken === undefined ? { totalCount: all.length } : {}),
    });
  });
}
