// UN Comtrade (data-sources.md "trade"): GET {COMTRADE_URL}/data/v1/get/C/A/HS?reporterCode=
// &period=&partnerCode=&cmdCode=&flowCode=M|X&includeDesc=true with Ocp-Apim-Subscription-Key, or
// without a key the public preview /public/v1/preview/C/A/HS (at most 500 rows an answer). Codes
// are UN M49 (USA 842, World 0). Names and codes are resolved both ways through Comtrade's own
// keyless reference files (/files/v1/app/reference/{HS,Reporters,partnerAreas}.json), cached 30 days.
import { z } from 'zod';
import { UnavailableError } from '../../runtime/errors/index.js';
import { fail } from '../kit/index.js';
import type { Provenance, Upstream } from '../kit/public-data/index.js';
import type { Flow } from './census.js';

export const COMTRADE = 'UN Comtrade';
/** The preview's row cap. */
export const PREVIEW_ROWS = 500;
/** Reference files change a few times a year. */
const REFERENCE_TTL_MS = 30 * 24 * 3600 * 1000;

export interface ComtradeRow {
  reporterCode: number;
  reporter: string;
  partnerCode: number;
  partner: string;
  commodity: string;
  commodityName: string;
  /** U.S. dollars. */
  value: number;
  period: string;
}

export interface ComtradeQuery {
  flow: Flow;
  reporterCode: number;
  period: string;
  /** Omitted: every partner. */
  partnerCode?: number | undefined;
  commodity: string;
}

export async function comtrade(
  up: Upstream,
  keyed: boolean,
  q: ComtradeQuery
): Promise<{ rows: ComtradeRow[]; capped: boolean; provenance: Provenance }> {
  const a = await up.get({
    path: keyed ? '/data/v1/get/C/A/HS' : '/public/v1/preview/C/A/HS',
    params: {
      reporterCode: q.reporterCode,
      period: q.period,
      partnerCode: q.partnerCode,
      cmdCode: q.commodity,
      flowCode: q.flow === 'exports' ? 'X' : 'M',
      includeDesc: 'true',
    },
  });
  const body = DataAnswer.safeParse(a.body);
  if (!body.success) throw unexpected();
  if (body.data.error) fail(`${COMTRADE} refused the query: ${body.data.error}`);
  const rows = (body.data.data ?? []).map((r) => ({
    reporterCode: r.reporterCode,
    reporter: r.reporterDesc ?? String(r.reporterCode),
    partnerCode: r.partnerCode,
    partner: r.partnerDesc ?? String(r.partnerCode),
    commodity: r.cmdCode,
    commodityName: r.cmdDesc ?? r.cmdCode,
    value: r.primaryValue ?? 0,
    period: String(r.period ?? q.period),
  }));
  return { rows, capped: !keyed && rows.length >= PREVIEW_ROWS, provenance: a.provenance };
}

export interface Area {
  code: number;
  name: string;
  iso2?: string;
  iso3?: string;
  isGroup: boolean;
}

export interface HsEntry {
  code: string;
  name: string;
}

export async function areas(
  up: Upstream,
  kind: 'Reporters' | 'partnerAreas'
): Promise<{ areas: Area[]; provenance: Provenance }> {
  const a = await up.get({
    path: `/files/v1/app/reference/${kind}.json`,
    cacheTtlMs: REFERENCE_TTL_MS,
  });
  const body = Reference.safeParse(a.body);
  if (!body.success) throw unexpected();
  const out: Area[] = [];
  for (const r of body.data.results) {
    const code = Number(r.id);
    if (!Number.isInteger(code)) continue;
    const name = (kind === 'Reporters' ? r.reporterDesc : r.PartnerDesc) ?? r.text;
    const iso2 = r.reporterCodeIsoAlpha2 ?? r.PartnerCodeIsoAlpha2;
    const iso3 = r.reporterCodeIsoAlpha3 ?? r.PartnerCodeIsoAlpha3;
    out.push({
      code,
      name,
      ...(iso2 ? { iso2 } : {}),
      ...(iso3 ? { iso3 } : {}),
      isGroup: r.isGroup === true,
    });
  }
  return { areas: out, provenance: a.provenance };
}

export async function hsCodes(up: Upstream): Promise<{ codes: HsEntry[]; provenance: Provenance }> {
  const a = await up.get({ path: '/files/v1/app/reference/HS.json', cacheTtlMs: REFERENCE_TTL_MS });
  const body = Reference.safeParse(a.body);
  if (!body.success) throw unexpected();
  const codes = body.data.results
    .filter((r) => /^\d{2,6}$/.test(String(r.id)))
    // "8517 - Telephone sets, …": the code leads the text.
    .map((r) => ({ code: String(r.id), name: r.text.replace(/^\s*\d+\s*-\s*/, '') }));
  return { codes, provenance: a.provenance };
}

function unexpected(): UnavailableError {
  return new UnavailableError(
    `${COMTRADE} answered in an unexpected shape; ask the operator to check COMTRADE_URL`
  );
}

const Str = z.string().nullish();
const DataAnswer = z.looseObject({
  count: z.number().nullish(),
  error: Str,
  data: z
    .array(
      z.looseObject({
        period: z.union([z.string(), z.number()]).nullish(),
        reporterCode: z.number(),
        reporterDesc: Str,
        partnerCode: z.number(),
        partnerDesc: Str,
        cmdCode: z.string(),
        cmdDesc: Str,
        primaryValue: z.number().nullish(),
      })
    )
    .nullish(),
});

const Reference = z.looseObject({
  results: z.array(
    z.looseObject({
      id: z.union([z.string(), z.number()]),
      text: z.string(),
      reporterDesc: Str,
      PartnerDesc: Str,
      reporterCodeIsoAlpha2: Str,
      reporterCodeIsoAlpha3: Str,
      PartnerCodeIsoAlpha2: Str,
      PartnerCodeIsoAlpha3: Str,
      isGroup: z.boolean().nullish(),
    })
  ),
});
