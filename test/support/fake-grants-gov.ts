// A Grants.gov fixture (data-sources.md "rfp-hunter"), no key: POST /v1/api/search2 with keyword,
// oppNum, oppStatuses ("forecasted|posted"), rows and startRecordNum paging, sortBy openDate|desc,
// answering {errorcode, msg, data:{hitCount, startRecord, oppHits[…]}} with dates as MM/DD/YYYY;
// errors are HTTP 200 with a non-zero errorcode. POST /v1/api/fetchOpportunity {opportunityId}
// answers the detail, or an empty data object for an unknown id. Opportunities are written for the
// tests, dated relative to the day the server starts. Keywords "upstream down" (503), "slow" (no
// answer) and "search error" (errorcode 1) fail.
import { sendJson, startFixtureServer, type FixtureServer } from './fixture-server.js';

const DAY = 86_400_000;

export interface FixtureGrant {
  id: number;
  number: string;
  title: string;
  agencyCode: string;
  agency: string;
  daysAgo: number;
  status: 'posted' | 'forecasted' | 'closed';
  ceiling: number;
}

export const GRANTS: readonly FixtureGrant[] = [
  ...[2, 20, 40].map((daysAgo, i): FixtureGrant => ({
    id: 350100 + i,
    number: `NSF-26-5${i}1`,
    title: `Cybersecurity Workforce Education Program ${i + 1}`,
    agencyCode: 'NSF',
    agency: 'U.S. National Science Foundation',
    daysAgo,
    status: i === 2 ? 'forecasted' : 'posted',
    ceiling: 500_000 * (i + 1),
  })),
  {
    id: 350200,
    number: 'USDA-FS-2026-WILDFIRE-01',
    title: 'Wildfire Risk Reduction Cooperative Agreements',
    agencyCode: 'USDA-FS',
    agency: 'Forest Service',
    daysAgo: 5,
    status: 'posted',
    ceiling: 2_000_000,
  },
  ...Array.from({ length: 8 }, (_, i): FixtureGrant => ({
    id: 350300 + i,
    number: `USDA-RUS-26-BB${i + 1}`,
    title: `Rural Broadband Deployment Grants, round ${i + 1}`,
    agencyCode: 'USDA-RUS',
    agency: 'Rural Utilities Service',
    daysAgo: 1 + 10 * i,
    status: 'posted',
    ceiling: 1_000_000,
  })),
  {
    id: 350400,
    number: 'NSF-25-999',
    title: 'Closed Cybersecurity Program',
    agencyCode: 'NSF',
    agency: 'U.S. National Science Foundation',
    daysAgo: 300,
    status: 'closed',
    ceiling: 100_000,
  },
];

function usDate(ms: number): string {
  const d = new Date(ms);
  const mm = String(d.getUTCMonth() + 1).padStart(2, '0');
  const dd = String(d.getUTCDate()).padStart(2, '0');
  return `${mm}/${dd}/${d.getUTCFullYear()}`;
}

function longDate(ms: number): string {
  const d = new Date(ms);
  const m = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ')[d.getUTCMonth()]!;
  return `${m} ${String(d.getUTCDate()).padStart(2, '0')}, ${d.getUTCFullYear()} 12:00:00 AM EST`;
}

type Body = Record<string, unknown>;

