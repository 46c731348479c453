// Trade fixtures (data-sources.md "trade"). Census: GET /data/timeseries/intltrade/{exports,
// imports}/hs?get=…&time=YYYY-MM&E_COMMODITY|I_COMMODITY&COMM_LVL&CTY_CODE, answering a 2-D array
// whose first row holds the headers, every value a string, predicate columns appended, the total
// ("-") and group rows (0003, 5XXX) among the countries, 204 with no body when there is no data, and
// a plain-text 400 for an unknown variable. UN Comtrade: /data/v1/get/C/A/HS with
// Ocp-Apim-Subscription-Key (401 without), the keyless /public/v1/preview/C/A/HS capped at 500
// rows, and the reference files /files/v1/app/reference/{HS,Reporters,partnerAreas}.json. Figures
// are written for the tests; Census has 2024-01 … 2025-06. Commodity 9999 at Census (503) and
// period 2001 at Comtrade (500) exercise the failures.
import type { ServerResponse } from 'node:http';
import { sendJson, startFixtureServer, type FixtureServer } from './fixture-server.js';

export const COMTRADE_KEY = 'comtrade-test-key';

const CENSUS_COUNTRIES: Array<[code: string, name: string, weight: number]> = [
  ['1220', 'CANADA', 9],
  ['2010', 'MEXICO', 8],
  ['5700', 'CHINA', 7],
  ['5880', 'JAPAN', 4],
  ['5800', 'KOREA, SOUTH', 3],
  ['4280', 'GERMANY', 3.5],
  ['5520', 'VIETNAM', 2],
];
const GROUPS: Array<[code: string, name: string, members: string[]]> = [
  ['0003', 'EUROPEAN UNION', ['4280']],
  ['5XXX', 'ASIA', ['5700', '5880', '5800', '5520']],
];
const HS4: Array<[code: string, name: string, chapter: string, base: number]> = [
  ['1201', 'SOYBEANS, WHETHER OR NOT BROKEN', '12', 2_000_000],
  ['8471', 'AUTOMATIC DATA PROCESSING MACHINES AND UNITS THEREOF', '84', 5_000_000],
  ['8703', 'MOTOR CARS AND VEHICLES FOR TRANSPORTING PERSONS', '87', 7_000_000],
  ['2709', 'CRUDE OIL FROM PETROLEUM AND BITUMINOUS MINERALS', '27', 6_000_000],
];
const CHAPTERS: Record<string, string> = {
  '12': 'OIL SEEDS AND OLEAGINOUS FRUITS; MISCELLANEOUS GRAINS, SEEDS AND FRUIT',
  '84': 'NUCLEAR REACTORS, BOILERS, MACHINERY AND MECHANICAL APPLIANCES; PARTS THEREOF',
  '87': 'VEHICLES, OTHER THAN RAILWAY OR TRAMWAY ROLLING STOCK, AND PARTS',
  '27': 'MINERAL FUELS, MINERAL OILS AND PRODUCTS OF THEIR DISTILLATION',
};
const FLOW_VARS = {
  exports: { mo: 'ALL_VAL_MO', yr: 'ALL_VAL_YR', code: 'E_COMMODITY', desc: 'E_COMMODITY_LDESC' },
  imports: { mo: 'GEN_VAL_MO', yr: 'GEN_VAL_YR', code: 'I_COMMODITY', desc: 'I_COMMODITY_LDESC' },
} as const;

/** One month's value of one HS4 heading with one country: whole dollars. */
function monthly(
  flow: 'exports' | 'imports',
  cty: string,
  hs4: string,
  year: number,
  month: number
) {
  const c = CENSUS_COUNTRIES.find((x) => x[0] === cty)!;
  const h = HS4.find((x) => x[0] === hs4)!;
  // Soybeans go out, crude oil comes in: each flow leans one way.
  const lean =
    (flow === 'exports' && hs4 === '1201') || (flow === 'imports' && hs4 === '2709') ? 3 : 1;
  return Math.round(h[3] * c[2] * lean * (1 + (year - 2024) * 0.1 + month * 0.01));
}

