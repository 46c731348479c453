// The upstream search APIs: how to ask each one, and how to read its answer into our result shape.
// Answers are validated: a service that answers something else fails the task instead of yielding
// made-up or empty results.
import { z } from 'zod';

export type ProviderName = 'searxng' | 'brave';

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
}

export const PROVIDER_LABEL: Record<ProviderName, string> = {
  searxng: 'SearXNG',
  brave: 'Brave Search',
};

/** `base` is SEARCH_URL; a path prefix in it (a SearXNG behind /searx, say) is kept. */
export function upstreamRequest(
  provider: ProviderName,
  base: string,
  query: string,
  count: number,
  apiKey: string | undefined
): UpstreamRequest {
  const u = new URL(base);
  const prefix = u.pathname.replace(/\/+$/, '');
  const headers: Record<string, string> = { accept: 'application/json' };
  switch (provider) {
    case 'searxng':
      u.pathname = `${prefix}/search`;
      u.search = new URLSearchParams({ q: query, format: 'json' }).toString();
      break;
    case 'brave':
      u.pathname = `${prefix}/res/v1/web/search`;
      u.search = new URLSearchParams({ q: query, count: String(count) }).toString();
      if (apiKey !== undefined) headers['x-subscription-token'] = apiKey;
      break;
    default: {
      const never: never = provider;
      throw new Error(`unknown provider ${String(never)}`);
    }
  }
  return { url: u.toString(), headers };
}

const Hit = z.looseObject({
  title: z.string().nullish(),
  url: z.string().nullish(),
});

const SearxAnswer = z.looseObject({
  results: z.array(Hit.extend({ content: z.string().nullish() })),
});

const BraveAnswer = z.looseObject({
  // A query with no web results may come back without the `web` section at all.
  web: z
    .looseObject({ results: z.array(Hit.extend({ description: z.string().nullish() })) })
    .optional(),
});

/** The results in the upstream's order, or undefined when the body is not that provider's shape. */
export function readAnswer(provider: ProviderName, body: unknown): SearchResult[] | undefined {
  let hits: Array<{ title?: string | null; url?: string | null; snippet?: string | null }>;
  switch (provider) {
    case 'searxng': {
      const a = SearxAnswer.safeParse(body);
      if (!a.success) return undefined;
      hits = a.data.results.map((r) => ({ title: r.title, url: r.url, snippet: r.content }));
      break;
    }
    case 'brave': {
      const a = BraveAnswer.safeParse(body);
      if (!a.success) return undefined;
      hits = (a.data.web?.results ?? []).map((r) => ({
        title: r.title,
        url: r.url,
        snippet: r.description,
      }));
      break;
    }
    default: {
      const never: never = provider;
      throw new Error(`unknown provider ${String(never)}`);
    }
  }
  const seen = new Set<string>();
  const out: SearchResult[] = [];
  for (const h of hits) {
    const url = httpUrl(h.url);
    // A result without a usable link is no result; the same link twice is shown once.
    if (url === undefined || seen.has(url)) continue;
    seen.add(url);
    out.push({
      title: plainText(h.title ?? '') || url,
      url,
      snippet: plainText(h.snippet ?? ''),
    });
  }
  return out;
}

function httpUrl(raw: string | null | undefined): string | undefined {
  if (typeof raw !== 'string') return undefined;
  try {
    const u = new URL(raw.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  '#39': "'",
};

/** Snippets may carry highlighting markup (Brave's <strong>) and entities: people get plain text. */
export function plainText(s: string): string {
  return s
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, name: string) => {
      const lower = name.toLowerCase();
      if (lower.startsWith('#x')) return codePoint(parseInt(lower.slice(2), 16)) ?? m;
      if (lower.startsWith('#') && lower !== '#39')
        return codePoint(parseInt(lower.slice(1), 10)) ?? m;
      return ENTITIES[lower] ?? m;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

function codePoint(n: number): string | undefined {
  return Number.isInteger(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : undefined;
}
