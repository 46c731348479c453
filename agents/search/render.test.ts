import { describe, expect, it } from 'vitest';
import { renderResults, searchData } from './render.js';

describe('renderResults', () => {
  it('numbers each result with its title, link and snippet', () => {
    const d = searchData(
      'cats',
      {
        provider: 'searxng',
        cached: true,
        results: [
          { title: 'Cats', url: 'https://cats.example/', snippet: 'All about cats' },
          { title: 'More', url: 'https://more.example/', snippet: '' },
        ],
      },
      10
    );
    expect(renderResults(d)).toBe(
      '🔎 Results for “cats” (SearXNG, cached)\n\n' +
        '1. Cats\n   🔗 https://cats.example/\n   All about cats\n\n' +
        '2. More\n   🔗 https://more.example/'
    );
  });

  it('keeps only `limit` results and says when there are none', () => {
    const r = { title: 't', url: 'https://x.example/', snippet: '' };
    expect(
      searchData('q', { provider: 'brave', cached: false, results: [r, r] }, 1).results
    ).toHaveLength(1);
    expect(
      renderResults(searchData('q', { provider: 'brave', cached: false, results: [] }, 10))
    ).toMatch(/^🔎 No results for “q” \(Brave Search\)/);
  });
});
