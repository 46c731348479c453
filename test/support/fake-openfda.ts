// An openFDA fixture (data-sources.md "fda"): GET /drug/{label,event,enforcement,drugsfda}.json
// with search= (field:"phrase", field:term, field:[A TO B], joined by AND or by OR/space),
// skip/limit (limit ≤ 1000, skip ≤ 25000, else 400), sort=field:asc|desc, count=field.exact
// tallies, the meta envelope, and a 404 {"error":{"code":"NOT_FOUND"}} when nothing matches.
// With a key set, a request with another api_key gets 403 API_KEY_INVALID. Records are written for
// the tests in openFDA's shapes; approval dates are relative to today so "recent" stays recent.
import { sendJson, startFixtureServer, type FixtureServer } from './fixture-server.js';

type Rec = Record<string, unknown>;

const REACTIONS = ['Nausea', 'Headache', 'Dizziness', 'Rash', 'Vomiting', 'Abdominal pain'];

function events(): Rec[] {
  const out: Rec[] = [];
  // 40 ibuprofen reports: reaction i%6, and every third one a Nausea as well; 10 metformin.
  for (let i = 0; i < 50; i++) {
    const ibu = i < 40;
    const reactions = [REACTIONS[i % REACTIONS.length]!];
    if (ibu && i % 3 === 0 && reactions[0] !== 'Nausea') reactions.push('Nausea');
    out.push({
      safetyreportid: String(10_000_000 + i),
      receivedate: '20260301',
      serious: i % 4 === 0 ? '1' : '2',
      primarysourcecountry: 'US',
      patient: {
        patientsex: String((i % 2) + 1),
        reaction: reactions.map((r) => ({ reactionmeddrapt: r, reactionoutcome: '1' })),
        drug: [
          {
            medicinalproduct: ibu ? 'ADVIL' : 'GLUCOPHAGE',
            drugcharacterization: '1',
            openfda: ibu
              ? {
                  brand_name: ['ADVIL'],
                  generic_name: ['IBUPROFEN'],
                  manufacturer_name: ['Haleon US Holdings LLC'],
                }
              : {
                  brand_name: ['GLUCOPHAGE'],
                  generic_name: ['METFORMIN HYDROCHLORIDE'],
                  manufacturer_name: ['Bristol-Myers Squibb'],
                },
          },
        ],
      },
    });
  }
  return out;
}

const LABELS: Rec[] = [
  {
    set_id: 'a1b2c3d4-0001',
    effective_time: '20250601',
    openfda: {
      brand_name: ['ADVIL'],
      generic_name: ['IBUPROFEN'],
      manufacturer_name: ['Haleon US Holdings LLC'],
      product_ndc: ['0573-0164'],
    },
    indications_and_usage: [
      'Uses temporarily relieves minor aches and pains due to: headache, toothache, backache, menstrual cramps, the common cold, muscular aches, minor pain of arthritis; temporarily reduces fever.',
    ],
    warnings: ['Allergy alert: Ibuprofen may cause a severe allergic reaction.'],
  },
  {
    set_id: 'a1b2c3d4-0002',
    effective_time: '20240115',
    openfda: {
      brand_name: ['MOTRIN IB'],
      generic_name: ['IBUPROFEN'],
      manufacturer_name: ['Kenvue Brands LLC'],
    },
    indications_and_usage: ['Temporarily relieves minor aches and pains.'],
    boxed_warning: ['Cardiovascular and gastrointestinal risk.'],
  },
  {
    set_id: 'a1b2c3d4-0003',
    effective_time: '20230310',
    openfda: {
      brand_name: ['GLUCOPHAGE'],
      generic_name: ['METFORMIN HYDROCHLORIDE'],
      manufacturer_name: ['Bristol-Myers Squibb'],
    },
    indications_and_usage: [
      'An adjunct to diet and exercise to improve glycemic control in adults with type 2 diabetes mellitus.',
    ],
    boxed_warning: ['Lactic acidosis.'],
  },
];

/** The research e2e's company as openFDA spells it: a sponsor and a label manufacturer. */
export const ACME_FDA_SPONSOR = 'ACME PHARMACEUTICALS, INC';