function inData(year: number, month: number): boolean {
  return (
    (year === 2024 && month >= 1 && month <= 12) || (year === 2025 && month >= 1 && month <= 6)
  );
}

function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/plain;charset=utf-8' }).end(body);
}

export function startFakeCensus(): Promise<FixtureServer> {
  return startFixtureServer((req, res) => {
    const m = /^\/data\/timeseries\/intltrade\/(exports|imports)\/hs$/.exec(req.path);
    if (!m) {
      text(res, 404, 'Not Found');
      return;
    }
    const flow = m[1] as 'exports' | 'imports';
    const v = FLOW_VARS[flow];
    const p = req.params;
    if (p.E_COMMODITY === '9999' || p.I_COMMODITY === '9999') {
      res
        .writeHead(503, 'Service Unavailable', { 'content-type': 'text/html' })
        .end('<h1>503</h1>');
      return;
    }
    const get = (p.get ?? '').split(',').filter((x) => x !== '');
    const known = new Set(['CTY_CODE', 'CTY_NAME', v.mo, v.yr, v.code, v.desc, 'COMM_LVL']);
    const bad = get.find((g) => !known.has(g));
    if (get.length === 0 || bad !== undefined) {
      text(res, 400, `error: unknown variable '${bad ?? ''}'`);
      return;
    }
    const t = /^(\d{4})-(\d{2})$/.exec(p.time ?? '');
    if (!t) {
      text(res, 400, "error: invalid 'time' value");
      return;
    }
    const year = Number(t[1]);
    const month = Number(t[2]);
    const level = p.COMM_LVL;
    const commodity = p[v.code];
    const byCommodity = level !== undefined || commodity !== undefined;
    const value = (cty: string, hs4s: string[], yearToDate: boolean) => {
      let sum = 0;
      for (let mm = yearToDate ? 1 : month; mm <= month; mm++)
        for (const h of hs4s) sum += monthly(flow, cty, h, year, mm);
      return sum;
    };
    interface Line {
      code: string;
      name: string;
      members: string[];
      hs: string | undefined;
      hsName: string | undefined;
      hs4s: string[];
    }
    const lines: Line[] = [];
    const places: Array<[string, string, string[]]> = [
      ['-', 'TOTAL FOR ALL COUNTRIES', CENSUS_COUNTRIES.map((c) => c[0])],
      ...GROUPS,
      ...CENSUS_COUNTRIES.map((c): [string, string, string[]] => [c[0], c[1], [c[0]]]),
    ];
    const goods: Array<[string | undefined, string | undefined, string[]]> = !byCommodity
      ? [[undefined, undefined, HS4.map((h) => h[0])]]
      : level === 'HS2' && commodity === undefined
        ? Object.entries(CHAPTERS).map(([c, n]) => [
            c,
            n,
            HS4.filter((h) => h[2] === c).map((h) => h[0]),
          ])
        : level === 'HS4'
          ? HS4.filter((h) => commodity === undefined || h[0] === commodity).map((h) => [
              h[0],
              h[1],
              [h[0]],
            ])
          : level === 'HS2'
            ? Object.entries(CHAPTERS)
                .filter(([c]) => c === commodity)
                .map(([c, n]) => [c, n, HS4.filter((h) => h[2] === c).map((h) => h[0])])
            : [];
    for (const [code, name, members] of places) {
      if (p.CTY_CODE !== undefined && p.CTY_CODE !== code) continue;
      for (const [hs, hsName, hs4s] of goods) lines.push({ code, name, members, hs, hsName, hs4s });
    }
    if (!inData(year, month) || lines.length === 0) {
      res.writeHead(204).end();
      return;
    }
    const predicates = [
      'time',
      ...(level ? ['COMM_LVL'] : []),
      ...(commodity ? [v.code] : []),
      ...(p.CTY_CODE ? ['CTY_CODE'] : []),
    ].filter((x) => !get.includes(x));
    const header = [...get, ...predicates];
    const rows = lines.map((l) => {
      const cell = (h: string): string => {
        switch (h) {
          case 'CTY_CODE':
            return l.code;
          case 'CTY_NAME':
            return l.name;
          case v.mo:
            return String(l.members.reduce((a, c) => a + value(c, l.hs4s, false), 0));
          case v.yr:
            return String(l.members.reduce((a, c) => a + value(c, l.hs4s, true), 0));
          case v.code:
            return l.hs ?? '-';
          case v.desc:
            return l.hsName ?? 'TOTAL FOR ALL COMMODITIES';
          case 'COMM_LVL':
            return level ?? '';
          case 'time':
            return p.time!;
          default:
            return '';
        }
      };
      return header.map(cell);
    });
    sendJson(res, 200, [header, ...rows]);
  });
}

