// Fixtures for the research-grants agent's two upstreams on one loopback server
// (data-sources.md "research-grants"):
// - NIH RePORTER: POST /v2/projects/search only (GET is 405), a JSON body with criteria
//   (advanced_text_search, pi_names, org_names, fiscal_years, project_start_date), offset ≤ 14,999
//   and limit ≤ 500 (else 400), sort_field/sort_order; answers {meta: {search_id, total, offset,
//   limit, …}, results} with snake_case fields and dates as "YYYY-MM-DDT00:00:00".
// - NSF Award Search: GET /services/v1/awards.json with keyword, awardeeName, piFirstName,
//   piLastName, dateStart/dateEnd (MM/DD/YYYY, the award date), printFields (only those come
//   back), offset 1-based and rpp ≤ 25; amounts are strings; errors are a 200 with
//   `serviceNotification`; an empty answer has no `award` list.
// Search text "upstream down" fails both (NIH 500, NSF 503); "nih down" fails NIH only;
// "throttled" gets NIH's 429 with Retry-After: 1 once. Records are written for the tests, some
// dated relative to now so that "recent" has something to find.
import { sendJson, startFixtureServer, type FixtureServer } from './fixture-server.js';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const us = (isoDay: string) => {
  const [y, m, d] = isoDay.split('-');
  return `${m}/${d}/${y}`;
};

interface Project {
  applId: number;
  num: string;
  title: string;
  terms: string;
  abstract: string;
  pis: Array<{ first: string; last: string; contact: boolean }>;
  org: { name: string; city: string; state: string };
  ic: { abbreviation: string; name: string };
  fy: number;
  amount: number;
  start: string;
  end: string;
}

interface Award {
  id: string;
  title: string;
  abstract: string;
  awardee: { name: string; city: string; state: string };
  pi: { first: string; last: string };
  obligated: string;
  estimated: string;
  date: string;
  start: string;
  end: string;
  program: string;
}

const BERKELEY = { name: 'UNIVERSITY OF CALIFORNIA BERKELEY', city: 'BERKELEY', state: 'CA' };
const HOPKINS = { name: 'JOHNS HOPKINS UNIVERSITY', city: 'BALTIMORE', state: 'MD' };
const MIT = { name: 'MASSACHUSETTS INSTITUTE OF TECHNOLOGY', city: 'CAMBRIDGE', state: 'MA' };
const NIGMS = { abbreviation: 'NIGMS', name: 'National Institute of General Medical Sciences' };
const NIAID = {
  abbreviation: 'NIAID',
  name: 'National Institute of Allergy and Infectious Diseases',
};

function project(i: number, o: Partial<Project>): Project {
  return {
    applId: 11_000_000 + i,
    num: `5R01GM${String(100_000 + i)}-0${(i % 4) + 1}`,
    title: `Project ${i}`,
    terms: '',
    abstract: '',
    pis: [{ first: 'Sam', last: `Researcher${i}`, contact: true }],
    org: BERKELEY,
    ic: NIGMS,
    fy: 2024,
    amount: 300_000 + i * 1_000,
    start: '2022-09-01',
    end: '2026-08-31',
    ...o,
  };
}

/** Built when the server starts, so the "recent" ones are recent. */
function nihProjects(now: number): Project[] {
  const crispr = Array.from({ length: 12 }, (_, i) =>
    project(i + 1, {
      title: `CRISPR gene editing of immune cells (${i + 1})`,
      terms: '<CRISPR><gene editing><T cells>',
      abstract: 'We develop CRISPR-Cas9 gene editing tools for primary human T cells.',
      start: `20${18 + (i % 6)}-0${(i % 9) + 1}-01`,
      fy: 2018 + (i % 7),
    })
  );
  return [
    ...crispr,
    project(50, {
      title: 'RNA-guided genome editing mechanisms',
      terms: '<CRISPR><Cas9><RNA>',
      abstract: 'Structural studies of CRISPR-Cas enzymes.',
      pis: [
        { first: 'Martin', last: 'Jinek', contact: false },
        { first: 'Jennifer', last: 'Doudna', contact: true },
      ],
      fy: 2024,
      amount: 1_250_000,
      start: '2021-07-01',
    }),
    project(51, {
      title: 'Cas12 diagnostics',
      terms: '<CRISPR><diagnostics>',
      pis: [{ first: 'Jennifer', last: 'Doudna', contact: true }],
      fy: 2025,
      amount: 640_000,
      start: '2024-04-01',
    }),
    ...[0, 1, 2, 3].map((k) =>
      project(60 + k, {
        num: `1R01AI${200_000 + k}-01`,
        title: `Malaria vaccine antigen discovery (${k + 1})`,
        terms: '<malaria><vaccine><Plasmodium>',
        abstract: 'Antigens of Plasmodium falciparum for a blood-stage vaccine.',
        org: HOPKINS,
        ic: NIAID,
        fy: 2023 + (k % 2),
        amount: 500_000 + k * 50_000,
        start: `202${2 + k}-03-01`,
        pis: [{ first: 'Rosa', last: 'Alvarez', contact: true }],
      })
    ),
    ...[10, 40, 200].map((daysAgo, k) =>
      project(80 + k, {
        num: `1R21GM${300_000 + k}-01`,
        title: `New CRISPR screening platform (${k + 1})`,
        terms: '<CRISPR><screening>',
        fy: 2026,
        amount: 200_000,
        start: iso(now - daysAgo * DAY),
        end: iso(now + 700 * DAY),
      })
    ),
  ];
}

