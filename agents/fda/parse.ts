// What an fda request asks, from JSON fields or plain language ("side effects of ibuprofen",
// "recent approvals in the last 30 days", "drugs by Pfizer", "advil"). Readers return undefined
// when the text is not for their skill, so the next skill may claim it.
import { z } from 'zod';
import { limitField, without, limitOf } from '../kit/public-data/index.js';

const name = z.string().trim().min(1).max(200);

export const SearchInput = z.object({ drug: name, limit: limitField });
export type SearchInput = z.output<typeof SearchInput>;

export const AdverseInput = z.object({ drug: name, limit: limitField });
export type AdverseInput = z.output<typeof AdverseInput>;

export const SponsorInput = z.object({ sponsor: name, limit: limitField });
export type SponsorInput = z.output<typeof SponsorInput>;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');
export const ApprovalsInput = z.object({
  days: z.number().int().min(1).max(3650).optional(),
  from: day.optional(),
  to: day.optional(),
  limit: limitField,
});
export type ApprovalsInput = z.output<typeof ApprovalsInput>;

const FILLER =
  /\b(?:show|find|list|search|get|give|me|please|any|all|the|a|an|of|on|about|for|drug|drugs|medicine|medication|fda|openfda|info|information|labels?|label info|recalls?|what|is|are|tell)\b/gi;

const ADVERSE =
  /\b(?:adverse (?:events?|reactions?|effects?)|side[- ]effects?|safety reports?|faers|reactions? (?:to|for))\b/i;
/** The skill's own words, taken out to leave the drug. */
const ADVERSE_WORDS =
  /\b(?:adverse (?:events?|reactions?|effects?)|side[- ]effects?|safety|faers|reactions? (?:to|for)|reports?|reported)\b/gi;

export function adverseFromText(t: string): z.input<typeof AdverseInput> | undefined {
  if (!ADVERSE.test(t)) return undefined;
  const drug = without(without(t, ADVERSE_WORDS), FILLER);
  if (drug === '') return undefined;
  return { drug: without(drug, /\b(?:top|first)\s+\d+\b/gi), ...limitOf(t) };
}

const APPROVALS = /\b(?:approvals?|approved|newly approved|new drugs?)\b/i;

export function approvalsFromText(t: string): z.input<typeof ApprovalsInput> | undefined {
  if (!APPROVALS.test(t)) return undefined;
  const days = /\b(?:last|past)\s+(\d{1,4})\s+days?\b/i.exec(t);
  const months = /\b(?:last|past)\s+(\d{1,3})\s+months?\b/i.exec(t);
  const year = /\bin\s+(\d{4})\b/.exec(t);
  const since = /\bsince\s+(\d{4}-\d{2}-\d{2})\b/.exec(t);
  const range: z.input<typeof ApprovalsInput> = {};
  if (days) range.days = Number(days[1]);
  else if (months) range.days = Number(months[1]) * 30;
  else if (year) Object.assign(range, { from: `${year[1]}-01-01`, to: `${year[1]}-12-31` });
  else if (since) range.from = since[1]!;
  return { ...range, ...limitOf(t) };
}

const SPONSOR =
  /\b(?:(?:drugs|applications|products|approvals)\s+(?:by|from|of)|sponsor(?:ed by)?\s*[:=]?|made by|marketed by)\s+(.+)$/i;
const POSSESSIVE = /^(.+?)['’]s\s+(?:drugs|applications|products)\b/i;

export function sponsorFromText(t: string): z.input<typeof SponsorInput> | undefined {
  const m = SPONSOR.exec(t) ?? POSSESSIVE.exec(t);
  if (!m) return undefined;
  const sponsor = without(
    m[1]!,
    /\b(?:please|drugs|applications|products|(?:top|first|latest)\s+\d{1,3})\b/gi
  );
  if (sponsor === '') return undefined;
  return { sponsor, ...limitOf(t) };
}

const NOT_A_QUERY = /^(?:help|hi|hello|hey|what can you do\??|\?+|usage)$/i;

export function searchFromText(t: string): z.input<typeof SearchInput> | undefined {
  if (NOT_A_QUERY.test(t.trim())) return undefined;
  const drug = without(without(t, /\b(?:top|first)\s+\d+\b/gi), FILLER);
  if (drug === '') return undefined;
  return { drug, ...limitOf(t) };
}

/** openFDA's date form, YYYYMMDD. */
export function compact(date: string): string {
  return date.replaceAll('-', '');
}

/** The approvals window: explicit dates, else the last `days` (default 90) to today. */
export function window(a: ApprovalsInput, now: number): { from: string; to: string } {
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const to = a.to ?? iso(now);
  const from = a.from ?? iso(Date.parse(`${to}T00:00:00Z`) - (a.days ?? 90) * 86_400_000);
  return { from, to };
}
