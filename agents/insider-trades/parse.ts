// What an insider-trades request asks, from JSON fields or plain language ("insider trades at
// AAPL", "trades by Timothy Cook", "insider sentiment for Tesla over 6 months", "latest insider
// filings"). Readers return undefined when the text is not for their skill.
import { z } from 'zod';
import { limitField, without, limitOf } from '../kit/public-data/index.js';

const name = z.string().trim().min(1).max(200);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');
const code = z.string().regex(/^[A-Z]$/, 'must be a one-letter transaction code, e.g. "P"');

export const StockInput = z.object({
  company: name,
  codes: z.array(code).max(20).optional(),
  from: day.optional(),
  to: day.optional(),
  limit: limitField,
});
export type StockInput = z.output<typeof StockInput>;

export const InsiderInput = z.object({
  insider: name,
  codes: z.array(code).max(20).optional(),
  limit: limitField,
});
export type InsiderInput = z.output<typeof InsiderInput>;

export const SentimentInput = z.object({
  company: name,
  months: z.number().int().min(1).max(24).optional(),
});
export type SentimentInput = z.output<typeof SentimentInput>;

export const RecentInput = z.object({ limit: limitField });
export type RecentInput = z.output<typeof RecentInput>;

const FILLER =
  /\b(?:show|find|list|get|give|me|please|the|a|an|all|any|of|for|at|in|on|about|what|whats|is|are|has|have|did|does|insiders?|insider'?s|trad(?:es|ing|e)|transactions?|form ?4s?|filings?|sec|edgar|purchases?|buys?|buying|bought|sales?|sells?|selling|sold|stock|shares?|company|recent|recently|latest|last|newest|top|first|\d+|results)\b/gi;

function rest(t: string): string {
  return without(t.replace(/(\w)['’]s\b/g, '$1'), FILLER);
}

/** "buys" or "sales" in the text narrows to P or S. */
function codesIn(t: string): string[] | undefined {
  const buy = /\b(?:purchases?|buys?|buying|bought)\b/i.test(t);
  const sell = /\b(?:sales?|sells?|selling|sold)\b/i.test(t);
  if (buy === sell) return undefined;
  return buy ? ['P'] : ['S'];
}

const SENTIMENT =
  /\b(?:sentiment|buys? (?:vs\.?|versus) sells?|buying (?:vs\.?|versus) selling|net (?:buying|selling)|monthly)\b/i;

export function sentimentFromText(t: string): z.input<typeof SentimentInput> | undefined {
  if (!SENTIMENT.test(t)) return undefined;
  const m =
    /\b(?:over|for|in|past|last)\s+(?:the\s+)?(?:(?:past|last)\s+)?(\d{1,2})\s+months?\b/i.exec(t);
  const company = rest(
    (m ? t.replace(m[0], ' ') : t).replace(
      /\b(?:sentiment|vs\.?|versus|net|monthly|month|months|over|by)\b/gi,
      ' '
    )
  );
  if (company === '') return undefined;
  return { company, ...(m ? { months: Number(m[1]) } : {}) };
}

export function insiderFromText(t: string): z.input<typeof InsiderInput> | undefined {
  const cik = /\b(?:insider|owner|person)\s+(?:CIK\s*)?(\d{4,10})\b/i.exec(t);
  const by = /\b(?:by|from)\s+(?!insiders?\b)(.+)$/i.exec(t);
  if (!cik && !by) return undefined;
  const insider = cik ? cik[1]! : rest(by![1]!);
  if (insider === '') return undefined;
  const codes = codesIn(t);
  return { insider, ...(codes ? { codes } : {}), ...limitOf(t) };
}

export function recentFromText(t: string): z.input<typeof RecentInput> | undefined {
  if (!/\b(?:latest|recent|newest|today'?s?|new|just filed)\b/i.test(t)) return undefined;
  if (!/\b(?:insiders?|form ?4s?|trades|trading)\b/i.test(t)) return undefined;
  if (
    rest(t.replace(/\b(?:today'?s?|new|just|filed|across|market|edgar|everyone)\b/gi, ' ')) !== ''
  ) {
    return undefined;
  }
  return limitOf(t);
}

export function stockFromText(t: string): z.input<typeof StockInput> | undefined {
  if (!/\b(?:insiders?|form ?4s?|insider'?s)\b/i.test(t)) return undefined;
  const company = rest(t);
  if (company === '') return undefined;
  const codes = codesIn(t);
  return { company, ...(codes ? { codes } : {}), ...limitOf(t) };
}
