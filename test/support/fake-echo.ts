// An EPA ECHO fixture (data-sources.md "epa"): get_facilities filters by p_fn (name contains),
// p_st, p_ct, p_zip and p_act, and answers totals with a QueryID; get_qid pages that query's
// facilities (responseset rows per page, pageno from 1). Query ids can be expired on demand
// (expireQueries), as ECHO expires them after about 30 minutes; get_qid then answers ECHO's error
// object. Values are strings, as ECHO sends them. Name "outage" answers 502.
import { sendJson, startFixtureServer, type FixtureServer } from './fixture-server.js';

type Row = Record<string, string>;

interface Seed {
  city: string;
  state: string;
  zip: string;
  lat: number;
  lon: number;
  names: string[];
}

const SEEDS: Seed[] = [
  {
    city: 'HOUSTON',
    state: 'TX',
    zip: '77001',
    lat: 29.76,
    lon: -95.37,
    names: ['ACME CHEMICAL PLANT', 'GULF COAST REFINERY'],
  },
  {
    city: 'DALLAS',
    state: 'TX',
    zip: '75201',
    lat: 32.78,
    lon: -96.8,
    names: ['LONE STAR POWER STATION'],
  },
  {
    city: 'AKRON',
    state: 'OH',
    zip: '44308',
    lat: 41.08,
    lon: -81.52,
    names: ['BUCKEYE STEEL WORKS'],
  },
  {
    city: 'BOSTON',
    state: 'MA',
    zip: '02110',
    lat: 42.36,
    lon: -71.06,
    names: ['HARBOR CLEAN LABS'],
  },
  {
    // The research e2e's company, as ECHO spells a facility of it (ECHO names no operator).
    city: 'NEWARK',
    state: 'NJ',
    zip: '07102',
    lat: 40.73,
    lon: -74.17,
    names: ['ACME PHARMACEUTICALS NEWARK PLANT'],
  },
];

/** Houston 40, Dallas 20, Akron 8, Boston 3, Newark 2 facilities. */
const COUNTS = [40, 20, 8, 3, 2];

export function facilities(): Row[] {
  const out: Row[] = [];
  let n = 0;
  SEEDS.forEach((s, si) => {
    for (let i = 0; i < COUNTS[si]!; i++) {
      n += 1;
      const clean = s.state === 'MA';
      const snc = !clean && n % 5 === 0;
      const qtrs = clean ? 0 : snc ? 12 - (n % 4) : n % 3 === 0 ? (n % 7) + 1 : 0;
      const status = snc
        ? 'Significant Violation'
        : qtrs > 0
          ? 'Violation Identified'
          : 'No Violation Identified';
      const penalties = snc ? 100_000 + n * 1_000 : qtrs > 0 ? n * 500 : 0;
      const id = String(110_000_000_000 + n);
      out.push({
        RegistryID: id,
        FacName: `${s.names[i % s.names.length]} ${i + 1}`,
        FacStreet: `${100 + i} INDUSTRIAL WAY`,
        FacCity: s.city,
        FacState: s.state,
        FacZip: s.zip,
        FacCounty: 'SOME COUNTY',
        FacLat: (s.lat + i * 0.001).toFixed(4),
        FacLong: (s.lon - i * 0.001).toFixed(4),
        FacActiveFlag: 'Y',
        FacComplianceStatus: status,
        FacSNCFlg: snc ? 'Y' : 'N',
        FacQtrsWithNC: String(qtrs),
        FacInspectionCount: String(n % 6),
        FacDateLastInspection: n % 6 ? '03/15/2026' : '',
        FacFormalActionCount: String(snc ? 2 : 0),
        FacPenaltyCount: String(penalties > 0 ? (snc ? 2 : 1) : 0),
        FacTotalPenalties: penalties > 0 ? `$${penalties.toLocaleString('en-US')}` : '',
        FacLastPenaltyAmt: penalties > 0 ? `$${penalties}` : '',
        CAAComplianceStatus: snc ? 'High Priority Violation' : 'No Violation Identified',
        CWAComplianceStatus: qtrs > 0 && !snc ? 'Violation Identified' : 'No Violation Identified',
        RCRAComplianceStatus: '',
        FacNAICSCodes: '325110',
        FacSICCodes: '2869',
        DfrUrl: `https://echo.epa.gov/detailed-facility-report?fid=${id}`,
      });
    }
  });
  return out;
}