LABELS.push({
  set_id: 'a1b2c3d4-0004',
  effective_time: '20240901',
  openfda: {
    brand_name: ['ACMEPRANT'],
    generic_name: ['ACMEPRANT TARTRATE'],
    manufacturer_name: ['Acme Pharmaceuticals Inc.'],
  },
  indications_and_usage: ['Acute treatment of migraine with or without aura in adults.'],
});

const RECALLS: Rec[] = [
  {
    recall_number: 'D-0456-2026',
    reason_for_recall: 'Failed dissolution specifications.',
    status: 'Ongoing',
    classification: 'Class II',
    product_description: 'Ibuprofen Tablets USP, 200 mg, 100-count bottles',
    recalling_firm: 'Example Pharma Inc.',
    report_date: '20260304',
    recall_initiation_date: '20260210',
    distribution_pattern: 'Nationwide',
    state: 'NJ',
    country: 'United States',
    openfda: { brand_name: ['IBUPROFEN'], generic_name: ['IBUPROFEN'] },
  },
];

function day(offset: number): string {
  return new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
}

/** 31 Pfizer applications (more than a page), 4 Merck; approvals every 4 days back from today. */
function applications(): Rec[] {
  const out: Rec[] = [];
  for (let i = 0; i < 35; i++) {
    const pfizer = i < 31;
    const brand = `${pfizer ? 'PFIZ' : 'MERC'}ADRUG ${i + 1}`;
    out.push({
      application_number: `NDA${String(200_000 + i)}`,
      sponsor_name: pfizer ? 'PFIZER INC' : 'MERCK SHARP DOHME',
      openfda: { brand_name: [brand], generic_name: [`EXAMPLEMAB ${i + 1}`] },
      products: [
        {
          product_number: '001',
          brand_name: brand,
          dosage_form: 'TABLET',
          route: 'ORAL',
          marketing_status: 'Prescription',
          active_ingredients: [{ name: `EXAMPLEMAB ${i + 1}`, strength: '10MG' }],
        },
      ],
      submissions: [
        {
          submission_type: 'ORIG',
          submission_number: '1',
          submission_status: 'AP',
          submission_status_date: day(i * 4),
          review_priority: i % 2 ? 'STANDARD' : 'PRIORITY',
        },
        {
          submission_type: 'SUPPL',
          submission_number: '2',
          submission_status: 'AP',
          submission_status_date: day(i * 4 - 1),
        },
      ],
    });
  }
  // Acme's application, approved long ago so "recent" windows never hold it.
  out.push({
    application_number: 'NDA212345',
    sponsor_name: ACME_FDA_SPONSOR,
    openfda: { brand_name: ['ACMEPRANT'], generic_name: ['ACMEPRANT TARTRATE'] },
    products: [
      {
        product_number: '001',
        brand_name: 'ACMEPRANT',
        dosage_form: 'TABLET, EXTENDED RELEASE',
        route: 'ORAL',
        marketing_status: 'Prescription',
        active_ingredients: [{ name: 'ACMEPRANT TARTRATE', strength: '50MG' }],
      },
    ],
    submissions: [
      {
        submission_type: 'ORIG',
        submission_number: '1',
        submission_status: 'AP',
        submission_status_date: '20190315',
        review_priority: 'STANDARD',
      },
    ],
  });
  return out;
}

function valuesAt(rec: unknown, path: string[]): string[] {
  if (path.length === 0) {
    const leaves: unknown[] = Array.isArray(rec) ? rec : [rec];
    return leaves
      .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
      .map(String);
  }
  if (Array.isArray(rec)) return rec.flatMap((r) => valuesAt(r, path));
  if (rec === null || typeof rec !== 'object') return [];
  return valuesAt((rec as Rec)[path[0]!], path.slice(1));
}

const CLAUSE = /([\w.]+):(?:"([^"]*)"|\[(\S+) TO (\S+)\]|([^\s"[]+))/g;