function nsfAwards(now: number): Award[] {
  const crispr = Array.from({ length: 30 }, (_, i) => ({
    id: String(2_300_001 + i),
    title: `CAREER: CRISPR tools for plant biology (${i + 1})`,
    abstract: 'This award supports CRISPR genome editing in crops.',
    awardee: i % 2 === 0 ? BERKELEY : { name: 'Iowa State University', city: 'Ames', state: 'IA' },
    pi: { first: 'Lee', last: `Botanist${i + 1}` },
    obligated: String(400_000 + i * 5_000),
    estimated: String(600_000 + i * 5_000),
    date: `0${(i % 9) + 1}/15/20${18 + (i % 6)}`,
    start: `0${(i % 9) + 1}/01/20${18 + (i % 6)}`,
    end: `08/31/20${21 + (i % 6)}`,
    program: 'Plant Genome Research Project',
  }));
  return [
    ...crispr.map((a) => ({
      ...a,
      awardee: {
        ...a.awardee,
        name:
          a.awardee.name === BERKELEY.name ? 'University of California-Berkeley' : a.awardee.name,
      },
    })),
    {
      id: '2400100',
      title: 'Collaborative Research: CRISPR in bacterial immunity',
      abstract: 'Mechanisms of CRISPR adaptation.',
      awardee: { name: 'University of California-Berkeley', city: 'Berkeley', state: 'CA' },
      pi: { first: 'Jennifer', last: 'Doudna' },
      obligated: '750000',
      estimated: '900000',
      date: '06/20/2024',
      start: '07/01/2024',
      end: '06/30/2027',
      program: 'Genetic Mechanisms',
    },
    ...[0, 1].map((k) => ({
      id: String(2_400_200 + k),
      title: `Malaria transmission modeling (${k + 1})`,
      abstract: 'Mathematical models of malaria transmission.',
      awardee: { name: 'Johns Hopkins University', city: 'Baltimore', state: 'MD' },
      pi: { first: 'Omar', last: 'Haddad' },
      obligated: String(250_000 + k * 10_000),
      estimated: String(300_000 + k * 10_000),
      date: `05/10/202${3 + k}`,
      start: `06/01/202${3 + k}`,
      end: `05/31/202${6 + k}`,
      program: 'Mathematical Biology',
    })),
    ...[0, 1, 2].map((k) => ({
      id: String(2_400_300 + k),
      title: `Quantum computing with trapped ions (${k + 1})`,
      abstract: 'Scalable quantum computing architectures.',
      awardee: { name: 'Massachusetts Institute of Technology', city: 'Cambridge', state: 'MA' },
      pi: { first: 'Ada', last: 'Lovelace' },
      obligated: String(900_000 + k * 1_000),
      estimated: String(1_200_000 + k * 1_000),
      date: `09/0${k + 1}/2024`,
      start: `10/01/2024`,
      end: `09/30/2028`,
      program: 'Quantum Information Science',
    })),
    ...[5, 20, 150].map((daysAgo, k) => ({
      id: String(2_600_000 + k),
      title: `Recent CRISPR award (${k + 1})`,
      abstract: 'CRISPR-based biosensors.',
      awardee: MIT,
      pi: { first: 'Kim', last: 'Park' },
      obligated: '150000',
      estimated: '450000',
      date: us(iso(now - daysAgo * DAY)),
      start: us(iso(now - daysAgo * DAY + 10 * DAY)),
      end: us(iso(now + 1000 * DAY)),
      program: 'Biosensing',
    })),
  ];
}

function words(s: string): string[] {
  return s
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}
function allIn(hay: string, needle: string): boolean {
  const h = hay.toLowerCase();
  return words(needle).every((w) => h.includes(w));
}
/** MM/DD/YYYY → comparable YYYY-MM-DD. */
function day(s: string): string {
  const [m, d, y] = s.split('/');
  return `${y}-${m}-${d}`;
}

