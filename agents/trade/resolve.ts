// Names and codes both ways: countries by Census's CTY_NAME or Comtrade's M49 reference, HS codes
// by Comtrade's HS reference (and a few everyday words HS text does not use: "computers" are
// 8471's "automatic data processing machines").
import type { Area, HsEntry } from './comtrade.js';

/** Everyday names → the words the sources use. */
const COUNTRY_ALIASES: Record<string, string[]> = {
  'united states': ['usa', 'us', 'america', 'united states of america', 'u s', 'u s a'],
  'united kingdom': ['uk', 'britain', 'great britain', 'england', 'u k'],
  'south korea': ['korea south', 'korea', 'rep of korea', 'republic of korea'],
  russia: ['russian federation'],
  vietnam: ['viet nam'],
  turkey: ['turkiye'],
  'czech republic': ['czechia'],
  netherlands: ['holland', 'the netherlands'],
  taiwan: ['other asia nes', 'taipei chinese'],
  china: ["people's republic of china", 'prc'],
};

/** Lower case, accents and punctuation gone, "KOREA, SOUTH" also read as "south korea". */
export function keys(name: string): string[] {
  const base = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const plain = (s: string) =>
    s
      .replace(/[^a-z0-9,]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  const out = new Set<string>([plain(base).replace(/,/g, '').replace(/^the /, '')]);
  const comma = /^([^,]+),\s*([^,]+)$/.exec(base);
  if (comma) out.add(plain(`${comma[2]} ${comma[1]}`).replace(/,/g, ''));
  return [...out];
}

function wanted(name: string): Set<string> {
  const out = new Set(keys(name));
  for (const [canon, aliases] of Object.entries(COUNTRY_ALIASES)) {
    const all = [canon, ...aliases];
    if (all.some((a) => out.has(a))) for (const a of all) out.add(a);
  }
  return out;
}

/** The candidate whose name (or ISO code) is the name asked; undefined when none is. */
export function matchName<T extends { name: string; iso2?: string; iso3?: string }>(
  name: string,
  candidates: readonly T[]
): T | undefined {
  const w = wanted(name);
  const upper = name.trim().toUpperCase();
  return candidates.find(
    (c) =>
      keys(c.name).some((k) => w.has(k)) ||
      (upper.length >= 2 && (c.iso2 === upper || c.iso3 === upper))
  );
}

export function matchArea(name: string, list: readonly Area[]): Area | undefined {
  const code = /^\d{1,3}$/.test(name.trim()) ? Number(name) : undefined;
  if (code !== undefined) return list.find((a) => a.code === code);
  return (
    matchName(
      name,
      list.filter((a) => !a.isGroup)
    ) ?? matchName(name, list)
  );
}

/** Everyday words for common goods → their HS heading. */
const HS_WORDS: Record<string, string> = {
  computers: '8471',
  laptops: '8471',
  'mobile phones': '8517',
  smartphones: '8517',
  phones: '8517',
  cars: '8703',
  automobiles: '8703',
  'crude oil': '2709',
  oil: '2709',
  semiconductors: '8542',
  chips: '8542',
  'integrated circuits': '8542',
  medicines: '3004',
  pharmaceuticals: '3004',
  soybeans: '1201',
  aircraft: '8802',
  gold: '7108',
  coffee: '0901',
  wine: '2204',
  'solar panels': '8541',
};

/** An HS code as given, or the code whose description has every word asked; undefined if none. */
export function findHs(asked: string, codes: readonly HsEntry[]): HsEntry | undefined {
  const a = asked.trim().toLowerCase();
  if (/^\d{2}(\d{2}){0,2}$/.test(a)) {
    return codes.find((c) => c.code === a) ?? { code: a, name: `HS ${a}` };
  }
  const word = HS_WORDS[a] ?? HS_WORDS[a.replace(/s$/, '')] ?? HS_WORDS[`${a}s`];
  if (word !== undefined) return codes.find((c) => c.code === word) ?? { code: word, name: a };
  const stems = a.split(/\s+/).map((w) => w.replace(/(?:es|s)$/, ''));
  const hits = codes.filter((c) => {
    const t = c.name.toLowerCase();
    return stems.every((s) => t.includes(s));
  });
  // Headings (4 digits) name goods the way people do; then chapters, then subheadings.
  const rank = (c: HsEntry) => ({ 4: 0, 2: 1, 6: 2 })[c.code.length as 4] ?? 3;
  return hits.sort((x, y) => rank(x) - rank(y) || x.code.localeCompare(y.code))[0];
}

/** "United States" in any of its names. */
export function isUnitedStates(name: string): boolean {
  return wanted('united states').has(keys(name)[0] ?? '') || name.trim() === '842';
}
