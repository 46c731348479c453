// What a sec-filings request asks, from JSON fields or plain language ("Apple's last 10-K", "8-Ks
// from MSFT since 2025-01-01", "who are Tesla's executives", "filing 0000320193-25-000079",
// "search filings mentioning \"supply chain\""). Readers return undefined when the text is not for
// their skill, so the next one may claim it.
import { z } from 'zod';
import { limitField, limitIn, without, limitOf } from '../kit/public-data/index.js';
import { normalAccession } from '../kit/public-data/sec/index.js';

const company = z.string().trim().min(1).max(200);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');
const form = z
  .string()
  .trim()
  .min(1)
  .max(20)
  .regex(/^[A-Za-z0-9 ./-]+$/, 'must be an EDGAR form type, e.g. "10-K"');

export const FilingsInput = z.object({
  company,
  forms: z.array(form).max(10).optional(),
  from: day.optional(),
  to: day.optional(),
  limit: limitField,
});
export type FilingsInput = z.output<typeof FilingsInput>;

export const FilingInput = z.object({
  accession: z
    .string()
    .trim()
    .refine((a) => normalAccession(a) !== undefined, {
      message: 'must be an accession number like 0000320193-25-000079',
    })
    .transform((a) => normalAccession(a)!),
  company: company.optional(),
});
export type FilingInput = z.output<typeof FilingInput>;

export const ExecutivesInput = z.object({ company });
export type ExecutivesInput = z.output<typeof ExecutivesInput>;

export const SearchInput = z.object({
  query: z.string().trim().min(2).max(300),
  forms: z.array(form).max(10).optional(),
  company: company.optional(),
  from: day.optional(),
  to: day.optional(),
  limit: limitField,
});
export type SearchInput = z.output<typeof SearchInput>;

/** Form types people name, and the words that mean them. */
const FORM =
  /\b(10-K|10-Q|8-K|20-F|40-F|6-K|S-1|S-3|S-4|F-1|DEF ?14A|SC 13[DG]|13F-HR|11-K|N-CSR|144|form [345])(\/A)?(?:'?s)?\b/gi;
const FORM_WORDS: Array<[RegExp, string]> = [
  [/\bannual reports?\b/gi, '10-K'],
  [/\bquarterly reports?\b/gi, '10-Q'],
  [/\bcurrent reports?\b/gi, '8-K'],
  [/\bproxy(?: statements?)?\b/gi, 'DEF 14A'],
  [/\binsider (?:forms?|filings?)\b/gi, '4'],
];

function formsIn(t: string): { forms: string[]; rest: string } {
  const forms: string[] = [];
  let rest = t.replace(FORM, (_m, f: string, amended: string | undefined) => {
    let name = f
      .toUpperCase()
      .replace(/^FORM /, '')
      .replace(/^DEF ?14A$/, 'DEF 14A');
    if (amended) name += '/A';
    if (!forms.includes(name)) forms.push(name);
    return ' ';
  });
  for (const [re, name] of FORM_WORDS) {
    rest = rest.replace(re, () => {
      if (!forms.includes(name)) forms.push(name);
      return ' ';
    });
  }
  return { forms, rest };
}

function datesIn(t: string): { from?: string; to?: string; rest: string } {
  const out: { from?: string; to?: string } = {};
  let rest = t.replace(/\b(?:since|after|from)\s+(\d{4}-\d{2}-\d{2})\b/i, (_m, d: string) => {
    out.from = d;
    return ' ';
  });
  rest = rest.replace(/\b(?:before|until|to)\s+(\d{4}-\d{2}-\d{2})\b/i, (_m, d: string) => {
    out.to = d;
    return ' ';
  });
  rest = rest.replace(/\bin\s+((?:19|20)\d{2})\b/i, (_m, y: string) => {
    out.from = `${y}-01-01`;
    out.to = `${y}-12-31`;
    return ' ';
  });
  return { ...out, rest };
}

const FILLER =
  /\b(?:show|find|list|get|give|fetch|pull|me|us|please|the|a|an|all|any|its|their|of|by|for|from|on|at|what|are|is|were|was|sec|edgar|filed|files|filings?|documents?|reports?|recent|recently|latest|last|newest|most|top|first|\d+|company|companies|corp(?:oration)?|inc)\b/gi;

/** The company named in what is left, without possessives and filler. */
function companyIn(rest: string): string {
  const cik = /\bCIK\s*#?\s*(\d{1,10})\b/i.exec(rest);
  if (cik) return cik[1]!;
  return without(rest.replace(/(\w)['’]s\b/g, '$1'), FILLER);
}

export function filingFromText(t: string): z.input<typeof FilingInput> | undefined {
  const m = /\b(\d{10}-\d{2}-\d{6}|\d{18})\b/.exec(t);
  if (!m) return undefined;
  const rest = companyIn(
    t.replace(m[0], ' ').replace(/\b(?:detail|details|accession|number|no)\b/gi, ' ')
  );
  return { accession: m[1]!, ...(rest !== '' && rest.length <= 60 ? { company: rest } : {}) };
}

const EXECUTIVES =
  /\b(?:executives?|officers?|directors?|management|leadership|ceo|cfo|who runs|who leads|board)\b/i;

export function executivesFromText(t: string): z.input<typeof ExecutivesInput> | undefined {
  if (!EXECUTIVES.test(t)) return undefined;
  const c = companyIn(
    t.replace(
      /\b(?:executives?|officers?|directors?|management|leadership|ceo|cfo|who|runs|leads|board|team|named|key|top)\b/gi,
      ' '
    )
  );
  return c === '' ? undefined : { company: c };
}

const SEARCH =
  /\b(?:search|mentioning|mentions?|containing|contains?|full[- ]text|that say|about)\b/i;

export function searchFromText(t: string): z.input<typeof SearchInput> | undefined {
  const quoted = /["“]([^"”]{2,300})["”]/.exec(t);
  if (!quoted && !SEARCH.test(t)) return undefined;
  const { forms, rest: r1 } = formsIn(quoted ? t.replace(quoted[0], ' ') : t);
  const { from, to, rest } = datesIn(r1);
  const query = quoted
    ? `"${quoted[1]!.trim()}"`
    : without(
        rest.replace(/\b(?:top|first)\s+\d+\b/gi, ' '),
        /\b(?:search|full[- ]text|sec|edgar|filings?|documents?|for|mentioning|mentions?|containing|contains?|that say|about|find|show|me|please|in|the)\b/gi
      );
  if (query === '' || query.length < 2) return undefined;
  return {
    query,
    ...(forms.length > 0 ? { forms } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...limitOf(rest),
  };
}

const LAST_ONE =
  /\b(?:last|latest|most recent|newest)\s+(?:annual report|quarterly report|current report|proxy(?: statement)?|form [345]|DEF ?14A|[A-Z0-9]{1,4}-[A-Z0-9]{1,3})(?:\/A)?\b(?!['’]?s\b)/i;

export function filingsFromText(t: string): z.input<typeof FilingsInput> | undefined {
  const { forms, rest: r1 } = formsIn(t);
  const { from, to, rest } = datesIn(r1);
  if (forms.length === 0 && !/\bfilings?\b/i.test(t)) return undefined;
  const c = companyIn(rest);
  if (c === '') return undefined;
  // "the last 10-K" (singular) is one filing; "last 5 10-Ks" and plurals take the count or default.
  const one = LAST_ONE.test(t);
  const limit = limitIn(rest) ?? (one ? 1 : undefined);
  return {
    company: c,
    ...(forms.length > 0 ? { forms } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(limit ? { limit } : {}),
  };
}
