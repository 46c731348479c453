// An insider by CIK or by name: a name is found through EDGAR full-text search over Form 4s,
// whose display_names list the reporting owner ("Cook Timothy D  (CIK 0001214156)") beside the
// issuer ("Apple Inc.  (AAPL)  (CIK 0000320193)"); the person whose name holds every word asked,
// in any order, is taken, the one on the most filings first.
import type { Provenance } from '../kit/public-data/index.js';
import { fullTextSearch, type SecClient } from '../kit/public-data/sec/index.js';

export interface Person {
  cik: number;
  name: string;
}

/** "Cook Timothy D  (CIK 0001214156)", "Apple Inc.  (AAPL)  (CIK 0000320193)" → parts. */
export function displayName(
  s: string
): { name: string; ticker: string | null; cik: number } | undefined {
  const m = /^(.*?)\s+(?:\(([^()]*)\)\s+)?\(CIK (\d{1,10})\)\s*$/.exec(s.trim());
  if (!m) return undefined;
  return { name: m[1]!.trim(), ticker: m[2] ?? null, cik: Number(m[3]) };
}

const words = (s: string) => s.toUpperCase().match(/[\p{L}\p{N}]+/gu) ?? [];

export async function findInsider(
  sec: SecClient,
  q: string
): Promise<{ person: Person | undefined; others: Person[]; provenance: Provenance[] }> {
  const query = q.trim().replace(/^CIK\s*/i, '');
  if (/^\d{1,10}$/.test(query))
    return { person: { cik: Number(query), name: '' }, others: [], provenance: [] };
  const wanted = words(query);
  const r = await fullTextSearch(sec, { q: wanted.join(' '), forms: ['4'], limit: 100 });
  const counts = new Map<number, { p: Person; n: number }>();
  for (const h of r.hits) {
    for (const d of h.names.map(displayName)) {
      if (d === undefined || d.ticker !== null) continue;
      const have = new Set(words(d.name));
      if (!wanted.every((w) => have.has(w))) continue;
      const c = counts.get(d.cik) ?? { p: { cik: d.cik, name: d.name }, n: 0 };
      c.n += 1;
      counts.set(d.cik, c);
    }
  }
  const ranked = [...counts.values()].sort((a, b) => b.n - a.n).map((c) => c.p);
  return { person: ranked[0], others: ranked.slice(1, 5), provenance: r.provenance };
}
