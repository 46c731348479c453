// A USAspending.gov API v2 fixture (data-sources.md "usaspending"): POST spending_by_award with its
// quirks (award_type_codes required and from ONE group, else 422; an empty keywords array is a 400;
// the sort must be one of the requested fields, whose names contain spaces; limit ≤ 100; dates from
// 2007-10-01), page + page_metadata.hasNext paging, spending_by_award_count, the recipient and
// awarding-agency autocompletes, and GET /api/v2/awards/{generated_internal_id}/ with its 404.
// Awards are written for the tests. Keywords "upstream down" (503), "slow" (no answer) and
// "throttled" (429 with Retry-After: 1 on the first request to each endpoint) exercise failures.
import { sendJson, startFixtureServer, type FixtureServer } from './fixture-server.js';

const GROUPS: Record<string, string[]> = {
  contracts: ['A', 'B', 'C', 'D'],
  idvs: ['IDV_A', 'IDV_B', 'IDV_B_A', 'IDV_B_B', 'IDV_B_C', 'IDV_C', 'IDV_D', 'IDV_E'],
  grants: ['02', '03', '04', '05'],
  direct_payments: ['06', '10'],
  loans: ['07', '08'],
  other: ['09', '11', '-1'],
};

interface Agency {
  toptier: string;
  topAbbr: string;
  code: string;
  subtier: string;
  subAbbr: string;
}

const ARMY: Agency = {
  toptier: 'Department of Defense',
  topAbbr: 'DOD',
  code: '097',
  subtier: 'Department of the Army',
  subAbbr: 'USA',
};
const CISA: Agency = {
  toptier: 'Department of Homeland Security',
  topAbbr: 'DHS',
  code: '070',
  subtier: 'Cybersecurity and Infrastructure Security Agency',
  subAbbr: 'CISA',
};
const NASA: Agency = {
  toptier: 'National Aeronautics and Space Administration',
  topAbbr: 'NASA',
  code: '080',
  subtier: 'National Aeronautics and Space Administration',
  subAbbr: 'NASA',
};
const NSF: Agency = {
  toptier: 'National Science Foundation',
  topAbbr: 'NSF',
  code: '049',
  subtier: 'National Science Foundation',
  subAbbr: 'NSF',
};
const USDA: Agency = {
  toptier: 'Department of Agriculture',
  topAbbr: 'USDA',
  code: '012',
  subtier: 'Forest Service',
  subAbbr: 'FS',
};
export const AGENCIES = [ARMY, CISA, NASA, NSF, USDA];

export const RECIPIENTS = [
  { name: 'LOCKHEED MARTIN CORPORATION', uei: 'ZFN2JJXBLZT3', level: 'P' },
  { name: 'LOCKHEED MARTIN AERONAUTICS COMPANY', uei: 'LMA7QK2XZ1B9', level: 'C' },
  { name: 'BOOZ ALLEN HAMILTON INC.', uei: 'BAH4KZ7XQJ21', level: 'P' },
  { name: 'THE JOHNS HOPKINS UNIVERSITY', uei: 'FTMTDMBR29C7', level: 'R' },
  { name: 'STATE OF CALIFORNIA', uei: 'CAL9X2ZK4M11', level: 'R' },
] as const;

export interface FixtureAward {
  generatedId: string;
  awardId: string;
  group: string;
  typeCode: string;
  typeDesc: string;
  recipient: (typeof RECIPIENTS)[number];
  amount: number;
  agency: Agency;
  start: string;
  end: string;
  description: string;
}

