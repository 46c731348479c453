// An LDA API fixture (data-sources.md "lobbying"): GET /api/v1/filings/ with filing_year,
// filing_period, client_name and registrant_name (contains, any case), filing_general_issue_code,
// filing_specific_lobbying_issues (words in an activity's description) and ordering=-dt_posted;
// DRF paging (`count`, `next`/`previous` as absolute lda.gov links, page_size quietly capped at 25,
// 404 {"detail":"Invalid page."} past the end); filters it does not know are ignored, as DRF does;
// `income`/`expenses` as decimal strings or null; `Authorization: Token` optional, a wrong one 401.
// The path without its trailing slash is redirected (301), as Django does. Filings are written for
// the tests. Client "Throttled Corp" (429 + Retry-After: 1 once) and the issue words "upstream
// down" (503) exercise the failures.
import { sendJson, startFixtureServer, type FixtureServer } from './fixture-server.js';

interface Party {
  id: number;
  name: string;
}
interface ClientDef {
  client: Party & { description: string };
  registrant: Party;
  /** In-house: the registrant is the client, and reports expenses. */
  inHouse: boolean;
  issues: string[];
  amount: string | null;
  /** [year, quarter 1-4] reports filed. */
  quarters: Array<[number, number]>;
}

const DISPLAY: Record<string, string> = {
  HCR: 'Health Issues',
  MMM: 'Medicare/Medicaid',
  PHA: 'Pharmacy',
  TAX: 'Taxation/Internal Revenue Code',
  CPI: 'Computer Industry',
  IMM: 'Immigration',
  AVI: 'Aviation/Aircraft/Airlines',
  TRA: 'Transportation',
};

const WHAT: Record<string, string> = {
  HCR: 'H.R. 2880, Lower Drug Costs Act; hospital price transparency',
  MMM: 'Medicare Part D negotiation; Medicaid managed care rules',
  PHA: 'Pharmacy benefit manager reform',
  TAX: 'Research and development expensing under section 174',
  CPI: 'Cloud computing procurement; semiconductor supply chain',
  IMM: 'H-1B visa program; high-skilled immigration',
  AVI: 'Drone delivery rules; FAA reauthorization beyond visual line of sight',
  TRA: 'Drone delivery integration into the national airspace',
};

const BOTH_YEARS: Array<[number, number]> = [
  [2025, 1],
  [2025, 2],
  [2025, 3],
  [2025, 4],
  [2024, 1],
  [2024, 2],
  [2024, 3],
  [2024, 4],
];

const AKIN = { id: 601, name: 'AKIN GUMP STRAUSS HAUER & FELD LLP' };
const BROWNSTEIN = { id: 602, name: 'BROWNSTEIN HYATT FARBER SCHRECK, LLP' };

export const CLIENTS: readonly ClientDef[] = [
  {
    client: { id: 101, name: 'PFIZER INC', description: 'Pharmaceuticals' },
    registrant: { id: 501, name: 'PFIZER INC' },
    inHouse: true,
    issues: ['HCR', 'TAX', 'PHA'],
    amount: '3250000.00',
    quarters: BOTH_YEARS,
  },
  {
    client: { id: 102, name: 'ACME HEALTH SYSTEMS', description: 'Hospital network' },
    registrant: AKIN,
    inHouse: false,
    issues: ['HCR', 'MMM'],
    amount: '120000.00',
    quarters: BOTH_YEARS,
  },
  {
    client: { id: 103, name: 'NORTHWIND PHARMACEUTICALS', description: 'Generic drugs' },
    registrant: BROWNSTEIN,
    inHouse: false,
    issues: ['HCR'],
    amount: '80000.00',
    quarters: BOTH_YEARS,
  },
  {
    client: { id: 104, name: 'CONTOSO TECHNOLOGIES', description: 'Software' },
    registrant: { id: 502, name: 'CONTOSO TECHNOLOGIES' },
    inHouse: true,
    issues: ['TAX', 'CPI', 'IMM'],
    amount: '1500000.00',
    quarters: BOTH_YEARS,
  },
  {
    client: { id: 105, name: 'AMERICAN DRONE COALITION', description: 'Trade association' },
    registrant: { id: 603, name: 'SQUIRE PATTON BOGGS (US) LLP' },
    inHouse: false,
    issues: ['AVI', 'TRA'],
    amount: '40000.00',
    quarters: BOTH_YEARS,
  },
  {
    // Under $5,000 a quarter: LDA's form leaves the amount empty, and the API says null.
    client: { id: 106, name: 'BORDER SOLUTIONS LLC', description: 'Staffing' },
    registrant: { id: 604, name: 'SMALL FIRM PLLC' },
    inHouse: false,
    issues: ['IMM'],
    amount: null,
    quarters: BOTH_YEARS,
  },
  {
    client: { id: 107, name: 'THROTTLED CORP', description: 'Testing' },
    registrant: AKIN,
    inHouse: false,
    issues: ['TAX'],
    amount: '20000.00',
    quarters: [[2025, 1]],
  },
  // Twenty small health clients: enough 2024 filings for several pages.
  ...Array.from({ length: 20 }, (_, i): ClientDef => ({
    client: {
      id: 200 + i,
      name: `HEALTH CLIENT ${String(i + 1).padStart(2, '0')}`,
      description: 'Clinic',
    },
    registrant: BROWNSTEIN,
    inHouse: false,
    issues: ['HCR'],
    amount: `${10000 + i * 1000}.00`,
    quarters: [[2025, 1], ...BOTH_YEARS.slice(4)],
  })),
];

