// One search: the cache first, then the configured upstream within its time limit. Only good
// answers are cached; an upstream failure fails the task with what went wrong and is tried afresh
// next time.
import type { Config } from '../../runtime/config/index.js';
import { HubError } from '../../runtime/errors/index.js';
import { fail } from '../kit/index.js';
import type { TtlLru } from './cache.js';
import { normalizeQuery, MAX_RESULTS } from './parse.js';
import {
  PROVIDER_LABEL,
  readAnswer,
  upstreamRequest,
  type ProviderName,
  type SearchResult,
} from './providers.js';

/** Distinct queries kept per hub: enough for the common ones, bounded in memory. */
export const CACHE_ENTRIES = 500;

export interface SearchOutcome {
  provider: ProviderName;
  cached: boolean;
  /** Up to MAX_RESULTS, in the upstream's order. */
  results: SearchResult[];
}

export interface SearchDeps {
  settings: Config['search'];
  cache: TtlLru<SearchResult[]>;
  signal: AbortSignal;
  now: () => number;
  fetch?: typeof fetch;
}

export async function search(query: string, d: SearchDeps): Promise<SearchOutcome> {
  const { settings } = d;
  const base = settings.url;
  if (base === undefined) {
    fail(
      'no search service is configured on this hub, so I cannot search (and will not invent ' +
        'results). The operator sets SEARCH_URL to a SearXNG instance (its JSON API) or a ' +
        'Brave-compatible API, with SEARCH_PROVIDER=searxng|brave.'
    );
  }
  const provider = settings.provider;
  const label = PROVIDER_LABEL[provider];
  if (provider === 'brave' && settings.apiKey === undefined) {
    fail(
      'the search service is set up as Brave (SEARCH_PROVIDER=brave) without an API key: the ' +
        'operator sets SEARCH_API_KEY.'
    );
  }
  // The URL is part of the key so that two upstreams never share answers.
  const key = `${provider} ${base} ${normalizeQuery(query)}`;
  const hit = d.cache.get(key, d.now());
  if (hit !== undefined) return { provider, cached: true, results: hit };

  const req = upstreamRequest(provider, base, query, MAX_RESULTS, settings.apiKey);
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const signal = AbortSignal.any([d.signal, timeout]);
  let body: unknown;
  try {
    const res = await (d.fetch ?? fetch)(req.url, { headers: req.headers, signal });
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      fail(
        `the search service (${label}) answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}; ` +
          'try again later, or ask the operator to check SEARCH_URL' +
          (provider === 'brave' && (res.status === 401 || res.status === 403)
            ? ' and SEARCH_API_KEY'
            : '')
      );
    }
    const raw = await res.text();
    try {
      body = JSON.parse(raw);
    } catch {
      fail(
        `the search service (${label}) did not answer with JSON; ask the operator to check ` +
          `SEARCH_URL${provider === 'searxng' ? ' and that the instance enables the json format' : ''}`
      );
    }
  } catch (err) {
    if (d.signal.aborted) throw err;
    if (timeout.aborted) {
      fail(
        `the search service (${label}) did not answer within ${settings.timeoutMs} ms ` +
          '(SEARCH_TIMEOUT_MS); try again later'
      );
    }
    if (err instanceof HubError) throw err;
    fail(
      `the search service (${label}) could not be reached (${reason(err)}); ` +
        'try again later, or ask the operator to check SEARCH_URL'
    );
  }
  const results = readAnswer(provider, body);
  if (results === undefined) {
    fail(
      `the search service (${label}) answered JSON in an unexpected shape; ask the operator to ` +
        'check SEARCH_URL and SEARCH_PROVIDER'
    );
  }
  const top = results.slice(0, MAX_RESULTS);
  d.cache.set(key, top, settings.cacheTtlSeconds * 1000, d.now());
  return { provider, cached: false, results: top };
}

/** The low-level cause (ECONNREFUSED, ENOTFOUND, …) that fetch wraps in "fetch failed". */
function reason(err: unknown): string {
  const cause = err instanceof Error ? (err.cause as { code?: unknown } | undefined) : undefined;
  if (cause && typeof cause.code === 'string') return cause.code;
  return err instanceof Error ? err.message : String(err);
}