function contracts(): FixtureAward[] {
  const who = [RECIPIENTS[0], RECIPIENTS[2], RECIPIENTS[1]];
  const where = [ARMY, CISA, NASA];
  return Array.from({ length: 45 }, (_, i) => {
    const year = i % 2 === 0 ? 2024 : 2023;
    const piid = `W912DY${year % 100}C${String(i + 1).padStart(4, '0')}`;
    return {
      generatedId: `CONT_AWD_${piid}_9700_-NONE-_-NONE-`,
      awardId: piid,
      group: 'contracts',
      typeCode: 'C',
      typeDesc: 'DELIVERY ORDER',
      recipient: who[i % 3]!,
      amount: 50_000_000 - i * 1_000_000 + 0.5,
      agency: where[i % 3]!,
      start: `${year}-0${(i % 9) + 1}-15`,
      // The 2023 awards end within their year, so a 2024 period leaves them out.
      end: year === 2024 ? `2026-0${(i % 9) + 1}-14` : '2023-12-31',
      description: `CYBERSECURITY OPERATIONS SUPPORT SERVICES, TASK ${i + 1}`,
    };
  });
}

function idvs(): FixtureAward[] {
  return Array.from({ length: 4 }, (_, i) => {
    const piid = `HC102825D00${String(i + 1).padStart(2, '0')}`;
    return {
      generatedId: `CONT_IDV_${piid}_9700`,
      awardId: piid,
      group: 'idvs',
      typeCode: 'IDV_B_B',
      typeDesc: 'IDC',
      recipient: RECIPIENTS[i % 2 === 0 ? 2 : 0],
      amount: 75_000_000 - i * 30_000_000,
      agency: i % 2 === 0 ? CISA : ARMY,
      start: '2025-01-10',
      end: '2030-01-09',
      description: `ENTERPRISE CYBERSECURITY IDIQ VEHICLE ${i + 1}`,
    };
  });
}

function assistance(
  group: string,
  typeCode: string,
  typeDesc: string,
  n: number,
  topic: string,
  who: FixtureAward['recipient'],
  agency: Agency,
  top: number
): FixtureAward[] {
  return Array.from({ length: n }, (_, i) => {
    const fain = `${agency.topAbbr}${group.slice(0, 2).toUpperCase()}${String(i + 1).padStart(6, '0')}`;
    return {
      generatedId: `ASST_NON_${fain}_${agency.code}`,
      awardId: fain,
      group,
      typeCode,
      typeDesc,
      recipient: who,
      amount: top - i * 100_000,
      agency,
      start: '2024-07-01',
      end: '2027-06-30',
      description: `${topic} ${i + 1}`,
    };
  });
}

export const AWARDS: readonly FixtureAward[] = [
  ...contracts(),
  ...idvs(),
  ...assistance(
    'grants',
    '04',
    'PROJECT GRANT (B)',
    6,
    'CYBERSECURITY WORKFORCE EDUCATION PROGRAM',
    RECIPIENTS[3],
    NSF,
    2_500_000
  ),
  ...assistance(
    'grants',
    '02',
    'BLOCK GRANT (A)',
    5,
    'WILDFIRE RISK REDUCTION',
    RECIPIENTS[4],
    USDA,
    9_000_000
  ),
  ...assistance(
    'loans',
    '07',
    'DIRECT LOAN (E)',
    3,
    'WILDFIRE RECOVERY LOAN',
    RECIPIENTS[4],
    USDA,
    20_000_000
  ),
  ...assistance(
    'direct_payments',
    '06',
    'DIRECT PAYMENT FOR SPECIFIED USE (C)',
    2,
    'WILDFIRE DIRECT PAYMENT',
    RECIPIENTS[4],
    USDA,
    400_000
  ),
];

type Body = Record<string, unknown>;

/** The one group the codes belong to; 'mixed' for codes of several (or unknown) groups. */
function groupOf(codes: unknown): string | undefined {
  if (!Array.isArray(codes) || codes.length === 0) return undefined;
  const groups = new Set(
    codes.map((c) => Object.keys(GROUPS).find((g) => GROUPS[g]!.includes(String(c))) ?? '?')
  );
  return groups.size === 1 && !groups.has('?') ? [...groups][0]! : 'mixed';
}

