// search (agent-search-official): the top web results (title, URL, snippet) for a query, from the
// hub's configured SearXNG or Brave-compatible API, with common queries answered from a bounded
// in-memory cache. Without a configured service it says so; it never makes results up.
import type { Config } from '../../runtime/config/index.js';
import { defineAgent } from '../kit/index.js';
import { TtlLru } from './cache.js';
import { parseSearchRequest } from './parse.js';
import type { SearchResult } from './providers.js';
import { renderResults, searchData } from './render.js';
import { CACHE_ENTRIES, search } from './search.js';

// One cache per hub (keyed by its Config): hubs sharing a process never share answers.
const caches = new WeakMap<Config, TtlLru<SearchResult[]>>();

function cacheFor(config: Config): TtlLru<SearchResult[]> {
  let c = caches.get(config);
  if (c === undefined) {
    c = new TtlLru<SearchResult[]>(CACHE_ENTRIES);
    caches.set(config, c);
  }
  return c;
}

export default defineAgent({
  id: 'agent-search-official',
  alias: 'search',
  category: 'utilities',
  tags: ['search', 'web search', 'searxng', 'brave', 'links'],
  card: {
    name: 'Search',
    description:
      'Web search: the top 10 results (title, URL, snippet) for any query, as text or JSON. ' +
      'Common queries are answered from a short-lived cache.',
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: 'web-search',
        name: 'Web search',
        description:
          'Searches the web through the hub’s search service and returns up to 10 results ' +
          'with title, URL and snippet. JSON: {query, provider, cached, results}.',
        tags: ['search', 'web'],
        examples: [
          'rust async runtime comparison',
          '{"query": "postgres logical replication", "limit": 5}',
        ],
      },
    ],
  },
  async handle(req, ctx) {
    const { query, limit } = parseSearchRequest(req.text, req.json);
    const outcome = await search(query, {
      settings: ctx.config.search,
      cache: cacheFor(ctx.config),
      signal: ctx.signal,
      now: ctx.now,
    });
    const data = searchData(query, outcome, limit);
    return { text: renderResults(data), data };
  },
});
