// What a reddit request asks, from JSON fields or plain language ("r/rust top posts this week",
// "how does reddit feel about Tesla", "reddit posts about the company Nvidia", "reddit threads
// about mechanical keyboards"). Readers return undefined when the text is not for their skill.
import { z } from 'zod';
import { limitField, without, limitOf } from '../kit/public-data/index.js';

export const SORTS = ['relevance', 'hot', 'top', 'new', 'comments'] as const;
export const LISTINGS = ['hot', 'new', 'top'] as const;
export const TIMES = ['hour', 'day', 'week', 'month', 'year', 'all'] as const;

const text = z.string().trim().min(1).max(200);
const time = z.enum(TIMES).optional();

export const SUBREDDIT = /^[A-Za-z0-9][A-Za-z0-9_]{1,20}$/;

export const SearchInput = z.object({
  query: text,
  sort: z.enum(SORTS).optional(),
  time,
  limit: limitField,
});
export type SearchInput = z.output<typeof SearchInput>;

export const CompanyInput = z.object({ company: text, time, limit: limitField });
export type CompanyInput = z.output<typeof CompanyInput>;

export const SubredditInput = z.object({
  subreddit: z
    .string()
    .trim()
    .transform((s) => s.replace(/^\/?r\//i, ''))
    .pipe(z.string().regex(SUBREDDIT, 'must be a subreddit name such as "rust" or "r/rust"')),
  query: text.optional(),
  sort: z.enum(LISTINGS).optional(),
  time,
  limit: limitField,
});
export type SubredditInput = z.output<typeof SubredditInput>;

export const SentimentInput = z.object({
  query: text,
  subreddit: SubredditInput.shape.subreddit.optional(),
  time,
  limit: limitField,
});
export type SentimentInput = z.output<typeof SentimentInput>;

/** "today", "this week", "of all time" → Reddit's `t`. */
export function timeIn(t: string): (typeof TIMES)[number] | undefined {
  if (/\b(?:past|last|this)\s+hour\b/i.test(t)) return 'hour';
  if (/\b(?:today|past day|last 24 hours|this day)\b/i.test(t)) return 'day';
  if (/\b(?:this|past|last)\s+week\b/i.test(t)) return 'week';
  if (/\b(?:this|past|last)\s+month\b/i.test(t)) return 'month';
  if (/\b(?:this|past|last)\s+year\b/i.test(t)) return 'year';
  if (/\b(?:all[- ]time|ever)\b/i.test(t)) return 'all';
  return undefined;
}

const TIME_WORDS =
  /\b(?:(?:past|last|this)\s+(?:hour|day|week|month|year)|today|last 24 hours|of all[- ]time|all[- ]time|ever)\b/gi;
const FILLER =
  /\b(?:show|find|list|search|get|give|me|please|any|all|the|a|an|of|on|about|for|with|in|at|from|what|is|are|does|do|how|whats|what's|reddit|reddit's|redditors|people|posts?|threads?|discussions?|say(?:ing)?|talk(?:ing)?|top|first|latest|\d{1,3}\s+(?:results|items))\b/gi;

function subject(t: string): string {
  return without(without(without(t, TIME_WORDS), /\b(?:top|first|latest)\s+\d{1,3}\b/gi), FILLER)
    .replace(/[?!.]+$/, '')
    .trim();
}

function extras(t: string): { time?: (typeof TIMES)[number]; limit?: number } {
  const time = timeIn(t);
  return { ...(time ? { time } : {}), ...limitOf(t) };
}

const SUB_IN =
  /(?:^|\s)\/?r\/([A-Za-z0-9][A-Za-z0-9_]{1,20})\b|\bsubreddit\s+([A-Za-z0-9][A-Za-z0-9_]{1,20})\b/i;

const SENTIMENT =
  /\b(?:sentiment|tone|mood|positive or negative|negative or positive|how (?:positive|negative)|feel(?:ing|s)? about|think(?:s|ing)? (?:of|about)|opinions? (?:of|on|about))\b/gi;

export function sentimentFromText(t: string): z.input<typeof SentimentInput> | undefined {
  if (!new RegExp(SENTIMENT.source, 'i').test(t)) return undefined;
  const sub = SUB_IN.exec(t);
  const rest = sub ? t.replace(sub[0], ' ') : t;
  const query = subject(without(rest, SENTIMENT)).replace(/^(?:toward|towards)\s+/i, '');
  if (query === '') return undefined;
  return { query, ...(sub ? { subreddit: (sub[1] ?? sub[2])! } : {}), ...extras(t) };
}

const SORT_IN = /\b(hot|new|newest|top)\b/i;

export function subredditFromText(t: string): z.input<typeof SubredditInput> | undefined {
  const m = SUB_IN.exec(t);
  if (!m) return undefined;
  const rest = t.replace(m[0], ' ');
  const sortWord = SORT_IN.exec(rest)?.[1]?.toLowerCase();
  const sort = sortWord === 'newest' ? 'new' : (sortWord as 'hot' | 'new' | 'top' | undefined);
  const query = subject(without(rest, /\b(?:hot|new|newest|top|subreddit|sub)\b/gi));
  return {
    subreddit: (m[1] ?? m[2])!,
    ...(query !== '' ? { query } : {}),
    ...(sort ? { sort } : {}),
    ...extras(t),
  };
}

const COMPANY_WORDS =
  /\b(?:company|companies|firm|corporation|business|stock|shares|share price|ticker)\b/gi;
const LEGAL = /\b(?:inc|incorporated|corp|co|ltd|llc|plc|ag|gmbh|sa|nv)\b\.?/gi;

export function companyFromText(t: string): z.input<typeof CompanyInput> | undefined {
  if (!new RegExp(COMPANY_WORDS.source, 'i').test(t) && !new RegExp(LEGAL.source, 'i').test(t)) {
    return undefined;
  }
  const company = subject(without(without(t, COMPANY_WORDS), LEGAL)).replace(/[’']s$/i, '');
  return company === '' ? undefined : { company, ...extras(t) };
}

const NOT_A_QUERY = /^(?:help|hi|hello|hey|what can you do\??|\?+|usage|reddit)$/i;

export function searchFromText(t: string): z.input<typeof SearchInput> | undefined {
  if (NOT_A_QUERY.test(t.trim())) return undefined;
  const query = subject(t);
  if (query === '') return undefined;
  const sortWord = /\b(?:newest|most recent)\b/i.test(t) ? 'new' : undefined;
  return { query, ...(sortWord ? { sort: sortWord } : {}), ...extras(t) };
}