const HS_REF = [
  { id: 'TOTAL', text: 'TOTAL - All Commodities', parent: '#' },
  {
    id: '12',
    text: '12 - Oil seeds and oleaginous fruits; miscellaneous grains, seeds and fruit',
    parent: 'TOTAL',
  },
  { id: '1201', text: '1201 - Soya beans; whether or not broken', parent: '12' },
  {
    id: '120190',
    text: '120190 - Soya beans; other than seed, whether or not broken',
    parent: '1201',
  },
  {
    id: '84',
    text: '84 - Nuclear reactors, boilers, machinery and mechanical appliances; parts thereof',
    parent: 'TOTAL',
  },
  {
    id: '8471',
    text: '8471 - Automatic data processing machines and units thereof; magnetic or optical readers',
    parent: '84',
  },
  {
    id: '87',
    text: '87 - Vehicles; other than railway or tramway rolling stock, and parts and accessories thereof',
    parent: 'TOTAL',
  },
  {
    id: '8703',
    text: '8703 - Motor cars and other motor vehicles; principally designed for the transport of persons',
    parent: '87',
  },
  {
    id: '27',
    text: '27 - Mineral fuels, mineral oils and products of their distillation',
    parent: 'TOTAL',
  },
  {
    id: '2709',
    text: '2709 - Petroleum oils and oils obtained from bituminous minerals; crude',
    parent: '27',
  },
];

const AREAS: Array<[code: number, name: string, iso2: string, iso3: string, group: boolean]> = [
  [0, 'World', 'W00', 'W00', true],
  [842, 'USA', 'US', 'USA', false],
  [276, 'Germany', 'DE', 'DEU', false],
  [392, 'Japan', 'JP', 'JPN', false],
  [156, 'China', 'CN', 'CHN', false],
  [251, 'France', 'FR', 'FRA', false],
  [124, 'Canada', 'CA', 'CAN', false],
  [484, 'Mexico', 'MX', 'MEX', false],
  [410, 'Rep. of Korea', 'KR', 'KOR', false],
  [97, 'EU', 'EU', 'EUR', true],
];