function column(a: FixtureAward, field: string): unknown {
  switch (field) {
    case 'Award ID':
      return a.awardId;
    case 'Recipient Name':
      return a.recipient.name;
    case 'Recipient UEI':
      return a.recipient.uei;
    case 'Award Amount':
      return a.group === 'loans' ? null : a.amount;
    case 'Loan Value':
      return a.group === 'loans' ? a.amount : null;
    case 'Subsidy Cost':
      return a.group === 'loans' ? Math.round(a.amount * 0.04) : null;
    case 'Awarding Agency':
      return a.agency.toptier;
    case 'Awarding Sub Agency':
      return a.agency.subtier;
    case 'Start Date':
    case 'Issued Date':
      return a.start;
    case 'End Date':
    case 'Last Date to Order':
      return a.end;
    case 'Description':
      return a.description;
    case 'Contract Award Type':
    case 'Award Type':
      return a.typeDesc;
    default:
      return null;
  }
}

/** An error the upstream answers in its own words: `{detail}`. */
type Refusal = { status: number; detail: string };

function filter(f: Body): FixtureAward[] | Refusal {
  if (f.keywords !== undefined) {
    if (!Array.isArray(f.keywords) || f.keywords.length === 0) {
      return { status: 400, detail: "Field 'filters|keywords' value '[]' is below min '1' items" };
    }
  }
  const tp = f.time_period as Array<{ start_date: string; end_date: string }> | undefined;
  for (const p of tp ?? []) {
    if (p.start_date < '2007-10-01') {
      return {
        status: 400,
        detail: "Field 'filters|time_period|start_date' value is below min '2007-10-01'",
      };
    }
  }
  return AWARDS.filter((a) => {
    const text = `${a.description} ${a.recipient.name} ${a.awardId}`.toLowerCase();
    if (
      Array.isArray(f.keywords) &&
      !f.keywords.some((k) => text.includes(String(k).toLowerCase()))
    )
      return false;
    const rst = f.recipient_search_text as string[] | undefined;
    if (
      rst &&
      !rst.some(
        (r) => a.recipient.name.toLowerCase().includes(r.toLowerCase()) || a.recipient.uei === r
      )
    )
      return false;
    const ag = f.agencies as Array<{ type: string; tier: string; name: string }> | undefined;
    if (
      ag &&
      !ag.some((x) =>
        x.tier === 'toptier' ? x.name === a.agency.toptier : x.name === a.agency.subtier
      )
    )
      return false;
    if (tp && !tp.some((p) => a.start <= p.end_date && a.end >= p.start_date)) return false;
    const ids = f.award_ids as string[] | undefined;
    if (ids && !ids.some((id) => id.toUpperCase() === a.awardId.toUpperCase())) return false;
    return true;
  });
}

function byAward(b: Body): { status: number; body: unknown } {
  const f = b.filters as Body | undefined;
  if (!f || typeof f !== 'object') {
    return { status: 400, body: { detail: "Missing value: 'filters' is a required field" } };
  }
  const group = groupOf(f.award_type_codes);
  if (group === undefined) {
    return {
      status: 400,
      body: { detail: "Missing value: 'filters|award_type_codes' is a required field" },
    };
  }
  if (group === 'mixed') {
    return {
      status: 422,
      body: {
        detail:
          "Award Type codes must all belong to one group: 'contracts', 'idvs', 'grants', " +
          "'direct_payments', 'loans' or 'other_financial_assistance'",
      },
    };
  }
  const fields = b.fields;
  if (!Array.isArray(fields) || fields.length === 0) {
    return { status: 400, body: { detail: "Missing value: 'fields' is a required field" } };
  }
  const sort = String(b.sort ?? fields[0]);
  if (!fields.includes(sort)) {
    return {
      status: 400,
      body: {
        detail: `Sort value '${sort}' not found in requested fields: ${JSON.stringify(fields)}`,
      },
    };
  }
  const limit = Number(b.limit ?? 10);
  const page = Number(b.page ?? 1);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    return { status: 400, body: { detail: `Field 'limit' value '${limit}' is above max '100'` } };
  }
  const found = filter(f);
  if (!Array.isArray(found)) return { status: found.status, body: { detail: found.detail } };
  const rows = found
    .filter((a) => a.group === group && GROUPS[group]!.includes(a.typeCode))
    .sort((x, y) => {
      const vx = Number(column(x, sort) ?? -Infinity);
      const vy = Number(column(y, sort) ?? -Infinity);
      return b.order === 'asc' ? vx - vy : vy - vx;
    });
  const slice = rows.slice((page - 1) * limit, page * limit);
  return {
    status: 200,
    body: {
      limit,
      results: slice.map((a) => ({
        internal_id: 1000 + AWARDS.indexOf(a),
        ...Object.fromEntries(fields.map((k: string) => [k, column(a, k)])),
        generated_internal_id: a.generatedId,
        awarding_agency_id: 100 + AGENCIES.indexOf(a.agency),
        agency_slug: a.agency.toptier.toLowerCase().replace(/\s+/g, '-'),
      })),
      page_metadata: { page, hasNext: page * limit < rows.length },
      messages: [
        'For searches, time period start and end dates are currently limited to an earliest date of 2007-10-01.',
      ],
    },
  };
}

