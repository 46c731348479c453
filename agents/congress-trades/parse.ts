// What a congress-trades request asks, from JSON fields or plain language ("who in Congress traded
// $NVDA", "trades by Senator Tuberville in 2026", "recent House stock trades"). Plain-language
// readers return undefined when the text is not for their skill, so the next skill may claim it.
import { z } from 'zod';
import { limitField, limitIn, without } from '../kit/public-data/index.js';

const text = z.string().trim().min(1).max(200);
const chamber = z.enum(['house', 'senate']).optional();
const days = z.number().int().min(1).max(366).optional();
const year = z.number().int().min(2012).max(2100).optional();
const type = z.enum(['purchase', 'sale', 'exchange']).optional();
const ticker = z
  .string()
  .trim()
  .regex(/^\$?[A-Za-z]{1,5}(?:[.-][A-Za-z]{1,2})?$/, 'must be a stock ticker such as NVDA or BRK.B')
  .transform((s) => s.replace(/^\$/, '').toUpperCase());

export const StockInput = z.object({ ticker, chamber, days, year, type, limit: limitField });
export type StockInput = z.output<typeof StockInput>;

export const MemberInput = z.object({
  name: text,
  chamber,
  days,
  year,
  type,
  ticker: ticker.optional(),
  limit: limitField,
});
export type MemberInput = z.output<typeof MemberInput>;

export const RecentInput = z.object({ chamber, days, type, limit: limitField });
export type RecentInput = z.output<typeof RecentInput>;

export const SearchInput = z.object({
  query: text,
  chamber,
  days,
  year,
  type,
  limit: limitField,
});
export type SearchInput = z.output<typeof SearchInput>;

export interface Window {
  from: string;
  to: string;
  label: string;
}

/** The filing-date window: a calendar year, or the last `days` days up to today. */
export function windowOf(
  now: number,
  o: { days?: number | undefined; year?: number | undefined },
  defaultDays: number
): Window {
  if (o.year !== undefined) {
    return { from: `${o.year}-01-01`, to: `${o.year}-12-31`, label: `filed in ${o.year}` };
  }
  const d = o.days ?? defaultDays;
  const to = new Date(now).toISOString().slice(0, 10);
  const from = new Date(now - (d - 1) * 86_400_000).toISOString().slice(0, 10);
  return { from, to, label: `filed in the last ${d} days` };
}

/** Upper-case words that are not tickers in these requests. */
const NOT_TICKERS = new Set([
  'US',
  'USA',
  'PTR',
  'PTRS',
  'SEC',
  'ETF',
  'IPO',
  'CEO',
  'THE',
  'AND',
  'GOP',
  'DC',
  'SP',
  'JT',
  'EFD',
  'I',
  'A',
]);

const TICKER_PATTERNS = [
  /\$([A-Za-z]{1,5}(?:\.[A-Za-z])?)\b/,
  /\b(?:ticker|symbol)\s*:?\s*([A-Za-z]{1,5}(?:\.[A-Za-z])?)\b/i,
  /\b([A-Z]{1,5}(?:\.[A-Z])?)\s+(?:stock|shares|options?|trades?|calls?|puts?)\b/,
  /\b(?:in|of|bought|sold|buying|selling|traded|trading|trades?)\s+([A-Z]{2,5}(?:\.[A-Z])?)\b/,
];

export function tickerIn(t: string): string | undefined {
  for (const re of TICKER_PATTERNS) {
    const m = re.exec(t);
    const s = m?.[1]?.toUpperCase();
    if (s !== undefined && !NOT_TICKERS.has(s)) return s;
  }
  return undefined;
}

