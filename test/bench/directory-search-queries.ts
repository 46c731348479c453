// The discover bench's searches (discover.ts measureDirectory: a misspelt word plus one or two
// filters, rotating over five filter pairs), as query strings, for the probes that time the
// in-memory directory's part of them (directory-search-probe.ts, directory-search-synthetic.ts).
import { CATEGORIES, MODES, typo, WORDS } from './discover.js';

export const SEARCH_FILTERS = [
  (i: number) => `category=${CATEGORIES[i % CATEGORIES.length]}&verified=true`,
  (i: number) => `contentMode=${encodeURIComponent(MODES[i % MODES.length]!)}&country=FR`,
  (i: number) => `tag=${WORDS[(i * 9) % WORDS.length]}&sort=rating`,
  (i: number) => `skillTag=${WORDS[(i * 11) % WORDS.length]}&category=${CATEGORIES[i % 20]}`,
  (_i: number) => `contentMode=image/*&verified=false`,
];

/** The i-th search's query string (without the path). */
export const searchQuery = (i: number): string =>
  `q=${encodeURIComponent(typo(WORDS[(i * 15) % WORDS.length]!, i))}&${SEARCH_FILTERS[i % SEARCH_FILTERS.length]!(i)}`;

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}

/** p50, p99, max and mean of a series of ms, to two decimals. */
export const summary = (xs: number[]) => ({
  p50: +quantile(xs, 0.5).toFixed(3),
  p99: +quantile(xs, 0.99).toFixed(3),
  max: +Math.max(...xs).toFixed(3),
  mean: +(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(3),
});
