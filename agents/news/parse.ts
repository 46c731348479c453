// What a news request asks, from JSON fields or plain language ("sentiment about Tesla this week",
// "news about Apple the company", "climate change coverage from German media", "AI chips news").
// Readers return undefined when the text is not for their skill, so the next skill may claim it.
import { z } from 'zod';
import { limitField, without, limitOf } from '../kit/public-data/index.js';
import { COUNTRY_NAMES, fipsOf } from './fips.js';
import { TOPIC_NAMES } from './topics.js';

export const DEFAULT_TIMESPAN = '7d';

const text = z.string().trim().min(1).max(200);

/** GDELT's timespan: minutes, hours, days, weeks or months, within its window of 3 months. */
const timespan = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^\d{1,4}(min|h|d|w|m)$/, 'must be a span such as 24h, 7d, 2w or 3m')
  .refine((s) => spanMinutes(s) >= 15 && spanMinutes(s) <= 92 * 24 * 60, {
    message: 'must be between 15min and 3m (GDELT searches the last 3 months)',
  })
  .optional();

const country = z
  .string()
  .trim()
  .min(2)
  .refine((c) => fipsOf(c) !== undefined, {
    message: 'is not a country I know; name it in English (e.g. "Germany") or by its FIPS code',
  })
  .transform((c) => fipsOf(c)!)
  .optional();

const common = {
  country,
  timespan,
  limit: limitField,
};

export const SearchInput = z.object({
  query: text,
  language: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z]{3,20}$/, 'must be a language name such as english or french')
    .optional(),
  ...common,
});
export type SearchInput = z.output<typeof SearchInput>;

export const CompanyInput = z.object({ company: text, ...common });
export type CompanyInput = z.output<typeof CompanyInput>;

export const TopicInput = z.object({ topic: text, ...common });
export type TopicInput = z.output<typeof TopicInput>;

export const SentimentInput = z.object({ query: text, country, timespan });
export type SentimentInput = z.output<typeof SentimentInput>;

function spanMinutes(s: string): number {
  const m = /^(\d+)(min|h|d|w|m)$/.exec(s);
  if (!m) return NaN;
  const unit = { min: 1, h: 60, d: 1440, w: 10_080, m: 43_200 }[m[2] as 'min'];
  return Number(m[1]) * unit;
}

/** "today", "this week", "last 3 days", "past month" → a GDELT timespan. */
export function timespanIn(t: string): string | undefined {
  const n = /\b(?:last|past)\s+(\d{1,3})\s+(hours?|days?|weeks?|months?)\b/i.exec(t);
  if (n) {
    const unit = { h: 'h', d: 'd', w: 'w', m: 'm' }[n[2]![0]!.toLowerCase() as 'h'];
    return `${n[1]}${unit}`;
  }
  if (/\b(?:today|past day|last day|last 24 hours)\b/i.test(t)) return '24h';
  if (/\b(?:this|past|last)\s+week\b/i.test(t)) return '7d';
  if (/\b(?:this|past|last)\s+month\b/i.test(t)) return '1m';
  if (/\b(?:this|past|last)\s+quarter\b|\blast three months\b/i.test(t)) return '3m';
  return undefined;
}

const SPAN_WORDS =
  /\b(?:(?:last|past)\s+\d{1,3}\s+(?:hours?|days?|weeks?|months?)|today|(?:this|past|last)\s+(?:day|week|month|quarter)|last 24 hours|last three months)\b/gi;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const COUNTRY_ALT = COUNTRY_NAMES.map(escape).join('|');
/** Only "from German media"-like phrases choose the sources' country; "floods in India" does not. */
const SOURCES_IN = new RegExp(
  `\\b(?:(?:from|in)\\s+)?(?:the\\s+)?(${COUNTRY_ALT})\\s+(?:sources|media|press|outlets|newspapers|news sites)\\b|\\b(?:sources|media|press|outlets|newspapers)\\s+(?:from|in)\\s+(?:the\\s+)?(${COUNTRY_ALT})\\b`,
  'i'
);