/** A predicate for openFDA's search syntax as the agent writes it, or a string naming the error. */
function parseSearch(search: string): ((r: Rec) => boolean) | string {
  const clauses = [...search.matchAll(CLAUSE)].map((m) => {
    const path = m[1]!.replace(/\.exact$/, '').split('.');
    return (r: Rec) => {
      const vals = valuesAt(r, path).map((v) => v.toLowerCase());
      if (m[3] !== undefined) return vals.some((v) => v >= m[3]! && v <= m[4]!);
      const want = (m[2] ?? m[5]!).toLowerCase();
      return vals.some((v) => v.includes(want));
    };
  });
  if (clauses.length === 0) return `search: cannot parse "${search}"`;
  const all = / AND /.test(search);
  return (r) => (all ? clauses.every((c) => c(r)) : clauses.some((c) => c(r)));
}

function meta(skip: number, limit: number, total: number): Rec {
  return {
    disclaimer: 'Do not rely on openFDA to make decisions regarding medical care.',
    terms: 'https://open.fda.gov/terms/',
    license: 'https://open.fda.gov/license/',
    last_updated: '2026-11-20',
    results: { skip, limit, total },
  };
}

export interface FakeOpenFdaOptions {
  /** When set, a request with another api_key is refused (403). */
  apiKey?: string;
}

export function startFakeOpenFda(o: FakeOpenFdaOptions = {}): Promise<FixtureServer> {
  const data: Record<string, Rec[]> = {
    '/drug/event.json': events(),
    '/drug/label.json': LABELS,
    '/drug/enforcement.json': RECALLS,
    '/drug/drugsfda.json': applications(),
  };
  const error = (
    res: Parameters<typeof sendJson>[0],
    status: number,
    code: string,
    message: string
  ) => sendJson(res, status, { error: { code, message } });
  return startFixtureServer((req, res) => {
    const p = req.params;
    const recs = data[req.path];
    if (!recs) return error(res, 404, 'NOT_FOUND', 'Not Found');
    if (o.apiKey !== undefined && p.api_key !== undefined && p.api_key !== o.apiKey) {
      return error(res, 403, 'API_KEY_INVALID', 'An invalid api_key was supplied.');
    }
    if (p.search?.includes('outage')) {
      res
        .writeHead(500, 'Internal Server Error', { 'content-type': 'text/html' })
        .end('<h1>500</h1>');
      return;
    }
    const limit = Number(p.limit ?? (p.count ? '100' : '1'));
    const skip = Number(p.skip ?? '0');
    if (!Number.isInteger(limit) || limit > 1000 || limit < 0) {
      return error(
        res,
        400,
        'BAD_REQUEST',
        'Limit cannot exceed 1000 results for search requests.'
      );
    }
    if (!Number.isInteger(skip) || skip > 25_000) {
      return error(res, 400, 'BAD_REQUEST', 'Skip value must 25000 or less.');
    }
    let matched = recs;
    if (p.search !== undefined) {
      const pred = parseSearch(p.search);
      if (typeof pred === 'string') return error(res, 400, 'BAD_REQUEST', pred);
      matched = recs.filter(pred);
    }
    if (matched.length === 0) return error(res, 404, 'NOT_FOUND', 'No matches found!');
    if (p.count !== undefined) {
      const path = p.count.replace(/\.exact$/, '').split('.');
      const tally = new Map<string, number>();
      for (const r of matched) {
        for (const v of new Set(valuesAt(r, path))) tally.set(v, (tally.get(v) ?? 0) + 1);
      }
      const results = [...tally]
        .map(([term, count]) => ({
          term: p.count!.endsWith('.exact') ? term : Number(term),
          count,
        }))
        .sort((a, b) => b.count - a.count || String(a.term).localeCompare(String(b.term)))
        .slice(0, limit);
      return sendJson(res, 200, { meta: meta(0, limit, matched.length), results });
    }
    if (p.sort !== undefined) {
      const [field, dir] = p.sort.split(':');
      const path = field!.split('.');
      const key = (r: Rec) => valuesAt(r, path).sort().at(-1) ?? '';
      matched = [...matched].sort(
        (a, b) => key(a).localeCompare(key(b)) * (dir === 'asc' ? 1 : -1)
      );
    }
    const page = matched.slice(skip, skip + limit);
    if (page.length === 0) return error(res, 404, 'NOT_FOUND', 'No matches found!');
    sendJson(res, 200, { meta: meta(skip, limit, matched.length), results: page });
  });
}