function counts(b: Body): { status: number; body: unknown } {
  const f = (b.filters as Body | undefined) ?? {};
  const found = filter(f);
  if (!Array.isArray(found)) return { status: found.status, body: { detail: found.detail } };
  const n = (g: string) => found.filter((a) => a.group === g).length;
  return {
    status: 200,
    body: {
      results: {
        contracts: n('contracts'),
        direct_payments: n('direct_payments'),
        grants: n('grants'),
        idvs: n('idvs'),
        loans: n('loans'),
        other: n('other'),
      },
      messages: [],
    },
  };
}

function detail(a: FixtureAward): Record<string, unknown> {
  const contract = a.group === 'contracts' || a.group === 'idvs';
  const agency = {
    id: 100 + AGENCIES.indexOf(a.agency),
    has_agency_page: true,
    toptier_agency: { name: a.agency.toptier, code: a.agency.code, abbreviation: a.agency.topAbbr },
    subtier_agency: { name: a.agency.subtier, code: '9700', abbreviation: a.agency.subAbbr },
    office_agency_name: contract ? 'W6QK ACC-APG' : null,
  };
  return {
    id: 1000 + AWARDS.indexOf(a),
    generated_unique_award_id: a.generatedId,
    ...(contract ? { piid: a.awardId } : { fain: a.awardId, uri: null }),
    category: contract ? (a.group === 'idvs' ? 'idv' : 'contract') : a.group.replace('_', ' '),
    type: a.typeCode,
    type_description: a.typeDesc,
    description: a.description,
    total_obligation: a.amount,
    base_and_all_options: contract ? a.amount * 1.5 : null,
    date_signed: a.start,
    subaward_count: 0,
    recipient: {
      recipient_hash: 'a704b6c0-d296-fc75-79e9-7a9546b3b634-C',
      recipient_name: a.recipient.name,
      recipient_uei: a.recipient.uei,
      recipient_unique_id: null,
      parent_recipient_name: a.recipient.level === 'C' ? 'LOCKHEED MARTIN CORPORATION' : null,
      business_categories: ['Category Business'],
      location: {
        location_country_code: 'USA',
        country_name: 'UNITED STATES',
        state_code: 'MD',
        city_name: 'BETHESDA',
      },
    },
    awarding_agency: agency,
    funding_agency: agency,
    period_of_performance: {
      start_date: a.start,
      end_date: a.end,
      last_modified_date: '2026-10-01 08:00:00',
    },
    place_of_performance: {
      location_country_code: 'USA',
      country_name: 'UNITED STATES',
      state_code: 'VA',
      city_name: 'ARLINGTON',
    },
    ...(contract
      ? {
          latest_transaction_contract_data: { naics: '541512', product_or_service_code: 'D310' },
          naics_hierarchy: {
            base_code: { code: '541512', description: 'Computer Systems Design Services' },
          },
          psc_hierarchy: {
            base_code: { code: 'D310', description: 'IT AND TELECOM- CYBER SECURITY' },
          },
        }
      : {}),
  };
}

