// GDELT DOC 2.0 (data-sources.md "news"): GET {NEWS_URL}/doc/doc?query=…&mode=ArtList|TimelineTone
// &format=json. No paging (at most 250 records), no key. Its quirks: `{}` means no matches, and
// some errors are plain text with HTTP 200 ("The specified phrase is too short."); both are "no
// results" here, the text kept as GDELT's note. `sourcecountry:` takes FIPS codes.
import { z } from 'zod';
import { UnavailableError } from '../../runtime/errors/index.js';
import type { Provenance, Upstream } from '../kit/public-data/index.js';
import { countryName } from './fips.js';

export const SOURCE = 'GDELT DOC 2.0';
export const ENDPOINT = '/doc/doc';
/** GDELT's own cap on ArtList. */
export const MAX_RECORDS = 250;

export interface Article {
  title: string;
  url: string;
  domain: string;
  language: string;
  country: string;
  /** ISO 8601, from GDELT's "20250101T120000Z". */
  seenAt: string;
  image?: string;
}

export interface NewsQuery {
  /** GDELT query text: keywords, "phrases", (a OR b), theme:X. */
  terms: string;
  /** FIPS code for sourcecountry:. */
  country?: string | undefined;
  language?: string | undefined;
  timespan: string;
}

export interface Fetched<T> {
  value: T;
  /** GDELT's plain-text answer when it refused the query; the result is then empty. */
  note?: string;
  provenance: Provenance;
}

/** The query parameter: the terms and the operators, as GDELT reads them. */
export function gdeltQuery(q: NewsQuery): string {
  const parts = [q.terms];
  if (q.country) parts.push(`sourcecountry:${q.country}`);
  if (q.language) parts.push(`sourcelang:${q.language}`);
  return parts.join(' ');
}

export async function articles(
  up: Upstream,
  q: NewsQuery,
  limit: number,
  sort: 'DateDesc' | 'HybridRel' = 'HybridRel'
): Promise<Fetched<Article[]>> {
  const a = await up.get({
    path: ENDPOINT,
    params: {
      query: gdeltQuery(q),
      mode: 'ArtList',
      format: 'json',
      // Duplicates across syndicating sites are dropped below: ask a little more than shown.
      maxrecords: Math.min(MAX_RECORDS, limit * 2),
      timespan: q.timespan,
      sort,
    },
    text: true,
  });
  if (typeof a.body === 'string')
    return { value: [], note: a.body.trim(), provenance: a.provenance };
  if (a.body === undefined) return { value: [], provenance: a.provenance };
  const body = ArtList.safeParse(a.body);
  if (!body.success) throw unexpected();
  const seen = new Set<string>();
  const out: Article[] = [];
  for (const r of body.data.articles ?? []) {
    const key = r.title.trim().toLowerCase();
    if (seen.has(r.url) || seen.has(key)) continue;
    seen.add(r.url).add(key);
    out.push(readArticle(r));
    if (out.length === limit) break;
  }
  return { value: out, provenance: a.provenance };
}

export interface TonePoint {
  date: string;
  value: number;
}

/** GDELT's average tone over time for a query (TimelineTone); an empty list when it has none. */
export async function timelineTone(up: Upstream, q: NewsQuery): Promise<Fetched<TonePoint[]>> {
  const a = await up.get({
    path: ENDPOINT,
    params: { query: gdeltQuery(q), mode: 'TimelineTone', format: 'json', timespan: q.timespan },
    text: true,
  });
  if (typeof a.body === 'string')
    return { value: [], note: a.body.trim(), provenance: a.provenance };
  if (a.body === undefined) return { value: [], provenance: a.provenance };
  const body = Timeline.safeParse(a.body);
  if (!body.success) throw unexpected();
  const series = (body.data.timeline ?? []).find((s) => /tone/i.test(s.series ?? ''));
  return {
    value: (series?.data ?? []).map((p) => ({ date: isoDate(p.date), value: p.value })),
    provenance: a.provenance,
  };
}

function unexpected(): UnavailableError {
  return new UnavailableError(
    `${SOURCE} answered JSON in an unexpected shape; ask the operator to check NEWS_URL`
  );
}

const ArtList = z.looseObject({
  articles: z
    .array(
      z.looseObject({
        url: z.string(),
        title: z.string(),
        seendate: z.string(),
        domain: z.string().nullish(),
        language: z.string().nullish(),
        sourcecountry: z.string().nullish(),
        socialimage: z.string().nullish(),
      })
    )
    .optional(),
});

const Timeline = z.looseObject({
  timeline: z
    .array(
      z.looseObject({
        series: z.string().nullish(),
        data: z.array(z.looseObject({ date: z.string(), value: z.number() })).nullish(),
      })
    )
    .optional(),
});

type RawArticle = NonNullable<z.output<typeof ArtList>['articles']>[number];

function readArticle(r: RawArticle): Article {
  const a: Article = {
    title: r.title.trim(),
    url: r.url,
    domain: r.domain ?? new URL(r.url).hostname,
    language: r.language ?? '',
    // GDELT names the country in answers; a FIPS code is read as the name it stands for.
    country: countryName(r.sourcecountry ?? ''),
    seenAt: isoDate(r.seendate),
  };
  if (r.socialimage) a.image = r.socialimage;
  return a;
}

/** "20250101T120000Z" → "2025-01-01T12:00:00Z"; anything else unchanged. */
export function isoDate(d: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})T?(\d{2})(\d{2})(\d{2})Z?$/.exec(d);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z` : d;
}