function options(t: string): {
  chamber?: 'house' | 'senate';
  days?: number;
  year?: number;
  type?: 'purchase' | 'sale' | 'exchange';
  limit?: number;
} {
  const o: ReturnType<typeof options> = {};
  if (/\b(?:senate|senators?|sen\.)/i.test(t)) o.chamber = 'senate';
  else if (/\b(?:house|representatives?|rep\.|congress(?:wo)?m[ae]n)/i.test(t)) o.chamber = 'house';
  const d = /\b(?:last|past)\s+(\d{1,3})\s+days?\b/i.exec(t);
  if (d) o.days = Math.min(366, Math.max(1, Number(d[1])));
  else if (/\b(?:this|last|past)\s+week\b/i.test(t)) o.days = 7;
  else if (/\b(?:this|last|past)\s+month\b/i.test(t)) o.days = 31;
  const y = /\b(?:in|for|during|of)\s+(20\d{2})\b/i.exec(t);
  if (y) o.year = Number(y[1]);
  if (/\b(?:bought|buys?|buying|purchases?|purchased)\b/i.test(t)) o.type = 'purchase';
  else if (/\b(?:sold|sells?|selling|sales?)\b/i.test(t)) o.type = 'sale';
  const limit = limitIn(t);
  if (limit !== undefined) o.limit = limit;
  return o;
}

export function stockFromText(t: string): z.input<typeof StockInput> | undefined {
  const found = tickerIn(t);
  return found ? { ticker: found, ...options(t) } : undefined;
}

const NAME = String.raw`((?:[A-Z][\p{L}'’.-]+)(?:\s+[A-Z][\p{L}'’.-]+){0,2})`;
const NOT_NAMES =
  /^(?:Congress|House|Senate|Senators?|Representatives?|Members?|Democrats?|Republicans?|PTRs?)$/;
const MEMBER_PATTERNS = [
  new RegExp(
    String.raw`\b(?:[Ss]enator|[Ss]en\.|[Rr]ep(?:resentative|\.)|[Cc]ongress(?:wo)?man|[Ss]peaker)\s+${NAME}`,
    'u'
  ),
  new RegExp(String.raw`\b(?:by|from|of|for)\s+${NAME}`, 'u'),
  new RegExp(String.raw`^${NAME}['’]s?\s`, 'u'),
];

export function memberFromText(t: string): z.input<typeof MemberInput> | undefined {
  for (const re of MEMBER_PATTERNS) {
    const m = re.exec(t);
    const name = m?.[1]
      ?.split(/\s+/)
      .filter((w) => !NOT_NAMES.test(w) && !/^(?:In|Since|During)$/.test(w))
      .join(' ');
    if (name && /^[A-Z]/.test(name) && !/^\d/.test(name)) {
      return { name, ...options(t) };
    }
  }
  return undefined;
}

const RECENT =
  /\b(?:recent|latest|newest|new|this week|this month|today|(?:last|past)\s+\d{1,3}\s+days?)\b/i;
const FILLER =
  /\b(?:show|find|list|search|get|give|me|please|any|all|the|a|an|of|on|about|for|with|in|by|who|what|which|did|has|have|had|members?|congress(?:ional)?|house|senate|senators?|representatives?|stocks?|shares?|equity|equities|trades?|trading|traded|transactions?|disclosures?|reports?|ptrs?|bought|buys?|buying|purchases?|purchased|sold|sells?|selling|sales?|recent|latest|newest|new|this|last|past|week|month|year|days?|\d+|top|first)\b/gi;

export function recentFromText(t: string): z.input<typeof RecentInput> | undefined {
  if (!RECENT.test(t)) return undefined;
  if (topicOf(t) !== '') return undefined;
  const { year: _year, ...o } = options(t);
  return o;
}

export function topicOf(t: string): string {
  return without(t, FILLER);
}

const NOT_A_QUERY = /^(?:help|hi|hello|hey|what can you do\??|\?+|usage)$/i;

export function searchFromText(t: string): z.input<typeof SearchInput> | undefined {
  if (NOT_A_QUERY.test(t.trim())) return undefined;
  const query = topicOf(t);
  if (query === '') return undefined;
  return { query, ...options(t) };
}
