// EDGAR full-text search (efts.sec.gov/LATEST/search-index, not officially documented): an
// Elasticsearch answer {hits:{total:{value},hits:[{_id:"<adsh>:<file>",_source:{…}}]}}, 100 hits a
// page (paged with `from`; one page is read, more than a reply shows). Older answers name the filer `entity_name` and the date
// `display_date_filed`; both spellings are read.
import { UnavailableError } from '../../../../runtime/errors/index.js';
import type { Provenance } from '../upstream.js';
import { documentUrl, scalar, type SecClient } from './client.js';

export interface SearchHit {
  accession: string;
  file: string;
  form: string;
  filedAt: string;
  periodEnding: string | null;
  /** Filers as EDGAR prints them: "Apple Inc.  (AAPL)  (CIK 0000320193)". */
  names: string[];
  ciks: number[];
  description: string | null;
  locations: string[];
  url: string | null;
}

export interface SearchQuery {
  q: string;
  forms?: readonly string[];
  from?: string;
  to?: string;
  ciks?: readonly number[];
  limit: number;
}

export interface SearchResult {
  total: number | null;
  hits: SearchHit[];
  provenance: Provenance[];
}

const strs = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

function hit(site: string, h: Record<string, unknown>): SearchHit {
  const s = (h._source ?? {}) as Record<string, unknown>;
  const [adsh = '', file = ''] = scalar(h._id).split(':');
  const accession = typeof s.adsh === 'string' ? s.adsh : adsh;
  const ciks = strs(s.ciks).map(Number).filter(Number.isFinite);
  const names = s.display_names !== undefined ? strs(s.display_names) : strs(s.entity_name);
  const filedAt = scalar(s.file_date ?? s.display_date_filed);
  const first = ciks[0];
  return {
    accession,
    file,
    form: scalar(s.form ?? s.file_type ?? strs(s.root_forms)[0]),
    filedAt,
    periodEnding: typeof s.period_ending === 'string' ? s.period_ending : null,
    names,
    ciks,
    description: typeof s.file_description === 'string' ? s.file_description : null,
    locations: strs(s.biz_locations),
    url: first === undefined || file === '' ? null : documentUrl(site, first, accession, file),
  };
}

export async function fullTextSearch(sec: SecClient, q: SearchQuery): Promise<SearchResult> {
  const params: Record<string, string | undefined> = {
    q: q.q,
    forms: q.forms && q.forms.length > 0 ? q.forms.join(',') : undefined,
    ciks:
      q.ciks && q.ciks.length > 0
        ? q.ciks.map((c) => String(c).padStart(10, '0')).join(',')
        : undefined,
  };
  if (q.from !== undefined || q.to !== undefined) {
    params.dateRange = 'custom';
    params.startdt = q.from;
    params.enddt = q.to;
  }
  // One page: EFTS answers 100 hits a page, more than a reply shows (MAX_LIMIT).
  const a = await sec.efts.get({ path: '/search-index', params });
  const h = (a.body as { hits?: { total?: { value?: unknown }; hits?: unknown } } | undefined)
    ?.hits;
  if (h === undefined || !Array.isArray(h.hits)) {
    throw new UnavailableError(`${sec.efts.source} answered in an unknown shape`);
  }
  const total = typeof h.total?.value === 'number' ? h.total.value : null;
  const hits = (h.hits as Array<Record<string, unknown>>).map((x) => hit(sec.site, x));
  return { total, hits: hits.slice(0, q.limit), provenance: [a.provenance] };
}
