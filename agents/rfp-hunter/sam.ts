// SAM.gov Get Opportunities v2 (data-sources.md "rfp-hunter"): GET /opportunities/v2/search with
// api_key, postedFrom/postedTo (MM/dd/yyyy, required, at most a year apart) and offset/limit
// paging. A missing or refused key answers 404, which is reported as "not configured or key
// refused" and never cached. One solicitation may have several notices (amendments).
import { z } from 'zod';
import { HubError, UnavailableError } from '../../runtime/errors/index.js';
import type { Provenance, Upstream } from '../kit/public-data/index.js';
import { SAM, isoDate, merge, type Opportunity } from './opportunity.js';

const SEARCH = '/opportunities/v2/search';

/** SAM.gov cannot be asked: no key set, or the key refused (its 404). */
export class SamUnavailable extends HubError {
  constructor(message: string) {
    super('UNPROCESSABLE', message);
  }
}

export const SAM_NOT_CONFIGURED =
  'SAM.gov: not configured: set SAM_API_KEY (a SAM.gov public API key); procurement notices need it';
export const SAM_REFUSED =
  'SAM.gov: not configured or key refused (HTTP 404); ask the operator to check SAM_API_KEY';

/** YYYY-MM-DD → SAM's MM/dd/yyyy. */
export function samDate(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${m}/${d}/${y}`;
}

export interface SamQuery {
  title?: string;
  from: string;
  to: string;
  solnum?: string;
  noticeid?: string;
  naics?: string;
  state?: string;
}

const s = z.string().nullish();
const Notice = z.looseObject({
  noticeId: z.string(),
  title: s,
  solicitationNumber: s,
  fullParentPathName: s,
  postedDate: s,
  type: s,
  baseType: s,
  typeOfSetAsideDescription: s,
  typeOfSetAside: s,
  responseDeadLine: s,
  naicsCode: s,
  active: s,
  uiLink: s,
});
const Answer = z.looseObject({
  totalRecords: z.number().int(),
  opportunitiesData: z.array(z.unknown()).nullish(),
});

export function readNotice(raw: unknown): Opportunity | undefined {
  const p = Notice.safeParse(raw);
  if (!p.success) return undefined;
  const n = p.data;
  return {
    source: SAM,
    id: n.noticeId,
    url: n.uiLink ?? `https://sam.gov/opp/${n.noticeId}/view`,
    number: n.solicitationNumber ?? null,
    title: n.title ?? n.solicitationNumber ?? n.noticeId,
    agency: n.fullParentPathName ?? null,
    kind: 'procurement',
    type: n.type ?? n.baseType ?? null,
    status: n.active === 'Yes' ? 'active' : n.active === 'No' ? 'inactive' : null,
    postedDate: isoDate(n.postedDate),
    deadline: isoDate(n.responseDeadLine),
    setAside: n.typeOfSetAsideDescription ?? n.typeOfSetAside ?? null,
    naics: n.naicsCode ?? null,
    notices: 1,
    alsoOn: [],
  };
}

function unexpected(): UnavailableError {
  return new UnavailableError(
    `${SAM} answered JSON in an unexpected shape; ask the operator to check SAM_URL`
  );
}

export interface SamPage {
  opportunities: Opportunity[];
  total: number;
  provenance: Provenance[];
}

/**
 * Notices for a query, amendments folded: pages of `limit` are read until `limit` solicitations
 * are found, the notices run out, or `maxPages` pages were read.
 */
export async function searchSam(
  up: Upstream | undefined,
  q: SamQuery,
  limit: number,
  maxPages: number
): Promise<SamPage> {
  if (up === undefined) throw new SamUnavailable(SAM_NOT_CONFIGURED);
  const provenance: Provenance[] = [];
  let all: Opportunity[] = [];
  let total = 0;
  for (let page = 0; page < maxPages; page++) {
    const a = await up.get({
      path: SEARCH,
      params: {
        postedFrom: samDate(q.from),
        postedTo: samDate(q.to),
        title: q.title,
        solnum: q.solnum,
        noticeid: q.noticeid,
        ncode: q.naics,
        state: q.state,
        limit,
        offset: page * limit,
      },
      refused: (status) => (status === 404 ? new SamUnavailable(SAM_REFUSED) : undefined),
    });
    provenance.push(a.provenance);
    const body = Answer.safeParse(a.body);
    if (!body.success) throw unexpected();
    total = body.data.totalRecords;
    const notices = (body.data.opportunitiesData ?? []).map(readNotice);
    if (notices.some((n) => n === undefined)) throw unexpected();
    all = merge(all, notices as Opportunity[]);
    if (all.length >= limit || (page + 1) * limit >= total || notices.length === 0) break;
  }
  return { opportunities: all.slice(0, limit), total, provenance };
}
