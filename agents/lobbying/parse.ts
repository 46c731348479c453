// What a lobbying request asks, from JSON fields or plain language ("top lobbying spenders on
// healthcare in 2025", "Pfizer's lobbying", "who lobbies on immigration", "lobbying on drone
// delivery"). Readers return undefined when the text is not for their skill, so the next may claim it.
import { z } from 'zod';
import { limitField, without, limitOf } from '../kit/public-data/index.js';
import { issueCode, issueIn } from './issues.js';
import { PERIODS, type Period } from './lda.js';

const text = z.string().trim().min(1).max(200);
/** LDA's electronic filings start in 1999. */
const year = z.number().int().min(1999).max(2100).optional();
const period = z.enum(PERIODS).optional();
const issue = z
  .string()
  .trim()
  .min(1)
  .transform((s, ctx) => {
    const code = issueCode(s);
    if (code === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be an LDA issue code such as HCR or an area such as "healthcare"',
      });
      return z.NEVER;
    }
    return code;
  });

export const TopSpendersInput = z.object({
  year,
  period,
  issue: issue.optional(),
  limit: limitField,
});
export type TopSpendersInput = z.output<typeof TopSpendersInput>;

export const CompanyInput = z.object({ company: text, year, limit: limitField });
export type CompanyInput = z.output<typeof CompanyInput>;

export const IssueInput = z.object({ issue, year, period, limit: limitField });
export type IssueInput = z.output<typeof IssueInput>;

export const SearchInput = z.object({ query: text, year, limit: limitField });
export type SearchInput = z.output<typeof SearchInput>;

const YEAR = /\b(1999|20\d{2})\b/;
const YEAR_WORDS = /\b(?:in|for|during|of)?\s*(?:1999|20\d{2})\b/gi;
const PERIOD =
  /\b(?:q([1-4])|(first|second|third|fourth|1st|2nd|3rd|4th) quarter|(mid[- ]?year)|(year[- ]?end))\b/i;
const PERIOD_WORDS =
  /\b(?:in|for|during)?\s*(?:the\s+)?(?:q[1-4]|(?:first|second|third|fourth|1st|2nd|3rd|4th) quarter|mid[- ]?year|year[- ]?end)(?:\s+of)?\b/gi;
const COUNT_WORDS = /\b(?:top|first|last|latest)\s+\d{1,3}\b|\b\d{1,3}\s+(?:results|items)\b/gi;

export function yearIn(t: string): number | undefined {
  const m = YEAR.exec(t);
  return m ? Number(m[1]) : undefined;
}

export function periodIn(t: string): Period | undefined {
  const m = PERIOD.exec(t);
  if (!m) return undefined;
  if (m[3] !== undefined) return 'mid_year';
  if (m[4] !== undefined) return 'year_end';
  const n = m[1] ?? { first: '1', second: '2', third: '3', fourth: '4' }[m[2]!.toLowerCase()];
  const q = n ?? m[2]!.charAt(0);
  return (['first_quarter', 'second_quarter', 'third_quarter', 'fourth_quarter'] as const)[
    Number(q) - 1
  ];
}

/** The text without its year, period and count, which every skill reads the same way. */
function bare(t: string): string {
  return without(without(without(t, COUNT_WORDS), PERIOD_WORDS), YEAR_WORDS);
}

function when(t: string): { year?: number; period?: Period; limit?: number } {
  const y = yearIn(t);
  const p = periodIn(t);
  return { ...(y ? { year: y } : {}), ...(p ? { period: p } : {}), ...limitOf(t) };
}

const TOP =
  /\b(?:top|biggest|largest|leading|highest|heaviest)\b.*\b(?:spenders?|spending|spent|spend|clients?|lobbyists?|payers?)\b|\b(?:who|which (?:companies|clients|firms|organi[sz]ations))\s+(?:spen[dt]s?|paid|pays?)\s+(?:the\s+)?most\b|\bspent the most\b|\bmost (?:on|spent on) lobbying\b/i;
const TOP_WORDS =
  /\b(?:top|biggest|largest|leading|highest|heaviest|who|which|companies|clients?|firms|organi[sz]ations|lobbying|lobbyists?|spenders?|spending|spent|spends?|paid|pays?|payers?|the|most|on|in|for|of|show|list|me|give|federal|u\.?s\.?)\b/gi;

export function topSpendersFromText(t: string): z.input<typeof TopSpendersInput> | undefined {
  if (!TOP.test(t)) return undefined;
  const rest = without(bare(t), TOP_WORDS);
  const code = rest === '' ? undefined : issueIn(rest);
  return { ...when(t), ...(code ? { issue: code } : {}) };
}

const FILLER =
  /\b(?:show|find|list|search|get|give|me|please|any|all|the|a|an|of|on|about|for|in|lobbying|lobby|lobbies|lobbied|lobbyists?|filings?|disclosures?|reports?|ld-?2|activity|activities|issues?|who|what|is|are|was|were|spending|spend|does|did|do)\b/gi;

const COMPANY: readonly RegExp[] = [
  /\b(?:lobbying|lobbied|lobbyists?|filings?)\s+(?:by|from|paid by|hired by)\s+(.+)$/i,
  /\b(?:company|client)\s*[:=]\s*(.+)$/i,
  /^(?:show\s+(?:me\s+)?)?(.+?)(?:'s|’s)\s+(?:lobbying|lobbyists|filings|lobbying spend(?:ing)?)\b/i,
  /\bhow much (?:does|did|has)\s+(.+?)\s+(?:spen[dt]|paid|pay)\b/i,
  /\bwho (?:lobbies|lobbied) for\s+(.+)$/i,
];
/** "Pfizer lobbying": a name (capitalised) followed by the word. */
const NAME_THEN_LOBBYING =
  /^([A-Z0-9][\w&.,'’-]*(?:\s+[A-Z0-9&][\w&.,'’-]*)*)\s+lobbying(?:\s+(?:spend(?:ing)?|expenses|filings|disclosures|reports|activity|history))?$/;

export function companyFromText(t: string): z.input<typeof CompanyInput> | undefined {
  const b = bare(t);
  let name: string | undefined;
  for (const re of COMPANY) {
    const m = re.exec(b);
    if (m) {
      name = m[1];
      break;
    }
  }
  name ??= NAME_THEN_LOBBYING.exec(b)?.[1];
  if (name === undefined) return undefined;
  const company = without(name, /\b(?:on|in|the company|company|inc\.?)$/gi);
  // "who lobbies for healthcare" is about an issue; "Acme Health Systems" is a name.
  if (company === '' || (!/^[A-Z0-9]/.test(company) && issueIn(company) !== undefined)) {
    return undefined;
  }
  const { year: y, limit } = when(t);
  return { company, ...(y ? { year: y } : {}), ...(limit ? { limit } : {}) };
}

export function issueFromText(t: string): z.input<typeof IssueInput> | undefined {
  const code = issueIn(bare(t));
  if (code === undefined) return undefined;
  return { issue: code, ...when(t) };
}

const NOT_A_QUERY = /^(?:help|hi|hello|hey|what can you do\??|\?+|usage)$/i;

export function searchFromText(t: string): z.input<typeof SearchInput> | undefined {
  if (NOT_A_QUERY.test(t.trim())) return undefined;
  const query = without(bare(t), FILLER);
  if (query === '') return undefined;
  const { year: y, limit } = when(t);
  return { query, ...(y ? { year: y } : {}), ...(limit ? { limit } : {}) };
}
