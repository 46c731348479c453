// UK Companies House (api.company-information.service.gov.uk): the key is the HTTP Basic user
// with an empty password, never shown nor part of the cache key; 600 requests per 5 minutes.
// Without a key every part that needs it answers "not configured".
import type { AgentContext } from '../kit/index.js';
import { Upstream, upstreamOptions, type Provenance } from '../kit/public-data/index.js';

export const CH_SOURCE = 'Companies House';
export const CH_NOT_CONFIGURED =
  'not configured: set COMPANIES_HOUSE_API_KEY (a Companies House API key, sent as the HTTP Basic user)';

export function companiesHouse(ctx: AgentContext): Upstream | undefined {
  const ch = ctx.config.publicData.companiesHouse;
  if (ch.apiKey === undefined) return undefined;
  return new Upstream(
    upstreamOptions(ctx, ch, {
      source: CH_SOURCE,
      bucket: 'companies-house',
      urlSetting: 'COMPANIES_HOUSE_URL',
      secretHeaders: { authorization: `Basic ${Buffer.from(`${ch.apiKey}:`).toString('base64')}` },
    })
  );
}

export interface ChCompany {
  companyNumber: string;
  name: string;
  status: string | null;
  type: string | null;
  createdOn: string | null;
  address: string | null;
  url: string;
}

const s = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export async function searchCompanies(
  up: Upstream,
  q: string,
  limit: number
): Promise<{ total: number | null; items: ChCompany[]; provenance: Provenance[] }> {
  const a = await up.get({
    path: '/search/companies',
    params: { q, items_per_page: limit, start_index: 0 },
  });
  const b = (a.body ?? {}) as { total_results?: unknown; items?: Array<Record<string, unknown>> };
  const items = (b.items ?? []).map((i) => {
    const no = s(i.company_number) ?? '';
    return {
      companyNumber: no,
      name: s(i.title) ?? '',
      status: s(i.company_status),
      type: s(i.company_type),
      createdOn: s(i.date_of_creation),
      address: s(i.address_snippet),
      url: `https://find-and-update.company-information.service.gov.uk/company/${no}`,
    };
  });
  return {
    total: typeof b.total_results === 'number' ? b.total_results : null,
    items,
    provenance: [a.provenance],
  };
}

export interface ChOfficer {
  name: string;
  role: string | null;
  appointedOn: string | null;
  resignedOn: string | null;
  nationality: string | null;
  occupation: string | null;
}

export async function officersOf(
  up: Upstream,
  companyNumber: string
): Promise<{ officers: ChOfficer[] | undefined; provenance: Provenance[] }> {
  const a = await up.get({
    path: `/company/${encodeURIComponent(companyNumber)}/officers`,
    params: { items_per_page: 35 },
    noMatches: (status) => status === 404,
  });
  if (a.body === undefined) return { officers: undefined, provenance: [a.provenance] };
  const items = ((a.body as { items?: unknown }).items ?? []) as Array<Record<string, unknown>>;
  return {
    officers: items.map((o) => ({
      name: s(o.name) ?? '',
      role: s(o.officer_role),
      appointedOn: s(o.appointed_on),
      resignedOn: s(o.resigned_on),
      nationality: s(o.nationality),
      occupation: s(o.occupation),
    })),
    provenance: [a.provenance],
  };
}
