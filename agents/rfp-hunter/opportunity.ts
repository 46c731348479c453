// One opportunity, whichever source listed it (SAM.gov procurement notices, Grants.gov funding
// opportunities), and the merge of both lists: the same solicitation under one number (or one
// title) is shown once, with the other listings kept in `alsoOn`; a SAM.gov solicitation's
// amendments (one notice each, the same number) collapse into the latest.
export const SAM = 'SAM.gov';
export const GRANTS_GOV = 'Grants.gov';
export type SourceName = typeof SAM | typeof GRANTS_GOV;

export interface Listing {
  source: SourceName;
  id: string;
  url: string;
}

export interface Opportunity extends Listing {
  number: string | null;
  title: string;
  agency: string | null;
  /** procurement (SAM.gov) or funding (Grants.gov). */
  kind: 'procurement' | 'funding';
  type: string | null;
  status: string | null;
  /** YYYY-MM-DD */
  postedDate: string | null;
  /** As the source gives it, made ISO: a date or a date-time with its offset. */
  deadline: string | null;
  setAside: string | null;
  naics: string | null;
  /** Notices of the same solicitation folded into this one (SAM.gov amendments). */
  notices: number;
  alsoOn: Listing[];
}

const MONTHS = 'jan feb mar apr may jun jul aug sep oct nov dec'.split(' ');

/** MM/DD/YYYY, "Jan 15, 2025 12:00:00 AM EST", YYYY-MM-DD[T…] → YYYY-MM-DD (or the ISO date-time). */
export function isoDate(s: string | null | undefined): string | null {
  if (!s) return null;
  const t = s.trim();
  if (/^\d{4}-\d{2}-\d{2}/.test(t)) return t;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  if (us) return `${us[3]}-${us[1]!.padStart(2, '0')}-${us[2]!.padStart(2, '0')}`;
  const long = /^([A-Za-z]{3})[a-z]*\.? (\d{1,2}), (\d{4})/.exec(t);
  if (long) {
    const m = MONTHS.indexOf(long[1]!.toLowerCase());
    if (m >= 0) return `${long[3]}-${String(m + 1).padStart(2, '0')}-${long[2]!.padStart(2, '0')}`;
  }
  return null;
}

/** A solicitation or opportunity number as both sources may write it. */
export function numberKey(n: string | null): string | null {
  const k = n?.toUpperCase().replace(/[^A-Z0-9]/g, '') ?? '';
  return k.length >= 4 ? k : null;
}

function titleKey(t: string): string {
  return t
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

function later(a: Opportunity, b: Opportunity): boolean {
  return (a.postedDate ?? '') > (b.postedDate ?? '');
}

/**
 * Both lists as one, newest first: one entry per solicitation. Within a source the latest notice
 * wins; across sources the first source's entry stays and the other becomes an `alsoOn` link.
 */
export function merge(...lists: Opportunity[][]): Opportunity[] {
  const out: Opportunity[] = [];
  const byNumber = new Map<string, Opportunity>();
  const byTitle = new Map<string, Opportunity>();
  for (const o of lists.flat()) {
    const nk = numberKey(o.number);
    const seen = (nk !== null ? byNumber.get(nk) : undefined) ?? byTitle.get(titleKey(o.title));
    if (seen === undefined) {
      const kept = { ...o, alsoOn: [...o.alsoOn] };
      out.push(kept);
      if (nk !== null) byNumber.set(nk, kept);
      byTitle.set(titleKey(o.title), kept);
      continue;
    }
    if (seen.source === o.source) {
      if (seen.id === o.id) continue;
      // Another notice of the same solicitation: keep the latest one's fields.
      const notices = seen.notices + o.notices;
      if (later(o, seen)) Object.assign(seen, { ...o, alsoOn: seen.alsoOn });
      seen.notices = notices;
      continue;
    }
    if (!seen.alsoOn.some((l) => l.source === o.source && l.id === o.id)) {
      seen.alsoOn.push({ source: o.source, id: o.id, url: o.url });
    }
  }
  return out.sort((a, b) => (b.postedDate ?? '').localeCompare(a.postedDate ?? ''));
}