interface NihCriteria {
  advanced_text_search?: { search_text?: string };
  pi_names?: Array<{ first_name?: string; last_name?: string; any_name?: string }>;
  org_names?: string[];
  fiscal_years?: number[];
  project_start_date?: { from_date?: string; to_date?: string };
}

function nihMatches(p: Project, c: NihCriteria): boolean {
  const text = c.advanced_text_search?.search_text;
  if (text !== undefined && !allIn(`${p.title} ${p.terms} ${p.abstract}`, text)) return false;
  if (c.pi_names && c.pi_names.length > 0) {
    const hit = c.pi_names.some((n) =>
      p.pis.some((x) =>
        n.any_name !== undefined
          ? [x.first, x.last].some((v) => v.toLowerCase() === n.any_name!.toLowerCase())
          : (n.first_name === undefined || x.first.toLowerCase() === n.first_name.toLowerCase()) &&
            (n.last_name === undefined || x.last.toLowerCase() === n.last_name.toLowerCase())
      )
    );
    if (!hit) return false;
  }
  if (c.org_names && !c.org_names.some((o) => allIn(p.org.name, o))) return false;
  if (c.fiscal_years && c.fiscal_years.length > 0 && !c.fiscal_years.includes(p.fy)) return false;
  const from = c.project_start_date?.from_date;
  if (from !== undefined && p.start < from.slice(0, 10)) return false;
  return true;
}

function nihRecord(p: Project): Record<string, unknown> {
  return {
    appl_id: p.applId,
    subproject_id: null,
    fiscal_year: p.fy,
    project_num: p.num,
    project_serial_num: p.num.slice(3, 11),
    organization: {
      org_name: p.org.name,
      city: null,
      country: null,
      org_city: p.org.city,
      org_country: 'UNITED STATES',
      org_state: p.org.state,
      org_state_name: null,
      dept_type: 'BIOCHEMISTRY',
      fips_country_code: null,
      org_duns: ['124726725'],
      org_ueis: ['GS3YEVSS12N6'],
      primary_duns: '124726725',
      primary_uei: 'GS3YEVSS12N6',
      org_fips: 'US',
      org_ipf_code: '577507',
      org_zipcode: '947101749',
      external_org_id: 577507,
    },
    award_type: '5',
    activity_code: p.num.slice(1, 4),
    award_amount: p.amount,
    is_active: true,
    principal_investigators: p.pis.map((x, k) => ({
      profile_id: 1_000_000 + k,
      first_name: x.first,
      middle_name: '',
      last_name: x.last,
      is_contact_pi: x.contact,
      full_name: `${x.first} ${x.last}`,
      title: 'PROFESSOR',
    })),
    contact_pi_name: (() => {
      const c = p.pis.find((x) => x.contact) ?? p.pis[0]!;
      return `${c.last.toUpperCase()}, ${c.first.toUpperCase()}`;
    })(),
    agency_ic_admin: { code: p.ic.abbreviation === 'NIAID' ? 'AI' : 'GM', ...p.ic },
    project_start_date: `${p.start}T00:00:00`,
    project_end_date: `${p.end}T00:00:00`,
    award_notice_date: `${p.start}T00:00:00`,
    is_new: false,
    core_project_num: p.num.slice(1, 12),
    terms: p.terms,
    abstract_text: p.abstract,
    project_title: p.title,
    agency_code: 'NIH',
    arra_funded: 'N',
    project_detail_url: `https://reporter.nih.gov/project-details/${p.applId}`,
    date_added: '2024-08-10T00:00:00',
  };
}

function nsfRecord(a: Award, fields: string[] | undefined): Record<string, unknown> {
  const all: Record<string, unknown> = {
    id: a.id,
    agency: 'NSF',
    awardeeCity: a.awardee.city,
    awardeeName: a.awardee.name,
    awardeeStateCode: a.awardee.state,
    date: a.date,
    fundsObligatedAmt: a.obligated,
    estimatedTotalAmt: a.estimated,
    piFirstName: a.pi.first,
    piLastName: a.pi.last,
    pdPIName: `${a.pi.first} ${a.pi.last}`,
    startDate: a.start,
    expDate: a.end,
    title: a.title,
    fundProgramName: a.program,
    abstractText: a.abstract,
  };
  if (fields === undefined) {
    const {
      id,
      agency,
      awardeeCity,
      awardeeName,
      awardeeStateCode,
      date,
      fundsObligatedAmt,
      piFirstName,
      piLastName,
      title,
    } = all;
    return {
      id,
      agency,
      awardeeCity,
      awardeeName,
      awardeeStateCode,
      date,
      fundsObligatedAmt,
      piFirstName,
      piLastName,
      title,
    };
  }
  return Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]]));
}

