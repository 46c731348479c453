// Search results as text for people, and as the JSON data form.
import { PROVIDER_LABEL, type SearchResult } from './providers.js';
import type { SearchOutcome } from './search.js';

export interface SearchData {
  query: string;
  provider: SearchOutcome['provider'];
  cached: boolean;
  results: SearchResult[];
}

export function searchData(query: string, o: SearchOutcome, limit: number): SearchData {
  return { query, provider: o.provider, cached: o.cached, results: o.results.slice(0, limit) };
}

export function renderResults(d: SearchData): string {
  const source = `${PROVIDER_LABEL[d.provider]}${d.cached ? ', cached' : ''}`;
  if (d.results.length === 0) {
    return `🔎 No results for “${d.query}” (${source}). Try other or fewer words.`;
  }
  const lines = [`🔎 Results for “${d.query}” (${source})`];
  d.results.forEach((r, i) => {
    lines.push('', `${i + 1}. ${r.title}`, `   🔗 ${r.url}`);
    if (r.snippet !== '') lines.push(`   ${r.snippet}`);
  });
  return lines.join('\n');
}
