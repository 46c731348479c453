// A SAM.gov Get Opportunities v2 fixture (data-sources.md "rfp-hunter"): GET
// /opportunities/v2/search with its quirks: a missing or wrong api_key answers 404; postedFrom and
// postedTo are required, in MM/dd/yyyy, and at most a year apart (else 400); limit ≤ 1000 and
// offset paging with totalRecords; one solicitation may have several notices (amendments).
// Notices are written for the tests, dated relative to the day the server starts. Titles
// "upstream down" (503), "slow" (no answer) and "throttled" (429, Retry-After: 1, once) fail.
import { sendJson, startFixtureServer, type FixtureServer } from './fixture-server.js';

export const SAM_KEY = 'test-sam-key-0123456789';

const DAY = 86_400_000;

export interface FixtureNotice {
  noticeId: string;
  title: string;
  solicitationNumber: string;
  daysAgo: number;
  type: string;
  naics: string;
  state: string;
  agency: string;
  setAside: string | null;
}

function hex(n: number): string {
  return n.toString(16).padStart(32, '0');
}

/** 12 cybersecurity solicitations (the first with two amendments), one wildfire notice also on
 * Grants.gov, and a notice too old for any window. */
export const NOTICES: readonly FixtureNotice[] = [
  ...[0, 1, 2].map((a) => ({
    noticeId: hex(0xc000 + a),
    title: 'Cybersecurity Operations Support Services',
    solicitationNumber: 'W912DY26R0001',
    daysAgo: 2 - a,
    type: 'Solicitation',
    naics: '541512',
    state: 'VA',
    agency: 'DEPT OF DEFENSE.DEPT OF THE ARMY.AMC.ACC',
    setAside: 'Total Small Business Set-Aside (FAR 19.5)',
  })),
  ...Array.from({ length: 11 }, (_, k) => {
    const i = k + 1;
    return {
      noticeId: hex(0xd000 + i),
      title: `Cybersecurity Assessment Services ${i}`,
      solicitationNumber: `70RCSA26R${String(i).padStart(5, '0')}`,
      daysAgo: 3 * i,
      type: i % 3 === 0 ? 'Sources Sought' : 'Combined Synopsis/Solicitation',
      naics: i % 2 === 0 ? '541512' : '541519',
      state: i % 2 === 0 ? 'DC' : 'MD',
      agency: 'HOMELAND SECURITY, DEPARTMENT OF.CYBERSECURITY AND INFRASTRUCTURE SECURITY AGENCY',
      setAside: null,
    };
  }),
  {
    noticeId: hex(0xe001),
    title: 'Wildfire Risk Reduction Cooperative Agreements',
    solicitationNumber: 'USDA-FS-2026-WILDFIRE-01',
    daysAgo: 5,
    type: 'Special Notice',
    naics: '115310',
    state: 'CA',
    agency: 'AGRICULTURE, DEPARTMENT OF.FOREST SERVICE',
    setAside: null,
  },
  {
    noticeId: hex(0xf001),
    title: 'Legacy Cybersecurity Tooling',
    solicitationNumber: 'W912DY24R0999',
    daysAgo: 400,
    type: 'Solicitation',
    naics: '541512',
    state: 'VA',
    agency: 'DEPT OF DEFENSE.DEPT OF THE ARMY',
    setAside: null,
  },
];

function iso(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function parseSamDate(s: string | undefined): string | undefined {
  const m = s === undefined ? null : /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s);
  return m ? `${m[3]}-${m[1]}-${m[2]}` : undefined;
}

