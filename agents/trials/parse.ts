// What a trials request asks, from JSON fields or plain language ("recruiting melanoma trials near
// Boston", "NCT04280705", "trials sponsored by Pfizer"). Plain-language readers return undefined
// when the text is not for their skill, so the next skill may claim it.
import { z } from 'zod';
import { limitField, without, limitOf } from '../kit/public-data/index.js';

/** ClinicalTrials.gov's phase codes, as filter.advanced=AREA[Phase]… takes them. */
export const PHASES = ['EARLY_PHASE1', 'PHASE1', 'PHASE2', 'PHASE3', 'PHASE4', 'NA'] as const;
export type Phase = (typeof PHASES)[number];

const NCT = /\b(NCT\d{8})\b/i;

const phaseField = z.enum(PHASES).optional();
const text = z.string().trim().min(1).max(300);

export const SearchInput = z.object({
  query: text,
  phase: phaseField,
  recruiting: z.boolean().optional(),
  limit: limitField,
});
export type SearchInput = z.output<typeof SearchInput>;

export const RecruitingInput = z.object({ query: text, phase: phaseField, limit: limitField });
export type RecruitingInput = z.output<typeof RecruitingInput>;

export const SponsorInput = z.object({
  sponsor: text,
  query: text.optional(),
  phase: phaseField,
  recruiting: z.boolean().optional(),
  limit: limitField,
});
export type SponsorInput = z.output<typeof SponsorInput>;

export const NearbyInput = z.object({
  location: text,
  query: text.optional(),
  distanceMiles: z.number().int().min(1).max(500).optional(),
  phase: phaseField,
  recruiting: z.boolean().optional(),
  limit: limitField,
});
export type NearbyInput = z.output<typeof NearbyInput>;

export const DetailInput = z.object({
  nctId: z
    .string()
    .trim()
    .regex(/^NCT\d{8}$/i, 'must be an NCT number such as NCT04280705')
    .transform((s) => s.toUpperCase()),
});
export type DetailInput = z.output<typeof DetailInput>;

/** "phase 3", "phase III", "early phase 1" → the upstream's code. */
export function phaseIn(t: string): Phase | undefined {
  const m = /\b(early\s+)?phase\s*(1|2|3|4|i{1,3}|iv)\b/i.exec(t);
  if (!m) return undefined;
  const n = { i: '1', ii: '2', iii: '3', iv: '4' }[m[2]!.toLowerCase()] ?? m[2]!;
  if (m[1] !== undefined) return n === '1' ? 'EARLY_PHASE1' : undefined;
  return `PHASE${n}` as Phase;
}

const RECRUITING =
  /\b(recruiting|enrolling|open to enrol(?:l)?ment|accepting (?:patients|participants))\b/i;
const PHASE_WORDS = /\b(?:early\s+)?phase\s*(?:1|2|3|4|i{1,3}|iv)\b/gi;
const FILLER =
  /\b(?:show|find|list|search|get|give|me|please|any|all|the|a|an|of|on|about|for|with|top|first|latest|\d{1,3}\s+results|clinical|trials?|studies|study|recruiting|enrolling|currently|open|that are|which are)\b/gi;

/** The condition or topic words left once the request's own words are taken out. */
export function topicOf(t: string): string {
  return without(without(without(t, PHASE_WORDS), /\b(?:top|first|latest)\s+\d{1,3}\b/gi), FILLER);
}

export function detailFromText(t: string): z.input<typeof DetailInput> | undefined {
  const m = NCT.exec(t);
  return m ? { nctId: m[1]! } : undefined;
}

const NEAR = /\b(?:near|nearby|around|close to|within\s+(\d{1,3})\s*(?:mi|miles)\s+of)\s+(.+)$/i;

export function nearbyFromText(t: string): z.input<typeof NearbyInput> | undefined {
  const m = NEAR.exec(t);
  if (!m) return undefined;
  const location = without(m[2]!, /\b(?:please|within\s+\d{1,3}\s*(?:mi|miles))\b/gi);
  if (location === '') return undefined;
  const before = t.slice(0, m.index);
  const within = /\bwithin\s+(\d{1,3})\s*(?:mi|miles)\b/i.exec(t);
  const query = topicOf(before);
  const miles = m[1] ?? within?.[1];
  return {
    location,
    ...(query !== '' ? { query } : {}),
    ...(miles !== undefined ? { distanceMiles: Number(miles) } : {}),
    ...optional(t),
  };
}

const SPONSOR =
  /\b(?:sponsored by|sponsor(?:ed)?\s*[:=]?|run by|funded by|(?:trials?|studies)\s+by)\s+(.+)$/i;

export function sponsorFromText(t: string): z.input<typeof SponsorInput> | undefined {
  const m = SPONSOR.exec(t);
  if (!m) return undefined;
  const sponsor = without(m[1]!, /\b(?:please|trials?|studies|recruiting|phase\s*\w+)\b/gi);
  if (sponsor === '') return undefined;
  const query = topicOf(t.slice(0, m.index));
  return { sponsor, ...(query !== '' ? { query } : {}), ...optional(t) };
}

export function recruitingFromText(t: string): z.input<typeof RecruitingInput> | undefined {
  if (!RECRUITING.test(t)) return undefined;
  const query = topicOf(t);
  if (query === '') return undefined;
  const phase = phaseIn(t);
  return { query, ...(phase ? { phase } : {}), ...limitOf(t) };
}

const NOT_A_QUERY = /^(?:help|hi|hello|hey|what can you do\??|\?+|usage)$/i;

export function searchFromText(t: string): z.input<typeof SearchInput> | undefined {
  if (NOT_A_QUERY.test(t.trim())) return undefined;
  const query = topicOf(t);
  if (query === '') return undefined;
  return { query, ...optional(t) };
}

function optional(t: string): { phase?: Phase; recruiting?: boolean; limit?: number } {
  const phase = phaseIn(t);
  return {
    ...(phase ? { phase } : {}),
    ...(RECRUITING.test(t) ? { recruiting: true } : {}),
    ...limitOf(t),
  };
}