const PERIODS = ['first_quarter', 'second_quarter', 'third_quarter', 'fourth_quarter'];
const ORDINAL = ['1st', '2nd', '3rd', '4th'];
/** When a quarter's reports are posted: the 20th after the quarter ends. */
const POSTED = ['-04-18', '-07-18', '-10-17', '-01-20'];

function uuid(n: number): string {
  return `4f1d0000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

export interface RawFiling {
  filing_uuid: string;
  filing_type: string;
  filing_year: number;
  filing_period: string;
  income: string | null;
  expenses: string | null;
  dt_posted: string;
  [k: string]: unknown;
}

function filing(c: ClientDef, year: number, q: number, n: number, amendment?: string): RawFiling {
  const posted = `${q === 4 ? year + 1 : year}${POSTED[q - 1]}T${String(9 + (n % 9)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}:00-04:00`;
  const id = uuid(n);
  return {
    url: `https://lda.gov/api/v1/filings/${id}/`,
    filing_uuid: id,
    filing_type: amendment ? `${q}A` : `Q${q}`,
    filing_type_display: `${ORDINAL[q - 1]} Quarter - ${amendment ? 'Amendment' : 'Report'}`,
    filing_year: year,
    filing_period: PERIODS[q - 1]!,
    filing_period_display: `${ORDINAL[q - 1]} Quarter (Jan 1 - Mar 31)`,
    filing_document_url: `https://lda.gov/filings/public/filing/${id}/print/`,
    filing_document_content_type: 'text/html',
    income: c.inHouse ? null : (amendment ?? c.amount),
    expenses: c.inHouse ? c.amount : null,
    expenses_method: c.inHouse ? 'a' : null,
    expenses_method_display: c.inHouse ? 'Reporting Method A. LDA definitions' : null,
    posted_by_name: 'Jane Filer',
    dt_posted: amendment
      ? posted.replace(/-(\d\d)T/, (_, d: string) => `-${Number(d) + 9}T`)
      : posted,
    termination_date: null,
    registrant_country: 'USA',
    registrant: {
      id: c.registrant.id,
      url: `https://lda.gov/api/v1/registrants/${c.registrant.id}/`,
      house_registrant_id: 30000 + c.registrant.id,
      name: c.registrant.name,
      description: c.inHouse ? c.client.description : 'Government relations',
      address_1: '1333 New Hampshire Ave NW',
      city: 'WASHINGTON',
      state: 'DC',
      state_display: 'District of Columbia',
      zip: '20036',
      country: 'US',
      country_display: 'United States of America',
      contact_name: 'JANE FILER',
      contact_telephone: '+1 202-555-0100',
      dt_updated: '2025-01-02T10:00:00-05:00',
    },
    client: {
      id: c.client.id,
      url: `https://lda.gov/api/v1/clients/${c.client.id}/`,
      client_id: c.client.id - 100,
      name: c.client.name,
      general_description: c.client.description,
      client_government_entity: null,
      client_self_select: c.inHouse,
      state: 'NY',
      state_display: 'New York',
      country: 'US',
      country_display: 'United States of America',
      effective_date: '2019-01-01',
    },
    lobbying_activities: c.issues.map((code, k) => ({
      general_issue_code: code,
      general_issue_code_display: DISPLAY[code] ?? code,
      description: WHAT[code] ?? code,
      foreign_entity_issues: '',
      lobbyists: [
        {
          lobbyist: {
            id: 9000 + k,
            prefix: null,
            first_name: ['ANN', 'BEN', 'CARA'][k % 3],
            nickname: null,
            middle_name: null,
            last_name: ['LEE', 'ORTIZ', 'SINGH'][k % 3],
            suffix: null,
          },
          covered_position: k === 0 ? 'Legislative Director, Sen. Example' : '',
          new: false,
        },
      ],
      government_entities: [
        { id: 1, name: 'SENATE' },
        { id: 2, name: 'HOUSE OF REPRESENTATIVES' },
      ],
    })),
    conviction_disclosures: [],
    foreign_entities: [],
    affiliated_organizations: [],
  };
}

