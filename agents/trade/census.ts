// US Census international trade time series (data-sources.md "trade"):
// GET {CENSUS_URL}/{exports|imports}/hs?get=CTY_CODE,CTY_NAME,<value>,<commodity>…&time=YYYY-MM
// [&E_COMMODITY|I_COMMODITY=<HS>&COMM_LVL=HS2|HS4|HS6|HS10][&CTY_CODE=…][&key=]. The answer is a
// 2-D array whose first row holds the headers and every value is a string (predicates come back
// as extra columns); 204 means no data. Without a commodity each row is a country's total.
import { UnavailableError } from '../../runtime/errors/index.js';
import type { Provenance, Upstream } from '../kit/public-data/index.js';

export const CENSUS = 'U.S. Census Bureau international trade';

export type Flow = 'exports' | 'imports';

/** The variables of each flow: values in U.S. dollars, monthly and year to date. */
export const VARS = {
  exports: {
    month: 'ALL_VAL_MO',
    year: 'ALL_VAL_YR',
    code: 'E_COMMODITY',
    desc: 'E_COMMODITY_LDESC',
  },
  imports: {
    month: 'GEN_VAL_MO',
    year: 'GEN_VAL_YR',
    code: 'I_COMMODITY',
    desc: 'I_COMMODITY_LDESC',
  },
} as const;

export interface CensusRow {
  ctyCode: string;
  ctyName: string;
  /** U.S. dollars for the period asked (the month, or the year to December). */
  value: number;
  commodity?: string;
  commodityName?: string;
}

export interface CensusQuery {
  flow: Flow;
  /** "2024" (the year: December's year-to-date values) or "2024-06" (that month). */
  period: string;
  commodity?: string | undefined;
  /** Chapters (HS2) of every commodity instead of totals. */
  byChapter?: boolean;
  ctyCode?: string | undefined;
}

export async function census(
  up: Upstream,
  q: CensusQuery
): Promise<{ rows: CensusRow[]; provenance: Provenance }> {
  const v = VARS[q.flow];
  const year = /^\d{4}$/.test(q.period);
  const value = year ? v.year : v.month;
  const detail = q.commodity !== undefined || q.byChapter === true;
  const get = ['CTY_CODE', 'CTY_NAME', value, ...(detail ? [v.code, v.desc] : [])];
  const a = await up.get({
    path: `/${q.flow}/hs`,
    params: {
      get: get.join(','),
      time: year ? `${q.period}-12` : q.period,
      ...(q.commodity !== undefined
        ? { [v.code]: q.commodity, COMM_LVL: `HS${q.commodity.length}` }
        : q.byChapter
          ? { COMM_LVL: 'HS2' }
          : {}),
      ...(q.ctyCode !== undefined ? { CTY_CODE: q.ctyCode } : {}),
    },
    noMatches: (status) => status === 204,
  });
  if (a.body === undefined) return { rows: [], provenance: a.provenance };
  const table = readTable(a.body);
  const rows = table.map((r) => {
    const row: CensusRow = {
      ctyCode: r.CTY_CODE ?? '',
      ctyName: r.CTY_NAME ?? '',
      value: Number(r[value] ?? NaN),
    };
    if (detail && r[v.code] !== undefined) row.commodity = r[v.code];
    if (detail && r[v.desc] !== undefined) row.commodityName = r[v.desc];
    return row;
  });
  if (rows.some((r) => !Number.isFinite(r.value))) throw unexpected();
  return { rows, provenance: a.provenance };
}

/** The header row names the columns of every other row; all values are strings. */
export function readTable(body: unknown): Array<Record<string, string>> {
  if (!Array.isArray(body) || body.length === 0) throw unexpected();
  const [head, ...rest] = body as unknown[][];
  if (!Array.isArray(head) || !head.every((h) => typeof h === 'string')) throw unexpected();
  const names = head;
  return rest.map((r) => {
    if (!Array.isArray(r) || r.length !== names.length) throw unexpected();
    // Every value is a string; a null (a suppressed figure) reads as empty.
    return Object.fromEntries(names.map((h, i) => [h, typeof r[i] === 'string' ? r[i] : '']));
  });
}

/** Census's own rows that are not one country: the total ("-") and groups (0003, 5XXX, …). */
export function isCountry(code: string): boolean {
  return /^[1-7]\d{3}$/.test(code);
}

export const WORLD = '-';

function unexpected(): UnavailableError {
  return new UnavailableError(
    `${CENSUS} answered in an unexpected shape; ask the operator to check CENSUS_URL`
  );
}
