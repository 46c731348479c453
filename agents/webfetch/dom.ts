// An HTML page as a DOM (linkedom), typed by the little we use of it: the project builds without
// the DOM library types, so the shapes are declared here.
import { parseHTML } from 'linkedom';

export interface HtmlElement {
  readonly tagName: string;
  textContent: string | null;
  innerHTML: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  remove(): void;
}

export interface HtmlDocument {
  readonly title: string;
  readonly documentElement: HtmlElement | null;
  readonly body: HtmlElement | null;
  querySelector(selector: string): HtmlElement | null;
  querySelectorAll(selector: string): ArrayLike<HtmlElement> & Iterable<HtmlElement>;
}

/** The page as a document whose links and images point at absolute URLs. */
export function htmlDocument(html: string, pageUrl: string): HtmlDocument {
  const { document } = parseHTML(html) as unknown as { document: HtmlDocument };
  for (const [selector, attr] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const el of document.querySelectorAll(selector)) {
      const abs = absoluteUrl(el.getAttribute(attr), pageUrl);
      if (abs !== undefined) el.setAttribute(attr, abs);
    }
  }
  return document;
}

/** `value` resolved against the page, when it is an http(s) (or mailto) link; else undefined. */
export function absoluteUrl(value: string | null | undefined, pageUrl: string): string | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  try {
    const u = new URL(value.trim(), pageUrl);
    return ['http:', 'https:', 'mailto:'].includes(u.protocol) ? u.href : undefined;
  } catch {
    return undefined;
  }
}