/** Every filing, with one amendment: ACME's 2025 Q1 report restated at $150,000. */
export const FILINGS: readonly RawFiling[] = (() => {
  const out: RawFiling[] = [];
  let n = 1;
  for (const c of CLIENTS) for (const [y, q] of c.quarters) out.push(filing(c, y, q, n++));
  out.push(filing(CLIENTS[1]!, 2025, 1, n++, '150000.00'));
  return out;
})();

const MAX_PAGE_SIZE = 25;

function has(hay: string, needle: string | undefined): boolean {
  return needle === undefined || hay.toLowerCase().includes(needle.toLowerCase());
}

function matches(f: RawFiling, p: Record<string, string>): boolean {
  const acts = f.lobbying_activities as Array<{ general_issue_code: string; description: string }>;
  if (p.filing_year !== undefined && String(f.filing_year) !== p.filing_year) return false;
  if (p.filing_period !== undefined && f.filing_period !== p.filing_period) return false;
  if (!has((f.client as { name: string }).name, p.client_name)) return false;
  if (!has((f.registrant as { name: string }).name, p.registrant_name)) return false;
  const code = p.filing_general_issue_code;
  if (code !== undefined && !acts.some((a) => a.general_issue_code === code.toUpperCase())) {
    return false;
  }
  const text = p.filing_specific_lobbying_issues;
  if (text !== undefined) {
    const words = text.toLowerCase().split(/\s+/);
    if (!acts.some((a) => words.every((w) => a.description.toLowerCase().includes(w)))) {
      return false;
    }
  }
  return true;
}

export function startFakeLda(o: { token?: string } = {}): Promise<FixtureServer> {
  let throttled = false;
  return startFixtureServer((req, res) => {
    const p = req.params;
    if (req.path === '/api/v1/filings') {
      const qs = new URLSearchParams(p).toString();
      res.writeHead(301, { location: `/api/v1/filings/${qs ? `?${qs}` : ''}` }).end();
      return;
    }
    if (req.path !== '/api/v1/filings/') {
      sendJson(res, 404, { detail: 'Not found.' });
      return;
    }
    const auth = req.headers.authorization;
    if (auth !== undefined && auth !== `Token ${o.token}`) {
      sendJson(res, 401, { detail: 'Invalid token.' });
      return;
    }
    if (p.filing_specific_lobbying_issues === 'upstream down') {
      res
        .writeHead(503, 'Service Unavailable', { 'content-type': 'text/html' })
        .end('<h1>503</h1>');
      return;
    }
    if (p.client_name?.toLowerCase() === 'throttled corp' && !throttled) {
      throttled = true;
      sendJson(
        res,
        429,
        { detail: 'Request was throttled. Expected available in 1 second.' },
        { 'retry-after': '1' }
      );
      return;
    }
    const size = Math.min(MAX_PAGE_SIZE, Math.max(1, Number(p.page_size ?? MAX_PAGE_SIZE) || 25));
    const page = p.page === undefined ? 1 : Number(p.page);
    let all = FILINGS.filter((f) => matches(f, p));
    if (p.ordering === '-dt_posted') {
      all = [...all].sort((a, b) => (a.dt_posted < b.dt_posted ? 1 : -1));
    }
    const pages = Math.max(1, Math.ceil(all.length / size));
    if (!Number.isInteger(page) || page < 1 || page > pages) {
      sendJson(res, 404, { detail: 'Invalid page.' });
      return;
    }
    const link = (n: number) => {
      const u = new URL('https://lda.gov/api/v1/filings/');
      for (const [k, v] of Object.entries(p)) if (k !== 'page') u.searchParams.set(k, v);
      if (n > 1) u.searchParams.set('page', String(n));
      return u.toString();
    };
    sendJson(res, 200, {
      count: all.length,
      next: page < pages ? link(page + 1) : null,
      previous: page > 1 ? link(page - 1) : null,
      results: all.slice((page - 1) * size, page * size),
    });
  });
}