export function startFakeComtrade(): Promise<FixtureServer> {
  return startFixtureServer((req, res) => {
    const ref = /^\/files\/v1\/app\/reference\/(HS|Reporters|partnerAreas)\.json$/.exec(req.path);
    if (ref) {
      if (ref[1] === 'HS') {
        sendJson(res, 200, { more: false, results: HS_REF });
        return;
      }
      const reporters = ref[1] === 'Reporters';
      const list = AREAS.filter((a) => !reporters || a[0] !== 0);
      sendJson(res, 200, {
        more: false,
        results: list.map(([code, name, iso2, iso3, group]) =>
          reporters
            ? {
                id: code,
                text: name,
                reporterCode: code,
                reporterDesc: name,
                reporterCodeIsoAlpha2: iso2,
                reporterCodeIsoAlpha3: iso3,
                isGroup: group,
              }
            : {
                id: code,
                text: name,
                PartnerCode: code,
                PartnerDesc: name,
                PartnerCodeIsoAlpha2: iso2,
                PartnerCodeIsoAlpha3: iso3,
                isGroup: group,
              }
        ),
      });
      return;
    }
    const keyed = req.path === '/data/v1/get/C/A/HS';
    if (!keyed && req.path !== '/public/v1/preview/C/A/HS') {
      sendJson(res, 404, { statusCode: 404, message: 'Resource not found' });
      return;
    }
    if (keyed && req.headers['ocp-apim-subscription-key'] !== COMTRADE_KEY) {
      sendJson(res, 401, {
        statusCode: 401,
        message:
          'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.',
      });
      return;
    }
    const p = req.params;
    if (p.period === '2001') {
      sendJson(res, 500, { statusCode: 500, message: 'Internal server error' });
      return;
    }
    const reporter = AREAS.find((a) => String(a[0]) === p.reporterCode && a[0] !== 0);
    if (!reporter || !/^\d{4}$/.test(p.period ?? '') || !['X', 'M'].includes(p.flowCode ?? '')) {
      sendJson(res, 200, {
        elapsedTime: '0.01 secs',
        count: 0,
        data: [],
        error: 'Invalid reporterCode, period or flowCode',
      });
      return;
    }
    const cmd = p.cmdCode ?? 'TOTAL';
    const hs = HS_REF.find((h) => h.id === cmd);
    if (hs === undefined || Number(p.period) > 2024) {
      sendJson(res, 200, { elapsedTime: '0.01 secs', count: 0, data: [], error: '' });
      return;
    }
    // Japan's partners, one by one, overflow the preview's 500 rows.
    const partners: Array<[number, string]> =
      p.partnerCode !== undefined
        ? AREAS.filter((a) => String(a[0]) === p.partnerCode).map((a) => [a[0], a[1]])
        : [
            ...AREAS.filter((a) => a[0] !== reporter[0]).map((a): [number, string] => [a[0], a[1]]),
            ...(reporter[0] === 392
              ? Array.from({ length: 600 }, (_, i): [number, string] => [
                  1000 + i,
                  `Area ${1000 + i}`,
                ])
              : []),
          ];
    const valueOf = (partner: number) =>
      partner === 0
        ? 1e11 + reporter[0] * 1e6
        : partner === 97
          ? 4e10
          : partner >= 1000
            ? 1000 + partner
            : (1e9 + partner * 1e7 + reporter[0] * 1e5) * (p.flowCode === 'M' ? 1.1 : 1);
    let data = partners.map(([code, name]) => ({
      typeCode: 'C',
      freqCode: 'A',
      refPeriodId: Number(`${p.period}0101`),
      refYear: Number(p.period),
      refMonth: 52,
      period: p.period,
      reporterCode: reporter[0],
      reporterISO: reporter[3],
      reporterDesc: reporter[1],
      flowCode: p.flowCode,
      flowDesc: p.flowCode === 'X' ? 'Export' : 'Import',
      partnerCode: code,
      partnerISO: AREAS.find((a) => a[0] === code)?.[3] ?? 'N/A',
      partnerDesc: name,
      partner2Code: 0,
      classificationCode: 'H6',
      cmdCode: cmd,
      cmdDesc: hs.text.replace(/^\S+ - /, ''),
      aggrLevel: cmd === 'TOTAL' ? 0 : cmd.length,
      isLeaf: cmd.length === 6,
      customsCode: 'C00',
      motCode: 0,
      qtyUnitAbbr: 'N/A',
      qty: 0,
      netWgt: 0,
      cifvalue: p.flowCode === 'M' ? valueOf(code) : null,
      fobvalue: p.flowCode === 'X' ? valueOf(code) : null,
      primaryValue: valueOf(code),
      isAggregate: true,
    }));
    if (!keyed) data = data.slice(0, 500);
    sendJson(res, 200, { elapsedTime: '0.02 secs', count: data.length, data, error: '' });
  });
}