export function startFakeGrantsGov(): Promise<FixtureServer> {
  const today = Date.now();
  return startFixtureServer((req, res) => {
    if (req.path !== '/v1/api/search2' && req.path !== '/v1/api/fetchOpportunity') {
      sendJson(res, 404, { errorcode: 404, msg: 'Not Found' });
      return;
    }
    if (req.method !== 'POST') {
      sendJson(res, 405, { errorcode: 405, msg: 'Method Not Allowed' });
      return;
    }
    let b: Body;
    try {
      b = JSON.parse(req.body) as Body;
    } catch {
      sendJson(res, 200, { errorcode: 1, msg: 'Invalid JSON request', data: {} });
      return;
    }
    if (req.path === '/v1/api/fetchOpportunity') {
      const g = GRANTS.find((x) => x.id === Number(b.opportunityId));
      if (!g) {
        sendJson(res, 200, { errorcode: 0, msg: 'Webservice Succeeds', token: 't', data: {} });
        return;
      }
      const opened = today - g.daysAgo * DAY;
      sendJson(res, 200, {
        errorcode: 0,
        msg: 'Webservice Succeeds',
        token: 't',
        data: {
          id: g.id,
          revision: 0,
          opportunityNumber: g.number,
          opportunityTitle: g.title,
          owningAgencyCode: g.agencyCode,
          listed: 'L',
          opportunityCategory: { category: 'D', description: 'Discretionary' },
          synopsis: {
            agencyCode: g.agencyCode,
            agencyName: g.agency,
            agencyContactName: 'Grants Desk',
            agencyContactEmail: 'grants@example.gov',
            postingDate: longDate(opened),
            responseDate: longDate(today + 45 * DAY),
            awardCeiling: String(g.ceiling),
            awardFloor: '50000',
            estimatedFunding: String(g.ceiling * 10),
            expectedNumberOfAwards: '10',
            synopsisDesc: `<p>Supports ${g.title.toLowerCase()} &amp; related work.</p>`,
            applicantTypes: [
              {
                id: '06',
                description: 'Public and State controlled institutions of higher education',
              },
            ],
            fundingInstruments: [{ id: 'G', description: 'Grant' }],
            fundingActivityCategories: [{ id: 'ST', description: 'Science and Technology' }],
          },
          cfdas: [{ id: 1, cfdaNumber: '47.076', programTitle: 'Education and Human Resources' }],
        },
      });
      return;
    }
    const keyword = typeof b.keyword === 'string' ? b.keyword.toLowerCase() : undefined;
    if (keyword === 'upstream down') {
      res
        .writeHead(503, 'Service Unavailable', { 'content-type': 'text/html' })
        .end('<h1>503</h1>');
      return;
    }
    if (keyword === 'slow') return;
    if (keyword === 'search error') {
      sendJson(res, 200, { errorcode: 1, msg: 'Error while searching opportunities', data: {} });
      return;
    }
    const statuses = (
      typeof b.oppStatuses === 'string' ? b.oppStatuses : 'forecasted|posted'
    ).split('|');
    const unknown = statuses.find(
      (s) => !['forecasted', 'posted', 'closed', 'archived'].includes(s)
    );
    if (unknown !== undefined) {
      sendJson(res, 200, { errorcode: 1, msg: `Invalid oppStatuses value: ${unknown}`, data: {} });
      return;
    }
    const rows = Number(b.rows ?? 25);
    const start = Number(b.startRecordNum ?? 0);
    const hits = GRANTS.filter((g) => {
      if (!statuses.includes(g.status)) return false;
      const hay = `${g.title} ${g.number} ${g.agency}`.toLowerCase();
      if (keyword !== undefined && !keyword.split(/\s+/).every((w) => hay.includes(w)))
        return false;
      if (typeof b.oppNum === 'string' && b.oppNum.toUpperCase() !== g.number) return false;
      return true;
    });
    if (b.sortBy === 'openDate|desc') hits.sort((x, y) => x.daysAgo - y.daysAgo);
    sendJson(res, 200, {
      errorcode: 0,
      msg: 'Webservice Succeeds',
      token: 't',
      data: {
        searchParams: b,
        hitCount: hits.length,
        startRecord: start,
        oppHits: hits.slice(start, start + rows).map((g) => ({
          id: String(g.id),
          number: g.number,
          title: g.title,
          agencyCode: g.agencyCode,
          agency: g.agency,
          openDate: usDate(today - g.daysAgo * DAY),
          closeDate: usDate(today + 45 * DAY),
          oppStatus: g.status,
          docType: g.status === 'forecasted' ? 'forecast' : 'synopsis',
          alnist: ['47.076'],
        })),
        oppStatusOptions: [],
        dateRangeOptions: [],
        suggestion: '',
        eligibilities: [],
        fundingCategories: [],
        fundingInstruments: [],
        agencies: [],
        accessKey: '',
        errorMsgs: [],
      },
    });
  });
}
