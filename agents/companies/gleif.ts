// GLEIF's LEI records (api.gleif.org/api/v1, keyless, CC0): JSON:API, `filter[entity.legalName]`,
// `page[size]` and `page[number]` followed while `meta.pagination.lastPage` says there is more and
// the answer wants more, up to the hub's page bound.
import { UnavailableError } from '../../runtime/errors/index.js';
import { readPages, type Provenance, type Upstream } from '../kit/public-data/index.js';

export const GLEIF_SOURCE = 'GLEIF';
export const GLEIF_PAGE = 10;

export interface LeiRecord {
  lei: string;
  legalName: string;
  jurisdiction: string | null;
  legalForm: string | null;
  entityStatus: string | null;
  registrationStatus: string | null;
  address: {
    lines: string[];
    city: string | null;
    region: string | null;
    country: string | null;
    postalCode: string | null;
  };
  initialRegistrationDate: string | null;
  lastUpdateDate: string | null;
  url: string;
}

const s = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function record(d: Record<string, unknown>): LeiRecord {
  const a = (d.attributes ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const e = (a.entity ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const r = a.registration ?? {};
  const addr = e.legalAddress ?? {};
  const lei = s(a.lei) ?? s(d.id) ?? '';
  return {
    lei,
    legalName: s(e.legalName?.name) ?? '',
    jurisdiction: s(e.jurisdiction),
    legalForm: s(e.legalForm?.id),
    entityStatus: s(e.status),
    registrationStatus: s(r.status),
    address: {
      lines: Array.isArray(addr.addressLines) ? addr.addressLines.map(String) : [],
      city: s(addr.city),
      region: s(addr.region),
      country: s(addr.country),
      postalCode: s(addr.postalCode),
    },
    initialRegistrationDate: s(r.initialRegistrationDate),
    lastUpdateDate: s(r.lastUpdateDate),
    url: `https://search.gleif.org/#/record/${lei}`,
  };
}

export async function leiByName(
  up: Upstream,
  name: string,
  limit: number,
  maxPages: number
): Promise<{ records: LeiRecord[]; total: number | null; provenance: Provenance[] }> {
  let total: number | null = null;
  const { items, provenance } = await readPages(limit, maxPages, async (n) => {
    // GLEIF numbers its pages from 1.
    const page = n + 1;
    const a = await up.get({
      path: '/lei-records',
      params: { 'filter[entity.legalName]': name, 'page[size]': GLEIF_PAGE, 'page[number]': page },
    });
    const b = a.body as {
      data?: unknown;
      meta?: { pagination?: { total?: unknown; lastPage?: unknown } };
    };
    if (!Array.isArray(b?.data))
      throw new UnavailableError(`${GLEIF_SOURCE} answered in an unknown shape`);
    const p = b.meta?.pagination;
    total = typeof p?.total === 'number' ? p.total : total;
    return {
      items: (b.data as Array<Record<string, unknown>>).map(record),
      provenance: a.provenance,
      more: typeof p?.lastPage === 'number' && page < p.lastPage,
    };
  });
  return { records: items.slice(0, limit), total, provenance };
}
