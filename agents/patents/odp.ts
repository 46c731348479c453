// USPTO Open Data Portal (data-sources.md "patents"): GET /api/v1/patent/applications/search with
// an OpenSearch query string in q and offset/limit paging, GET /api/v1/patent/applications/{app}
// for one application; the key goes in X-API-KEY. Records are patentFileWrapperDataBag entries.
import { z } from 'zod';
import { UnavailableError } from '../../runtime/errors/index.js';
import { readPages, readRows, type Provenance, type Upstream } from '../kit/public-data/index.js';
import type { PatentRef } from './parse.js';
import { patentUrl, type Found, type Patent, type PatentSource } from './patent.js';

export const ODP_SOURCE = 'USPTO Open Data Portal';
export const PAGE_SIZE = 25;
const SEARCH = '/api/v1/patent/applications/search';

/** A phrase inside an OpenSearch query string: quotes and backslashes cannot end it. */
export function phrase(s: string): string {
  return `"${s.replace(/["\\]/g, ' ').replace(/\s+/g, ' ').trim()}"`;
}

/** Free words for q: OpenSearch's reserved characters are dropped, so the text stays words. */
export function words(s: string): string {
  return s
    .replace(/[+\-=&|><!(){}[\]^"~*?:\\/]/g, ' ')
    .replace(/\b(?:AND|OR|NOT)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const str = z.string().nullish();
const Record_ = z.looseObject({
  applicationNumberText: z.string(),
  applicationMetaData: z
    .looseObject({
      inventionTitle: str,
      filingDate: str,
      grantDate: str,
      patentNumber: str,
      applicationStatusDescriptionText: str,
      firstApplicantName: str,
      applicantBag: z.array(z.looseObject({ applicantNameText: str })).nullish(),
      inventorBag: z.array(z.looseObject({ inventorNameText: str })).nullish(),
      cpcClassificationBag: z.array(z.string()).nullish(),
      abstractText: str,
    })
    .nullish(),
  assignmentBag: z
    .array(
      z.looseObject({
        assigneeBag: z.array(z.looseObject({ assigneeNameText: str })).nullish(),
      })
    )
    .nullish(),
  score: z.number().nullish(),
});
const Answer = z.looseObject({
  count: z.number().int().nullish(),
  patentFileWrapperDataBag: z.array(z.unknown()).nullish(),
});

function unique(xs: Array<string | null | undefined>): string[] {
  return [...new Set(xs.filter((x): x is string => typeof x === 'string' && x.trim() !== ''))];
}

export function readOdp(raw: unknown): Patent | undefined {
  const r = Record_.safeParse(raw);
  if (!r.success) return undefined;
  const m = r.data.applicationMetaData ?? {};
  const app = r.data.applicationNumberText;
  const assignees = unique([
    ...(r.data.assignmentBag ?? []).flatMap((a) =>
      (a.assigneeBag ?? []).map((x) => x.assigneeNameText)
    ),
    m.firstApplicantName,
    ...(m.applicantBag ?? []).map((a) => a.applicantNameText),
  ]);
  const p: Patent = {
    applicationNumber: app,
    title: m.inventionTitle ?? app,
    assignees,
    inventors: unique((m.inventorBag ?? []).map((i) => i.inventorNameText)),
    cpc: m.cpcClassificationBag ?? [],
    url: patentUrl(m.patentNumber ?? undefined, app),
  };
  if (m.patentNumber) p.patentNumber = m.patentNumber;
  if (m.abstractText) p.abstract = m.abstractText;
  if (m.filingDate) p.filingDate = m.filingDate;
  if (m.grantDate) p.grantDate = m.grantDate;
  if (m.applicationStatusDescriptionText) p.status = m.applicationStatusDescriptionText;
  if (typeof r.data.score === 'number') p.score = r.data.score;
  return p;
}

function unexpected(): UnavailableError {
  return new UnavailableError(
    `${ODP_SOURCE} answered JSON in an unexpected shape; ask the operator to check PATENTS_URL ` +
      'and PATENTS_PROVIDER'
  );
}

/** No application of that number: ODP's 404, or an empty bag. */
const notFound = (status: number) => status === 404;

export class OdpSource implements PatentSource {
  readonly source = ODP_SOURCE;
  constructor(private readonly up: Upstream) {}

  private async query(q: string, want: number, maxPages: number): Promise<Found> {
    let total = 0;
    const { items, provenance } = await readPages(want, maxPages, async (page, have) => {
      const offset = page * PAGE_SIZE;
      const a = await this.up.get({
        path: SEARCH,
        params: { q, offset, limit: Math.min(PAGE_SIZE, want - have) },
        noMatches: notFound,
      });
      if (a.body === undefined) return { items: [], provenance: a.provenance, more: false };
      const body = Answer.safeParse(a.body);
      if (!body.success) throw unexpected();
      const bag = body.data.patentFileWrapperDataBag ?? [];
      total = body.data.count ?? total;
      return {
        items: readRows(bag, readOdp),
        provenance: a.provenance,
        more: bag.length > 0 && offset + bag.length < total,
      };
    });
    return { patents: items.slice(0, want), total: Math.max(total, items.length), provenance };
  }

  search(concept: string, want: number, maxPages: number): Promise<Found> {
    return this.query(words(concept), want, maxPages);
  }

  byAssignee(assignee: string, want: number, maxPages: number): Promise<Found> {
    const q =
      `applicationMetaData.firstApplicantName:${phrase(assignee)} OR ` +
      `assignmentBag.assigneeBag.assigneeNameText:${phrase(assignee)}`;
    return this.query(q, want, maxPages);
  }

  async detail(ref: PatentRef): Promise<{ patent: Patent | undefined; provenance: Provenance[] }> {
    if (ref.kind === 'patent') {
      const r = await this.query(`applicationMetaData.patentNumber:${ref.number}`, 1, 1);
      return { patent: r.patents[0], provenance: r.provenance };
    }
    const a = await this.up.get({
      path: `/api/v1/patent/applications/${ref.number}`,
      noMatches: notFound,
    });
    if (a.body === undefined) return { patent: undefined, provenance: [a.provenance] };
    const body = Answer.safeParse(a.body);
    if (!body.success) throw unexpected();
    const first = body.data.patentFileWrapperDataBag?.[0];
    return { patent: first === undefined ? undefined : readOdp(first), provenance: [a.provenance] };
  }
}
