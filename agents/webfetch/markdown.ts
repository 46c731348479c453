// A page's main content as markdown: Readability picks the article out of the page (dropping
// navigation, footers and other boilerplate), turndown writes it as markdown. A page Readability
// finds no article in is converted whole, minus scripts, styles and the usual page chrome.
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { htmlDocument, type HtmlDocument } from './dom.js';

export interface PageContent {
  title: string;
  byline: string | undefined;
  siteName: string | undefined;
  lang: string | undefined;
  excerpt: string | undefined;
  markdown: string;
  /** Readability found an article (false: the whole body was converted). */
  article: boolean;
}

const turndown = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
  emDelimiter: '_',
});
turndown.remove(['script', 'style', 'noscript', 'template', 'iframe', 'form', 'button', 'select']);

export function toMarkdown(html: string): string {
  return turndown
    .turndown(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const MIN_ARTICLE_CHARS = 200;
const CHROME = 'script, style, noscript, template, nav, header, footer, aside, form';

export function pageContent(html: string, pageUrl: string): PageContent {
  const doc = htmlDocument(html, pageUrl);
  const fallbackTitle = doc.title.trim();
  const lang = doc.documentElement?.getAttribute('lang')?.trim() || undefined;
  // Readability rewrites the document it reads; the fallback below needs its own copy.
  const parsed = new Readability(doc, { charThreshold: 200 }).parse();
  // On a page with little text Readability settles for whatever it finds, chrome included; the
  // stripped body is the better answer there.
  const enough = (parsed?.textContent?.trim().length ?? 0) >= MIN_ARTICLE_CHARS;
  const markdown = enough && parsed?.content ? toMarkdown(parsed.content) : '';
  if (parsed !== null && markdown !== '') {
    return {
      title: parsed.title?.trim() || fallbackTitle,
      byline: parsed.byline?.trim() || undefined,
      siteName: parsed.siteName?.trim() || undefined,
      lang: parsed.lang?.trim() || lang,
      excerpt: parsed.excerpt?.trim() || undefined,
      markdown,
      article: true,
    };
  }
  const whole: HtmlDocument = htmlDocument(html, pageUrl);
  for (const el of [...whole.querySelectorAll(CHROME)]) el.remove();
  return {
    title: fallbackTitle,
    byline: undefined,
    siteName: undefined,
    lang,
    excerpt: undefined,
    markdown: toMarkdown(whole.body?.innerHTML ?? ''),
    article: false,
  };
}
