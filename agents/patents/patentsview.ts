// A PatentsView-compatible host (data-sources.md "patents", legacy): GET /api/v1/patent/ with the
// query, fields, sort and options as JSON in q, f, s and o; cursor paging with o.after (the last
// sort value); the key in X-Api-Key. Kept for operators who run or reach such a host.
import { z } from 'zod';
import { UnavailableError } from '../../runtime/errors/index.js';
import { fail } from '../kit/index.js';
import { readPages, readRows, type Provenance, type Upstream } from '../kit/public-data/index.js';
import type { PatentRef } from './parse.js';
import { patentUrl, type Found, type Patent, type PatentSource } from './patent.js';

export const PATENTSVIEW_SOURCE = 'PatentsView';
export const PAGE_SIZE = 25;

const FIELDS = [
  'patent_id',
  'patent_title',
  'patent_date',
  'patent_abstract',
  'assignees.assignee_organization',
  'inventors.inventor_name_first',
  'inventors.inventor_name_last',
];
const SORT = [{ patent_id: 'asc' }];

const str = z.string().nullish();
const Record_ = z.looseObject({
  patent_id: z.string(),
  patent_title: str,
  patent_date: str,
  patent_abstract: str,
  assignees: z.array(z.looseObject({ assignee_organization: str })).nullish(),
  inventors: z
    .array(z.looseObject({ inventor_name_first: str, inventor_name_last: str }))
    .nullish(),
  score: z.number().nullish(),
});
const Answer = z.looseObject({
  error: z.boolean().nullish(),
  count: z.number().int().nullish(),
  total_hits: z.number().int().nullish(),
  patents: z.array(z.unknown()).nullish(),
});

export function readPatentsView(raw: unknown): Patent | undefined {
  const r = Record_.safeParse(raw);
  if (!r.success) return undefined;
  const d = r.data;
  const p: Patent = {
    patentNumber: d.patent_id,
    title: d.patent_title ?? d.patent_id,
    assignees: (d.assignees ?? [])
      .map((a) => a.assignee_organization ?? '')
      .filter((a) => a !== ''),
    inventors: (d.inventors ?? [])
      .map((i) => [i.inventor_name_first, i.inventor_name_last].filter(Boolean).join(' '))
      .filter((n) => n !== ''),
    cpc: [],
    url: patentUrl(d.patent_id, undefined),
  };
  if (d.patent_abstract) p.abstract = d.patent_abstract;
  if (d.patent_date) p.grantDate = d.patent_date;
  if (typeof d.score === 'number') p.score = d.score;
  return p;
}

export class PatentsViewSource implements PatentSource {
  readonly source = PATENTSVIEW_SOURCE;
  constructor(private readonly up: Upstream) {}

  private async query(q: unknown, want: number, maxPages: number): Promise<Found> {
    let total = 0;
    // The cursor: the last patent read so far (PatentsView pages by the sort key).
    let after: string | undefined;
    const { items, provenance } = await readPages(want, maxPages, async (_page, have) => {
      const o = { size: Math.min(PAGE_SIZE, want - have), ...(after ? { after } : {}) };
      const a = await this.up.get({
        path: '/api/v1/patent/',
        params: {
          q: JSON.stringify(q),
          f: JSON.stringify(FIELDS),
          s: JSON.stringify(SORT),
          o: JSON.stringify(o),
        },
      });
      const body = Answer.safeParse(a.body);
      if (!body.success) {
        throw new UnavailableError(
          `${PATENTSVIEW_SOURCE} answered JSON in an unexpected shape; ask the operator to check ` +
            'PATENTS_URL and PATENTS_PROVIDER'
        );
      }
      if (body.data.error === true) fail(`${PATENTSVIEW_SOURCE} refused the query`);
      total = body.data.total_hits ?? total;
      const rows = body.data.patents ?? [];
      const patents = readRows(rows, readPatentsView);
      // A page with nothing readable leaves the cursor at the last patent read before it.
      if (patents.length > 0) after = patents.at(-1)?.patentNumber;
      return {
        items: patents,
        provenance: a.provenance,
        more: rows.length >= o.size && after !== undefined,
      };
    });
    return { patents: items.slice(0, want), total: Math.max(total, items.length), provenance };
  }

  search(concept: string, want: number, maxPages: number): Promise<Found> {
    return this.query(
      {
        _or: [
          { _text_any: { patent_title: concept } },
          { _text_any: { patent_abstract: concept } },
        ],
      },
      want,
      maxPages
    );
  }

  byAssignee(assignee: string, want: number, maxPages: number): Promise<Found> {
    return this.query(
      { _contains: { 'assignees.assignee_organization': assignee } },
      want,
      maxPages
    );
  }

  async detail(ref: PatentRef): Promise<{ patent: Patent | undefined; provenance: Provenance[] }> {
    if (ref.kind === 'application') {
      fail(
        `${PATENTSVIEW_SOURCE} finds granted patents by number only; ask with the patent number`
      );
    }
    const r = await this.query({ patent_id: ref.number }, 1, 1);
    return { patent: r.patents[0], provenance: r.provenance };
  }
}
