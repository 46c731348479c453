// One research grant as both sources give it (NIH RePORTER projects, NSF awards), and how rows of
// the two are merged: newest start first, each row keeping the source it came from.

export type Source = 'NIH' | 'NSF';
export const SOURCES = ['nih', 'nsf'] as const;
export type SourceId = (typeof SOURCES)[number];

export interface Grant {
  source: Source;
  /** NIH project number (e.g. 5R01CA123456-04) or NSF award id. */
  id: string;
  title: string;
  institution: string;
  city?: string;
  state?: string;
  investigators: string[];
  /** Dollars: NIH's award amount for the fiscal year, NSF's funds obligated to date. */
  amount: number | null;
  fiscalYear?: number;
  /** YYYY-MM-DD */
  startDate?: string;
  endDate?: string;
  /** The NIH institute or center, or the NSF program. */
  funder?: string;
  url: string;
  abstract?: string;
}

/** What one source found for a query. */
export interface Found {
  source: Source;
  grants: Grant[];
  /** How many the source has in all, when it says. */
  total?: number;
}

/** Both sources' rows, newest start first (undated last), at most `limit`. */
export function merge(found: readonly Found[], limit: number): Grant[] {
  return found
    .flatMap((f) => f.grants)
    .sort(
      (a, b) =>
        (b.startDate ?? '').localeCompare(a.startDate ?? '') ||
        a.source.localeCompare(b.source) ||
        a.id.localeCompare(b.id)
    )
    .slice(0, limit);
}

/** "09/01/2024" (NSF) → "2024-09-01"; undefined when it is not such a date. */
export function fromUsDate(s: string | null | undefined): string | undefined {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s?.trim() ?? '');
  return m ? `${m[3]}-${m[1]}-${m[2]}` : undefined;
}

/** "2024-09-01" → "09/01/2024", the form NSF's date parameters take. */
export function toUsDate(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${m}/${d}/${y}`;
}

/** "2024-09-01T00:00:00" (NIH) → "2024-09-01". */
export function isoDay(s: string | null | undefined): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(s?.trim() ?? '');
  return m ? m[1] : undefined;
}

/** A number, or a string of digits with an optional decimal part (NSF's amounts), as dollars. */
export function dollars(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  const t = v.replace(/[$,\s]/g, '');
  return /^-?\d+(?:\.\d+)?$/.test(t) ? Number(t) : null;
}

/** Words trimmed to a readable snippet. */
export function snippet(s: string | null | undefined, max = 280): string | undefined {
  const one = (s ?? '').replace(/\s+/g, ' ').trim();
  if (one === '') return undefined;
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
