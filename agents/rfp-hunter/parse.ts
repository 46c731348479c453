// What an rfp-hunter request asks, from JSON fields or plain language ("cybersecurity RFPs",
// "new grants for rural broadband this week", "solicitation W912DY25R0001"). Readers return
// undefined when the text is not for their skill, so the next skill may claim it.
import { z } from 'zod';
import { limitField, without, limitOf } from '../kit/public-data/index.js';

export const SOURCES = ['all', 'sam', 'grants'] as const;
export type Source = (typeof SOURCES)[number];

const text = z.string().trim().min(1).max(200);
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'must be a real date');

/** The same date a year later: SAM.gov's longest postedFrom → postedTo. */
export function yearAfter(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d.toISOString().slice(0, 10);
}

export const SearchInput = z
  .object({
    query: text,
    source: z.enum(SOURCES).optional(),
    from: day.optional(),
    to: day.optional(),
    naics: z
      .string()
      .regex(/^\d{2,6}$/, 'must be a NAICS code (2–6 digits)')
      .optional(),
    state: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'must be a two-letter state code')
      .transform((s) => s.toUpperCase())
      .optional(),
    limit: limitField,
  })
  .refine((v) => v.from === undefined || v.to === undefined || v.from <= v.to, {
    message: 'must not be after `to`',
    path: ['from'],
  })
  .refine((v) => v.from === undefined || v.to === undefined || v.to <= yearAfter(v.from), {
    message: 'SAM.gov searches at most one year at a time: keep `to` within a year of `from`',
    path: ['to'],
  });
export type SearchInput = z.output<typeof SearchInput>;

export const RecentInput = z.object({
  query: text.optional(),
  source: z.enum(SOURCES).optional(),
  days: z.number().int().min(1).max(365).optional(),
  limit: limitField,
});
export type RecentInput = z.output<typeof RecentInput>;

export const DetailInput = z.object({
  id: z
    .string()
    .trim()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9._/-]{2,99}$/,
      'must be a SAM.gov notice id (32 hex characters), a Grants.gov opportunity id (digits) or a solicitation/opportunity number'
    ),
  source: z.enum(['sam', 'grants']).optional(),
});
export type DetailInput = z.output<typeof DetailInput>;

/** "grants" → Grants.gov only; "contracts", "RFPs", "solicitations" → SAM.gov only; both or neither → all. */
export function sourceIn(t: string): Source | undefined {
  const grants =
    /\b(?:grants?|funding opportunit(?:y|ies)|cooperative agreements?)\b|grants\.gov/i.test(t);
  const sam =
    /\b(?:contracts?|rfps?|rfqs?|rfis?|solicitations?|procurements?|tenders?|bids?|sources? sought)\b|sam\.gov/i.test(
      t
    );
  if (grants && !sam) return 'grants';
  if (sam && !grants) return 'sam';
  return undefined;
}

const HEX32 = /\b([0-9a-f]{32})\b/i;

export function detailFromText(t: string): z.input<typeof DetailInput> | undefined {
  const hex = HEX32.exec(t);
  if (hex) return { id: hex[1]!.toLowerCase(), source: 'sam' };
  const grant =
    /\b(?:grants\.gov\s+(?:opportunity\s+)?(?:id\s+)?|opportunity\s+(?:id\s+)?)(\d{5,9})\b/i.exec(
      t
    );
  if (grant) return { id: grant[1]!, source: 'grants' };
  const num =
    /\b(?:solicitation|notice|opportunity|rfp|rfq|funding opportunity)\s+(?:number\s+|no\.?\s+|#\s*)?([A-Z0-9][A-Z0-9._/-]{3,})\b/i.exec(
      t
    );
  if (num && /\d/.test(num[1]!) && /[A-Z]/i.test(num[1]!)) return { id: num[1]! };
  return undefined;
}

const SOURCE_WORDS =
  /\b(?:government|federal|funding|procurement|contracting|contracts?|rfps?|rfqs?|rfis?|solicitations?|tenders?|bids?|grants?|opportunit(?:y|ies)|notices?|cooperative agreements?|sam\.gov|grants\.gov|sam|on|from|in|at)\b/gi;
const FILLER =
  /\b(?:show|find|list|search|get|give|me|please|all|any|the|a|an|of|about|for|what|which|are|is|open|current|there|with|and)\b/gi;
const RECENT =
  /\b(?:recent(?:ly)?|new|newest|latest|just posted|posted (?:today|this week|this month|in the last|within)|this week|this month|today|last\s+\d{1,3}\s+days?|past\s+\d{1,3}\s+days?)\b/i;
const RECENT_WORDS =
  /\b(?:recent(?:ly)?|new|newest|latest|just|posted|today|this week|this month|(?:in the |within the )?(?:last|past)\s+\d{1,3}\s+days?|(?:last|past) (?:week|month))\b/gi;
const COUNT = /\b(?:top|first|latest)\s+\d{1,3}\b|\b\d{1,3}\s+(?:results|items)\b/gi;

function daysIn(t: string): number | undefined {
  const n = /\b(?:last|past)\s+(\d{1,3})\s+days?\b/i.exec(t);
  if (n) return Math.min(365, Math.max(1, Number(n[1])));
  if (/\btoday\b/i.test(t)) return 1;
  if (/\b(?:this|last|past) week\b/i.test(t)) return 7;
  if (/\b(?:this|last|past) month\b/i.test(t)) return 30;
  return undefined;
}

function topic(t: string): string {
  return without(without(without(without(t, COUNT), RECENT_WORDS), SOURCE_WORDS), FILLER);
}

export function recentFromText(t: string): z.input<typeof RecentInput> | undefined {
  if (!RECENT.test(t)) return undefined;
  const query = topic(t);
  const source = sourceIn(t);
  const days = daysIn(t);
  return {
    ...(query !== '' ? { query } : {}),
    ...(source ? { source } : {}),
    ...(days ? { days } : {}),
    ...limitOf(t),
  };
}

const NOT_A_QUERY = /^(?:help|hi|hello|hey|what can you do\??|\?+|usage)$/i;

export function searchFromText(t: string): z.input<typeof SearchInput> | undefined {
  if (NOT_A_QUERY.test(t.trim())) return undefined;
  const naics = /\bnaics\s*(?:code\s*)?(\d{2,6})\b/i.exec(t);
  const query = topic(t.replace(/\bnaics\s*(?:code\s*)?\d{2,6}\b/i, ' '));
  if (query === '') return undefined;
  const source = sourceIn(t);
  return {
    query,
    ...(source ? { source } : {}),
    ...(naics ? { naics: naics[1]! } : {}),
    ...limitOf(t),
  };
}
