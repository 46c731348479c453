// What a page says about itself: title, description, canonical URL, language, Open Graph fields and
// the Twitter card basics, read from its <head> (URLs made absolute against the page).
import { absoluteUrl, htmlDocument, type HtmlDocument } from './dom.js';

export const OG_FIELDS = [
  'og:title',
  'og:description',
  'og:image',
  'og:type',
  'og:site_name',
  'og:url',
] as const;
export const TWITTER_FIELDS = [
  'twitter:card',
  'twitter:title',
  'twitter:description',
  'twitter:image',
  'twitter:site',
  'twitter:creator',
] as const;
const URL_FIELDS = new Set<string>(['og:image', 'og:url', 'twitter:image']);

export interface PageMetadata {
  title: string | undefined;
  description: string | undefined;
  canonicalUrl: string | undefined;
  language: string | undefined;
  /** Only the fields the page sets, under their property names ("og:title"). */
  openGraph: Partial<Record<(typeof OG_FIELDS)[number], string>>;
  twitter: Partial<Record<(typeof TWITTER_FIELDS)[number], string>>;
}

export function pageMetadata(
  html: string,
  pageUrl: string,
  contentLanguage?: string
): PageMetadata {
  const doc = htmlDocument(html, pageUrl);
  const metas = metaTags(doc);
  const pick = <K extends string>(keys: readonly K[]): Partial<Record<K, string>> => {
    const out: Partial<Record<K, string>> = {};
    for (const k of keys) {
      const v = metas.get(k);
      if (v === undefined) continue;
      const value = URL_FIELDS.has(k) ? absoluteUrl(v, pageUrl) : v;
      if (value !== undefined) out[k] = value;
    }
    return out;
  };
  const openGraph = pick(OG_FIELDS);
  const twitter = pick(TWITTER_FIELDS);
  const canonical = doc.querySelector('link[rel~="canonical" i][href]');
  return {
    title: clean(doc.title) ?? openGraph['og:title'] ?? twitter['twitter:title'],
    description:
      metas.get('description') ?? openGraph['og:description'] ?? twitter['twitter:description'],
    canonicalUrl: absoluteUrl(canonical?.getAttribute('href'), pageUrl),
    language:
      clean(doc.documentElement?.getAttribute('lang')) ??
      metas.get('content-language') ??
      clean(contentLanguage?.split(',')[0]),
    openGraph,
    twitter,
  };
}

/** <meta> values by lowercased name, property or http-equiv; the first one of a name wins. */
function metaTags(doc: HtmlDocument): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of doc.querySelectorAll('meta[content]')) {
    const key = (
      m.getAttribute('property') ??
      m.getAttribute('name') ??
      m.getAttribute('http-equiv') ??
      ''
    )
      .trim()
      .toLowerCase();
    const value = clean(m.getAttribute('content'));
    if (key !== '' && value !== undefined && !out.has(key)) out.set(key, value);
  }
  return out;
}

function clean(s: string | null | undefined): string | undefined {
  const t = s?.replace(/\s+/g, ' ').trim();
  return t === undefined || t === '' ? undefined : t;
}
