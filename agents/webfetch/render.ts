// A fetched page as text for people, and as the JSON data form, for both modes.
import type { PageContent } from './markdown.js';
import type { PageMetadata } from './metadata.js';
import type { FetchedPage } from './safe-fetch.js';

/** Replies travel over the hub's bus: the markdown is cut here, well under its message limit. */
export const MAX_MARKDOWN_CHARS = 100_000;

export interface ContentData {
  url: string;
  finalUrl: string;
  redirects: string[];
  status: number;
  contentType: string;
  title: string | undefined;
  byline: string | undefined;
  siteName: string | undefined;
  language: string | undefined;
  excerpt: string | undefined;
  markdown: string;
  /** Readability found an article; false: the whole page (or a text page) as is. */
  article: boolean;
  bytes: number;
  /** The page was larger than the byte limit and was cut there. */
  truncated: boolean;
  /** The markdown was longer than MAX_MARKDOWN_CHARS and was cut there. */
  markdownTruncated: boolean;
}

export interface MetadataData extends PageMetadata {
  url: string;
  finalUrl: string;
  redirects: string[];
  status: number;
  contentType: string;
  truncated: boolean;
}

export function contentData(page: FetchedPage, c: PageContent | undefined): ContentData {
  const full = c?.markdown ?? page.body;
  const markdownTruncated = full.length > MAX_MARKDOWN_CHARS;
  return {
    url: page.requestedUrl,
    finalUrl: page.finalUrl,
    redirects: page.redirects,
    status: page.status,
    contentType: page.contentType,
    title: c?.title || undefined,
    byline: c?.byline,
    siteName: c?.siteName,
    language: c?.lang ?? page.contentLanguage,
    excerpt: c?.excerpt,
    markdown: markdownTruncated ? full.slice(0, MAX_MARKDOWN_CHARS) : full,
    article: c?.article ?? false,
    bytes: page.bytes,
    truncated: page.truncated,
    markdownTruncated,
  };
}

export function metadataData(page: FetchedPage, m: PageMetadata): MetadataData {
  return {
    url: page.requestedUrl,
    finalUrl: page.finalUrl,
    redirects: page.redirects,
    status: page.status,
    contentType: page.contentType,
    truncated: page.truncated,
    ...m,
  };
}

function header(d: {
  url: string;
  finalUrl: string;
  truncated: boolean;
  bytes?: number;
}): string[] {
  const lines = [`🔗 ${d.finalUrl}`];
  if (d.finalUrl !== d.url) lines.push(`↪️ redirected from ${d.url}`);
  if (d.truncated) {
    lines.push(
      `⚠️ The page is larger than the ${d.bytes !== undefined ? `${d.bytes.toLocaleString('en-US')}-byte ` : ''}` +
        'limit (WEBFETCH_MAX_BYTES): it was cut there, so what follows is only its beginning.'
    );
  }
  return lines;
}

export function renderContent(d: ContentData): string {
  const lines = [`📄 ${d.title ?? d.finalUrl}`, ...header(d)];
  if (d.byline !== undefined) lines.push(`✍️ ${d.byline}`);
  if (d.markdownTruncated) {
    lines.push(
      `⚠️ The content is longer than ${MAX_MARKDOWN_CHARS.toLocaleString('en-US')} characters; ` +
        'it was cut there.'
    );
  }
  lines.push('');
  lines.push(d.markdown === '' ? '(the page has no readable text)' : d.markdown);
  return lines.join('\n');
}

export function renderMetadata(d: MetadataData): string {
  const none = '(none)';
  const lines = [
    `🏷️ Metadata for ${d.finalUrl}`,
    ...header(d).slice(1),
    `• Title: ${d.title ?? none}`,
    `• Description: ${d.description ?? none}`,
    `• Canonical URL: ${d.canonicalUrl ?? none}`,
    `• Language: ${d.language ?? none}`,
    `• Content type: ${d.contentType}`,
  ];
  const group = (name: string, fields: Record<string, string | undefined>) => {
    const set = Object.entries(fields).filter(([, v]) => v !== undefined);
    if (set.length === 0) {
      lines.push(`• ${name}: ${none}`);
      return;
    }
    lines.push(`• ${name}:`);
    for (const [k, v] of set) lines.push(`  ◦ ${k}: ${v}`);
  };
  group('Open Graph', d.openGraph);
  group('Twitter card', d.twitter);
  return lines.join('\n');
}