const TERMS_FAILING = new Set(['upstream down', 'slow', 'throttled']);

export function startFakeUsaspending(): Promise<FixtureServer> {
  const throttled = new Set<string>();
  return startFixtureServer((req, res) => {
    const detailPath = /^\/api\/v2\/awards\/([^/]+)\/$/.exec(req.path);
    if (detailPath) {
      if (req.method !== 'GET') {
        sendJson(res, 405, { detail: `Method "${req.method}" not allowed.` });
        return;
      }
      const id = decodeURIComponent(detailPath[1]!);
      const a = AWARDS.find((x) => x.generatedId === id);
      if (!a) sendJson(res, 404, { detail: `No Award found with: '${id}'` });
      else sendJson(res, 200, detail(a));
      return;
    }
    const posts = [
      '/api/v2/search/spending_by_award/',
      '/api/v2/search/spending_by_award_count/',
      '/api/v2/autocomplete/recipient/',
      '/api/v2/autocomplete/awarding_agency/',
    ];
    if (!posts.includes(req.path)) {
      sendJson(res, 404, { detail: 'Not found.' });
      return;
    }
    if (req.method !== 'POST') {
      sendJson(res, 405, { detail: `Method "${req.method}" not allowed.` });
      return;
    }
    let b: Body;
    try {
      b = JSON.parse(req.body) as Body;
    } catch {
      sendJson(res, 400, { detail: 'JSON parse error' });
      return;
    }
    const keyword = ((b.filters as Body | undefined)?.keywords as string[] | undefined)?.[0];
    if (keyword !== undefined && TERMS_FAILING.has(keyword)) {
      if (keyword === 'upstream down') {
        res
          .writeHead(503, 'Service Unavailable', { 'content-type': 'text/html' })
          .end('<h1>503</h1>');
        return;
      }
      if (keyword === 'slow') return;
      if (!throttled.has(req.path)) {
        throttled.add(req.path);
        sendJson(res, 429, { detail: 'Request was throttled.' }, { 'retry-after': '1' });
        return;
      }
    }
    if (req.path === '/api/v2/search/spending_by_award/') {
      const r = byAward(b);
      sendJson(res, r.status, r.body);
      return;
    }
    if (req.path === '/api/v2/search/spending_by_award_count/') {
      const r = counts(b);
      sendJson(res, r.status, r.body);
      return;
    }
    const text = typeof b.search_text === 'string' ? b.search_text.toLowerCase() : undefined;
    if (text === undefined) {
      sendJson(res, 400, { detail: "Missing value: 'search_text' is a required field" });
      return;
    }
    const limit = Number(b.limit ?? 10);
    if (req.path === '/api/v2/autocomplete/recipient/') {
      const results = RECIPIENTS.filter(
        (r) => r.name.toLowerCase().includes(text) || r.uei.toLowerCase() === text
      )
        .slice(0, limit)
        .map((r) => ({ recipient_name: r.name, uei: r.uei, recipient_level: [r.level] }));
      sendJson(res, 200, { results });
      return;
    }
    const results = AGENCIES.flatMap((a, i) => {
      const top = {
        abbreviation: a.topAbbr,
        name: a.toptier,
        toptier_code: a.code,
      };
      const sub = { abbreviation: a.subAbbr, name: a.subtier, subtier_code: `${a.code}0` };
      const hit = (n: string, ab: string) =>
        n.toLowerCase().includes(text) || ab.toLowerCase() === text;
      const out = [];
      if (hit(a.toptier, a.topAbbr)) {
        out.push({ id: 100 + i, toptier_flag: true, toptier_agency: top, subtier_agency: top });
      }
      if (a.subtier !== a.toptier && hit(a.subtier, a.subAbbr)) {
        out.push({ id: 200 + i, toptier_flag: false, toptier_agency: top, subtier_agency: sub });
      }
      return out;
    }).slice(0, limit);
    sendJson(res, 200, { results });
  });
}
