// Company registry fixtures (data-sources.md "companies"): GLEIF's JSON:API
// (GET /api/v1/lei-records?filter[entity.legalName]=&page[size]=&page[number]=, legal names
// matched whole and case-insensitively, meta.pagination with lastPage), and UK Companies House
// (HTTP Basic with the key as user and an empty password, else 401 {"error":"Invalid
// Authorization"}; GET /search/companies?q=&items_per_page=&start_index=, /company/{no}/officers,
// 404 for an unknown number). Records written for the tests; "GLOBAL TRADING LIMITED" has 12 LEIs
// (more than a page).
import { sendJson, startFixtureServer, type FixtureServer } from './fixture-server.js';

interface Entity {
  lei: string;
  name: string;
  country: string;
  city: string;
  jurisdiction: string;
}

export const ENTITIES: Entity[] = [
  {
    lei: 'HWUPKR0MPOU8FGXBT394',
    name: 'Apple Inc.',
    country: 'US',
    city: 'Cupertino',
    jurisdiction: 'US-CA',
  },
  {
    lei: '765LHXWGK1KXCLTFYQ30',
    name: 'PFIZER INC',
    country: 'US',
    city: 'New York',
    jurisdiction: 'US-DE',
  },
  ...Array.from({ length: 12 }, (_, i) => ({
    lei: `5493000GLOBALTRAD${String(i).padStart(3, '0')}`,
    name: 'GLOBAL TRADING LIMITED',
    country: ['GB', 'IE', 'HK'][i % 3]!,
    city: ['London', 'Dublin', 'Hong Kong'][i % 3]!,
    jurisdiction: ['GB', 'IE', 'HK'][i % 3]!,
  })),
];

function leiRecord(e: Entity) {
  return {
    type: 'lei-records',
    id: e.lei,
    attributes: {
      lei: e.lei,
      entity: {
        legalName: { name: e.name, language: 'en' },
        otherNames: [],
        legalAddress: {
          language: 'en',
          addressLines: ['1 Main Street'],
          city: e.city,
          region: null,
          country: e.country,
          postalCode: '00000',
        },
        headquartersAddress: {
          language: 'en',
          addressLines: ['1 Main Street'],
          city: e.city,
          region: null,
          country: e.country,
          postalCode: '00000',
        },
        registeredAt: { id: 'RA000001', other: null },
        registeredAs: '0000001',
        jurisdiction: e.jurisdiction,
        category: 'GENERAL',
        legalForm: { id: 'XTIQ', other: null },
        status: 'ACTIVE',
      },
      registration: {
        initialRegistrationDate: '2012-06-06T15:52:00Z',
        lastUpdateDate: '2026-06-01T08:00:00Z',
        status: 'ISSUED',
        nextRenewalDate: '2027-06-01T00:00:00Z',
        managingLou: '5493001KJTIIGC8Y1R12',
        corroborationLevel: 'FULLY_CORROBORATED',
      },
      bic: null,
    },
    links: { self: `https://api.gleif.org/api/v1/lei-records/${e.lei}` },
  };
}

export function startFakeGleif(): Promise<FixtureServer> {
  return startFixtureServer((r, res) => {
    if (r.path !== '/api/v1/lei-records') {
      sendJson(res, 404, { errors: [{ status: '404', title: 'Not Found' }] });
      return;
    }
    const name = (r.params['filter[entity.legalName]'] ?? '').toLowerCase();
    const size = Number(r.params['page[size]'] ?? 10);
    const page = Number(r.params['page[number]'] ?? 1);
    const all = ENTITIES.filter((e) => e.name.toLowerCase() === name);
    const lastPage = Math.max(1, Math.ceil(all.length / size));
    sendJson(
      res,
      200,
      {
        meta: {
          goldenCopy: { publishDate: '2026-11-27T08:00:00Z' },
          pagination: {
            currentPage: page,
            perPage: size,
            from: (page - 1) * size + 1,
            to: Math.min(all.length, page * size),
            total: all.length,
            lastPage,
          },
        },
        links: { first: '…', last: '…' },
        data: all.slice((page - 1) * size, page * size).map(leiRecord),
      },
      { 'content-type': 'application/vnd.api+json' }
    );
  });
}

const CH = [
  {
    company_number: '00526209',
    title: 'PFIZER LIMITED',
    company_status: 'active',
    date_of_creation: '1953-12-24',
    address_snippet: 'Ramsgate Road, Sandwich, Kent, CT13 9NJ',
  },
  {
    company_number: '01357472',
    title: 'PFIZER HOLDINGS LIMITED',
    company_status: 'dissolved',
    date_of_creation: '1978-03-01',
    address_snippet: 'Ramsgate Road, Sandwich, Kent, CT13 9NJ',
  },
];

const OFFICERS: Record<string, unknown[]> = {
  '00526209': [
    {
      name: 'SMITH, Jane Alice',
      officer_role: 'director',
      appointed_on: '2019-04-01',
      nationality: 'British',
      occupation: 'Finance Director',
      country_of_residence: 'England',
      links: { officer: { appointments: '/officers/abc/appointments' } },
    },
    {
      name: 'JONES, Robert',
      officer_role: 'secretary',
      appointed_on: '2015-01-12',
      resigned_on: '2024-06-30',
    },
  ],
};

export function startFakeCompaniesHouse(apiKey: string): Promise<FixtureServer> {
  const expected = `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;
  return startFixtureServer((r, res) => {
    if (r.headers.authorization !== expected) {
      sendJson(res, 401, { error: 'Invalid Authorization', type: 'ch:service' });
      return;
    }
    if (r.path === '/search/companies') {
      const q = (r.params.q ?? '')
        .toLowerCase()
        .split(/\s+/)
        .filter((w) => w !== '');
      const hits = CH.filter((c) => q.every((w) => c.title.toLowerCase().includes(w)));
      const per = Number(r.params.items_per_page ?? 20);
      sendJson(res, 200, {
        total_results: hits.length,
        items_per_page: per,
        start_index: Number(r.params.start_index ?? 0),
        kind: 'search#companies',
        items: hits.slice(0, per).map((c) => ({
          ...c,
          kind: 'searchresults#company',
          company_type: 'ltd',
          description: `${c.company_number} - Incorporated on ${c.date_of_creation}`,
          address: {
            premises: 'Ramsgate Road',
            locality: 'Sandwich',
            postal_code: 'CT13 9NJ',
            country: 'England',
          },
          links: { self: `/company/${c.company_number}` },
          matches: { title: [1, 6] },
        })),
      });
      return;
    }
    const m = /^\/company\/([A-Z0-9]{8})\/officers$/.exec(r.path);
    if (m && OFFICERS[m[1]!] !== undefined) {
      const items = OFFICERS[m[1]!]!;
      sendJson(res, 200, {
        items,
        active_count: 1,
        resigned_count: 1,
        total_results: items.length,
        items_per_page: 35,
        start_index: 0,
        kind: 'officer-list',
        links: { self: r.path },
      });
      return;
    }
    sendJson(res, 404, { errors: [{ error: 'company-profile-not-found', type: 'ch:service' }] });
  });
}