function nsfError(message: string) {
  return {
    response: {
      serviceNotification: [
        {
          notificationType: 'ERROR',
          notificationCode: 'Invalid_parameter',
          notificationMessage: message,
        },
      ],
    },
  };
}

export function startFakeGrants(): Promise<FixtureServer> {
  const now = Date.now();
  const projects = nihProjects(now);
  const awards = nsfAwards(now);
  let throttled = false;
  let searchId = 0;
  return startFixtureServer((req, res) => {
    if (req.path === '/v2/projects/search') {
      if (req.method !== 'POST') {
        sendJson(res, 405, { detail: `Method "${req.method}" not allowed.` });
        return;
      }
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
        sendJson(res, 415, { detail: 'Unsupported media type' });
        return;
      }
      let body: {
        criteria?: NihCriteria;
        offset?: number;
        limit?: number;
        sort_field?: string;
        sort_order?: string;
      };
      try {
        body = JSON.parse(req.body) as typeof body;
      } catch {
        sendJson(res, 400, ['The request body is not valid JSON']);
        return;
      }
      const offset = body.offset ?? 0;
      const limit = body.limit ?? 50;
      if (limit > 500 || limit < 1) {
        sendJson(res, 400, ['limit must be between 1 and 500']);
        return;
      }
      if (offset > 14_999 || offset < 0) {
        sendJson(res, 400, ['offset must be between 0 and 14999']);
        return;
      }
      const c = body.criteria ?? {};
      const text = c.advanced_text_search?.search_text;
      if (text === 'upstream down' || text === 'nih down') {
        res
          .writeHead(500, 'Internal Server Error', { 'content-type': 'text/html' })
          .end('<h1>Server Error</h1>');
        return;
      }
      if (text === 'throttled' && !throttled) {
        throttled = true;
        sendJson(res, 429, { message: 'Too many requests' }, { 'retry-after': '1' });
        return;
      }
      let found = projects.filter((p) => nihMatches(p, c));
      if (body.sort_field === 'project_start_date') {
        const dir = body.sort_order === 'asc' ? 1 : -1;
        found = [...found].sort((a, b) => dir * a.start.localeCompare(b.start));
      }
      sendJson(res, 200, {
        meta: {
          search_id: `fixture-${++searchId}`,
          total: found.length,
          offset,
          limit,
          sort_field: body.sort_field ?? null,
          sort_order: body.sort_order ?? null,
          sorted_by_relevance: false,
          properties: { URL: `https://reporter.nih.gov/search/fixture-${searchId}/projects` },
        },
        results: found.slice(offset, offset + limit).map(nihRecord),
      });
      return;
    }
    if (req.path === '/services/v1/awards.json') {
      const p = req.params;
      if (p.keyword === 'upstream down') {
        res
          .writeHead(503, 'Service Unavailable', { 'content-type': 'text/html' })
          .end('<h1>503</h1>');
        return;
      }
      const rpp = Number(p.rpp ?? '25');
      const offset = Number(p.offset ?? '1');
      if (!Number.isInteger(rpp) || rpp < 1 || rpp > 25) {
        sendJson(res, 200, nsfError('rpp must be a number between 1 and 25'));
        return;
      }
      if (!Number.isInteger(offset) || offset < 1) {
        sendJson(res, 200, nsfError('offset must be a number greater than 0'));
        return;
      }
      for (const k of ['dateStart', 'dateEnd']) {
        if (p[k] !== undefined && !/^\d{2}\/\d{2}\/\d{4}$/.test(p[k])) {
          sendJson(res, 200, nsfError(`${k} must be in mm/dd/yyyy format`));
          return;
        }
      }
      const found = awards.filter(
        (a) =>
          (p.keyword === undefined || allIn(`${a.title} ${a.abstract}`, p.keyword)) &&
          (p.awardeeName === undefined || allIn(a.awardee.name, p.awardeeName)) &&
          (p.piLastName === undefined || a.pi.last.toLowerCase() === p.piLastName.toLowerCase()) &&
          (p.piFirstName === undefined ||
            a.pi.first.toLowerCase() === p.piFirstName.toLowerCase()) &&
          (p.dateStart === undefined || day(a.date) >= day(p.dateStart)) &&
          (p.dateEnd === undefined || day(a.date) <= day(p.dateEnd))
      );
      const page = found.slice(offset - 1, offset - 1 + rpp);
      const fields = p.printFields?.split(',');
      sendJson(res, 200, {
        response: page.length > 0 ? { award: page.map((a) => nsfRecord(a, fields)) } : {},
      });
      return;
    }
    sendJson(res, 404, { detail: 'Not found' });
  });
}