export interface FakeEcho extends FixtureServer {
  /** Forget every query id, as ECHO does about 30 minutes after get_facilities. */
  expireQueries(): void;
}

export async function startFakeEcho(): Promise<FakeEcho> {
  const all = facilities();
  const queries = new Map<string, { rows: Row[]; pageSize: number }>();
  let nextQid = 400;
  const error = (res: Parameters<typeof sendJson>[0], message: string) =>
    sendJson(res, 200, { Results: { Error: { ErrorMessage: message } } });
  const server = await startFixtureServer((req, res) => {
    const p = req.params;
    if (p.output !== 'JSON') {
      res.writeHead(200, { 'content-type': 'application/xml' }).end('<Results/>');
      return;
    }
    if (req.path === '/echo/echo_rest_services.get_facilities') {
      if (p.p_fn === 'outage') {
        res.writeHead(502, 'Bad Gateway', { 'content-type': 'text/html' }).end('<h1>502</h1>');
        return;
      }
      if (!p.p_fn && !p.p_st && !p.p_ct && !p.p_zip) {
        return error(res, 'Please provide at least one search criteria.');
      }
      const rows = all.filter(
        (f) =>
          (!p.p_fn || f.FacName!.toLowerCase().includes(p.p_fn.toLowerCase())) &&
          (!p.p_st || f.FacState === p.p_st.toUpperCase()) &&
          (!p.p_ct || f.FacCity === p.p_ct.toUpperCase()) &&
          (!p.p_zip || f.FacZip!.startsWith(p.p_zip)) &&
          (p.p_act !== 'Y' || f.FacActiveFlag === 'Y')
      );
      const qid = String(nextQid++);
      queries.set(qid, { rows, pageSize: Number(p.responseset ?? '5') });
      const money = (n: number) => `$${n.toLocaleString('en-US')}`;
      const penalties = rows.reduce(
        (n, f) => n + Number((f.FacTotalPenalties || '0').replace(/[$,]/g, '')),
        0
      );
      return sendJson(res, 200, {
        Results: {
          Message: 'Success',
          QueryRows: String(rows.length),
          QueryID: qid,
          SVRows: String(rows.filter((f) => f.FacSNCFlg === 'Y').length),
          CVRows: String(rows.filter((f) => f.FacQtrsWithNC !== '0').length),
          V3Rows: '0',
          FEARows: '0',
          InfFEARows: '0',
          INSPRows: String(rows.filter((f) => f.FacInspectionCount !== '0').length),
          TotalPenalties: money(penalties),
          CAARows: String(rows.filter((f) => f.CAAComplianceStatus).length),
          CWARows: String(rows.filter((f) => f.CWAComplianceStatus).length),
          RCRRows: String(rows.filter((f) => f.RCRAComplianceStatus).length),
          TRIRows: '0',
          GHGRows: '0',
          IndianCountryRows: '0',
        },
      });
    }
    if (req.path === '/echo/echo_rest_services.get_qid') {
      const q = queries.get(p.qid ?? '');
      if (!q) {
        return error(res, `Query ID ${p.qid} is not valid or has expired. Please rerun the query.`);
      }
      const pageno = Number(p.pageno ?? '1');
      const rows = q.rows.slice((pageno - 1) * q.pageSize, pageno * q.pageSize);
      return sendJson(res, 200, {
        Results: {
          Message: 'Success',
          QueryRows: String(q.rows.length),
          QueryID: p.qid,
          PageNo: String(pageno),
          Facilities: rows,
        },
      });
    }
    res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>');
  });
  return { ...server, expireQueries: () => queries.clear() };
}