function apiNotice(n: FixtureNotice, today: number): Record<string, unknown> {
  const posted = iso(today - n.daysAgo * DAY);
  return {
    noticeId: n.noticeId,
    title: n.title,
    solicitationNumber: n.solicitationNumber,
    fullParentPathName: n.agency,
    fullParentPathCode: '097.2100.W6QK',
    postedDate: posted,
    type: n.type,
    baseType: n.type,
    archiveType: 'autocustom',
    archiveDate: iso(today + 60 * DAY),
    typeOfSetAsideDescription: n.setAside,
    typeOfSetAside: n.setAside ? 'SBA' : null,
    responseDeadLine: `${iso(today + 20 * DAY)}T14:00:00-05:00`,
    naicsCode: n.naics,
    classificationCode: 'D310',
    active: 'Yes',
    award: null,
    pointOfContact: [
      { fullName: 'Pat Contracting', email: 'pat@example.gov', phone: '555-0100', type: 'primary' },
    ],
    description: `https://api.sam.gov/prod/opportunities/v1/noticedesc?noticeid=${n.noticeId}`,
    organizationType: 'OFFICE',
    officeAddress: { zipcode: '21005', city: 'ABERDEEN PROVING GROUND', state: 'MD' },
    placeOfPerformance: { state: { code: n.state }, country: { code: 'USA' } },
    uiLink: `https://sam.gov/opp/${n.noticeId}/view`,
    links: [
      {
        rel: 'self',
        href: `https://api.sam.gov/prod/opportunities/v2/search?noticeid=${n.noticeId}&limit=1`,
      },
    ],
    resourceLinks: null,
  };
}

export function startFakeSam(): Promise<FixtureServer> {
  const today = Date.now();
  const throttled = new Set<string>();
  return startFixtureServer((req, res) => {
    if (req.path !== '/opportunities/v2/search') {
      sendJson(res, 404, { code: '404', message: 'Not Found' });
      return;
    }
    const p = req.params;
    if (p.api_key !== SAM_KEY) {
      sendJson(res, 404, {
        code: 'API_KEY_INVALID',
        message: 'An invalid api_key was supplied. Get one at https://sam.gov',
      });
      return;
    }
    const from = parseSamDate(p.postedFrom);
    const to = parseSamDate(p.postedTo);
    if (p.postedFrom === undefined || p.postedTo === undefined) {
      sendJson(res, 400, {
        errorCode: '400',
        errorMessage: 'PostedFrom and PostedTo are mandatory',
      });
      return;
    }
    if (from === undefined || to === undefined) {
      sendJson(res, 400, {
        errorCode: '400',
        errorMessage: 'Invalid Date Entered. Expected date format is MM/dd/yyyy',
      });
      return;
    }
    const yearLater = new Date(`${from}T00:00:00Z`);
    yearLater.setUTCFullYear(yearLater.getUTCFullYear() + 1);
    if (to > yearLater.toISOString().slice(0, 10)) {
      sendJson(res, 400, { errorCode: '400', errorMessage: 'Date range must be 1 year(s) apart' });
      return;
    }
    const limit = Number(p.limit ?? '1');
    const offset = Number(p.offset ?? '0');
    if (!Number.isInteger(limit) || limit < 0 || limit > 1000) {
      sendJson(res, 400, {
        errorCode: '400',
        errorMessage: 'Limit valid range is 0-1000. Please provide valid input.',
      });
      return;
    }
    const title = p.title?.toLowerCase();
    if (title === 'upstream down') {
      res
        .writeHead(503, 'Service Unavailable', { 'content-type': 'text/html' })
        .end('<h1>503</h1>');
      return;
    }
    if (title === 'slow') return;
    if (title === 'throttled' && !throttled.has(title)) {
      throttled.add(title);
      sendJson(res, 429, { message: 'API rate limit exceeded' }, { 'retry-after': '1' });
      return;
    }
    const hits = NOTICES.filter((n) => {
      const posted = iso(today - n.daysAgo * DAY);
      if (posted < from || posted > to) return false;
      if (
        title !== undefined &&
        !title.split(/\s+/).every((w) => n.title.toLowerCase().includes(w))
      )
        return false;
      if (p.solnum !== undefined && p.solnum.toUpperCase() !== n.solicitationNumber) return false;
      if (p.noticeid !== undefined && p.noticeid !== n.noticeId) return false;
      if (p.ncode !== undefined && p.ncode !== n.naics) return false;
      if (p.state !== undefined && p.state !== n.state) return false;
      return true;
    }).sort((a, b) => a.daysAgo - b.daysAgo);
    sendJson(res, 200, {
      totalRecords: hits.length,
      limit,
      offset,
      opportunitiesData: hits.slice(offset, offset + limit).map((n) => apiNotice(n, today)),
      links: [{ rel: 'self', href: 'https://api.sam.gov/prod/opportunities/v2/search' }],
    });
  });
}