/** The sources' country the text asks for, and the text without those words. */
function countryIn(t: string): { country?: string; rest: string } {
  const m = SOURCES_IN.exec(t);
  if (!m) return { rest: t };
  return { country: (m[1] ?? m[2])!, rest: t.replace(m[0], ' ') };
}

const FILLER =
  /\b(?:show|find|list|search|get|give|me|please|any|all|the|a|an|of|on|about|for|with|in|regarding|around|what|is|are|was|how|whats|what's|latest|recent|news|headlines?|articles?|stories|coverage|reports?|press|media|top|first|\d{1,3}\s+(?:results|items))\b/gi;

function subject(t: string): string {
  return without(without(without(t, SPAN_WORDS), /\b(?:top|first|latest)\s+\d{1,3}\b/gi), FILLER)
    .replace(/[?!.]+$/, '')
    .trim();
}

function extras(t: string): { country?: string; timespan?: string; limit?: number; rest: string } {
  const c = countryIn(t);
  const span = timespanIn(t);
  return {
    ...(c.country ? { country: c.country } : {}),
    ...(span ? { timespan: span } : {}),
    ...limitOf(t),
    rest: c.rest,
  };
}

const SENTIMENT =
  /\b(?:sentiment|tone|mood|positive or negative|negative or positive|how (?:positive|negative)|feel(?:ing|s)? about)\b/i;

export function sentimentFromText(t: string): z.input<typeof SentimentInput> | undefined {
  if (!SENTIMENT.test(t)) return undefined;
  const { rest, limit: _limit, ...x } = extras(t);
  const query = subject(without(rest, new RegExp(SENTIMENT.source, 'gi'))).replace(
    /^(?:is|of|toward|towards)\s+/i,
    ''
  );
  return query === '' ? undefined : { query, ...x };
}

const COMPANY_WORDS =
  /\b(?:company|companies|firm|corporation|business|stock|shares|share price|ticker)\b/gi;
const LEGAL = /\b(?:inc|incorporated|corp|co|ltd|llc|plc|ag|gmbh|sa|nv)\b\.?/gi;

export function companyFromText(t: string): z.input<typeof CompanyInput> | undefined {
  if (!new RegExp(COMPANY_WORDS.source, 'i').test(t) && !new RegExp(LEGAL.source, 'i').test(t)) {
    return undefined;
  }
  const { rest, ...x } = extras(t);
  const company = subject(without(without(rest, COMPANY_WORDS), LEGAL)).replace(/[’']s$/i, '');
  return company === '' ? undefined : { company, ...x };
}

const TOPIC_WORDS = /\b(?:topic|theme|on the subject of)\b/gi;
const KNOWN_TOPIC = new RegExp(`\\b(?:${TOPIC_NAMES.map(escape).join('|')})\\b`, 'i');

export function topicFromText(t: string): z.input<typeof TopicInput> | undefined {
  const named = new RegExp(TOPIC_WORDS.source, 'i').test(t);
  const known = KNOWN_TOPIC.exec(t);
  if (!named && !known) return undefined;
  const { rest, ...x } = extras(t);
  // A known theme named among other words ("inflation in Spain") is still that theme's coverage;
  // "topic: X" takes X whole.
  const topic = named ? subject(without(rest, TOPIC_WORDS)) : known![0];
  return topic === '' ? undefined : { topic, ...x };
}

const NOT_A_QUERY = /^(?:help|hi|hello|hey|what can you do\??|\?+|usage|news)$/i;

export function searchFromText(t: string): z.input<typeof SearchInput> | undefined {
  if (NOT_A_QUERY.test(t.trim())) return undefined;
  const { rest, ...x } = extras(t);
  const query = subject(rest);
  return query === '' ? undefined : { query, ...x };
}
