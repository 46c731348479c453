// NSF Award Search API (data-sources.md "research-grants"): GET /awards.json with keyword,
// awardeeName, piFirstName/piLastName and award dates (MM/DD/YYYY); `offset` is 1-based and `rpp`
// at most 25. Amounts come as strings. A refused request is a 200 whose `serviceNotification`
// says why, and an empty result may have no `award` list at all.
import { z } from 'zod';
import { UnavailableError } from '../../runtime/errors/index.js';
import { fail } from '../kit/index.js';
import { readPages, readRows, type Provenance, type Upstream } from '../kit/public-data/index.js';
import { dollars, fromUsDate, snippet, toUsDate, type Found, type Grant } from './grant.js';
import type { GrantQuery } from './nih.js';

export const NSF = 'NSF Award Search';
/** NSF's largest page. */
export const NSF_RPP = 25;

const FIELDS = [
  'id',
  'title',
  'agency',
  'awardeeName',
  'awardeeCity',
  'awardeeStateCode',
  'fundsObligatedAmt',
  'estimatedTotalAmt',
  'startDate',
  'expDate',
  'date',
  'piFirstName',
  'piLastName',
  'pdPIName',
  'fundProgramName',
  'abstractText',
].join(',');

/** NSF's parameters for a query (offset and rpp added per page). */
export function nsfParams(q: GrantQuery): Record<string, string> {
  const p: Record<string, string> = { printFields: FIELDS };
  if (q.text !== undefined) p.keyword = q.text;
  if (q.institution !== undefined) p.awardeeName = q.institution;
  if (q.investigator !== undefined) {
    const parts = q.investigator.trim().split(/\s+/);
    p.piLastName = parts[parts.length - 1]!;
    if (parts.length >= 2) p.piFirstName = parts[0]!;
  }
  if (q.year !== undefined) {
    p.dateStart = `01/01/${q.year}`;
    p.dateEnd = `12/31/${q.year}`;
  }
  if (q.since !== undefined) p.dateStart = toUsDate(q.since);
  return p;
}

export async function searchNsf(
  up: Upstream,
  q: GrantQuery,
  limit: number,
  maxPages: number
): Promise<Found & { provenance: Provenance[] }> {
  const base = nsfParams(q);
  let total: number | undefined;
  const read = await readPages(limit, maxPages, async (_n, have) => {
    const rpp = Math.min(NSF_RPP, limit - have);
    const a = await up.get({
      path: '/awards.json',
      // 1-based: the first page starts at 1, the next at 1 + the rows already read.
      params: { ...base, offset: 1 + have, rpp },
      cacheable: (b) => refusal(b) === undefined,
    });
    const why = refusal(a.body);
    if (why !== undefined) fail(`${NSF} refused the request: ${why}`);
    const body = Answer.safeParse(a.body);
    if (!body.success) throw unexpected();
    const awards = body.data.response.award ?? [];
    total ??= body.data.response.metadata?.totalCount ?? undefined;
    return {
      items: readRows(awards, readAward),
      provenance: a.provenance,
      more: awards.length >= rpp,
    };
  });
  const { items: grants, provenance } = read;
  return { source: 'NSF', grants, ...(total !== undefined ? { total } : {}), provenance };
}

function unexpected(): UnavailableError {
  return new UnavailableError(
    `${NSF} answered JSON in an unexpected shape; ask the operator to check RESEARCH_GRANTS_NSF_URL`
  );
}

const Notification = z.looseObject({
  notificationType: z.string().nullish(),
  notificationMessage: z.string().nullish(),
});

/** The error NSF states inside a 200 answer, or undefined. */
export function refusal(body: unknown): string | undefined {
  const p = z
    .looseObject({
      response: z.looseObject({
        serviceNotification: z.union([z.array(Notification), Notification]).nullish(),
      }),
    })
    .safeParse(body);
  if (!p.success) return undefined;
  const n = p.data.response.serviceNotification;
  const list = n === null || n === undefined ? [] : Array.isArray(n) ? n : [n];
  const err = list.find((x) => (x.notificationType ?? '').toUpperCase() === 'ERROR');
  return err ? (err.notificationMessage ?? 'no reason given') : undefined;
}

const Str = z.string().nullish();
const Answer = z.looseObject({
  response: z.looseObject({
    award: z.array(z.unknown()).nullish(),
    metadata: z.looseObject({ totalCount: z.number().int().nullish() }).nullish(),
  }),
});

const Award = z.looseObject({
  id: z.union([z.string(), z.number()]),
  title: Str,
  awardeeName: Str,
  awardeeCity: Str,
  awardeeStateCode: Str,
  fundsObligatedAmt: z.union([z.string(), z.number()]).nullish(),
  estimatedTotalAmt: z.union([z.string(), z.number()]).nullish(),
  startDate: Str,
  expDate: Str,
  date: Str,
  piFirstName: Str,
  piLastName: Str,
  pdPIName: Str,
  fundProgramName: Str,
  abstractText: Str,
});

/** An NSF award as a Grant; undefined when it is not one. */
export function readAward(raw: unknown): Grant | undefined {
  const p = Award.safeParse(raw);
  if (!p.success) return undefined;
  const r = p.data;
  const id = String(r.id);
  const pi = [r.piFirstName, r.piLastName].filter(Boolean).join(' ') || (r.pdPIName ?? '').trim();
  const g: Grant = {
    source: 'NSF',
    id,
    title: r.title?.trim() || id,
    institution: r.awardeeName ?? '',
    investigators: pi !== '' ? [pi] : [],
    amount: dollars(r.fundsObligatedAmt) ?? dollars(r.estimatedTotalAmt),
    url: `https://www.nsf.gov/awardsearch/showAward?AWD_ID=${encodeURIComponent(id)}`,
  };
  if (r.awardeeCity) g.city = r.awardeeCity;
  if (r.awardeeStateCode) g.state = r.awardeeStateCode;
  const start = fromUsDate(r.startDate);
  const end = fromUsDate(r.expDate);
  if (start) g.startDate = start;
  if (end) g.endDate = end;
  if (r.fundProgramName) g.funder = r.fundProgramName;
  const abstract = snippet(r.abstractText);
  if (abstract) g.abstract = abstract;
  return g;
}
