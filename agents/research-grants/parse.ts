// What a research-grants request asks, from JSON fields or plain language ("NIH grants to PI
// Jennifer Doudna", "grants at Johns Hopkins University", "recent grants on CRISPR", "NSF awards
// for quantum computing"). Readers return undefined when the text is not for their skill.
import { z } from 'zod';
import { limitField, without, limitOf } from '../kit/public-data/index.js';
import { SOURCES, type SourceId } from './grant.js';

const text = z.string().trim().min(1).max(200);
const year = z.number().int().min(1985).max(2100).optional();
const sources = z.array(z.enum(SOURCES)).min(1, 'name at least one of "nih", "nsf"').optional();

export const SearchInput = z.object({ query: text, year, sources, limit: limitField });
export type SearchInput = z.output<typeof SearchInput>;

export const InvestigatorInput = z.object({
  investigator: text,
  query: text.optional(),
  year,
  sources,
  limit: limitField,
});
export type InvestigatorInput = z.output<typeof InvestigatorInput>;

export const InstitutionInput = z.object({
  institution: text,
  query: text.optional(),
  year,
  sources,
  limit: limitField,
});
export type InstitutionInput = z.output<typeof InstitutionInput>;

export const RecentInput = z.object({
  query: text.optional(),
  days: z.number().int().min(1).max(3650).optional(),
  sources,
  limit: limitField,
});
export type RecentInput = z.output<typeof RecentInput>;

const YEAR = /\b(?:in|for|during|of|fy)?\s*((?:19|20)\d{2})\b/i;
const SOURCE_WORDS =
  /\b(?:nih|nsf|reporter|national institutes of health|national science foundation)\b/gi;
const FILLER =
  /\b(?:show|find|list|search|get|give|me|please|any|all|the|a|an|of|on|about|for|in|into|with|research|grants?|awards?|funding|funded|projects?|nih|nsf|and|or|what|which|are|is|who|got|received|recent(?:ly)?|new|newly|latest)\b/gi;
const COUNT =
  /\b(?:top|first|last|latest)\s+\d{1,3}\b(?!\s*(?:days?|weeks?|months?|years?))|\b\d{1,3}\s+(?:results|items)\b/gi;

/** Which sources the text names; both when it names neither or both. */
export function sourcesIn(t: string): SourceId[] | undefined {
  const nih = /\b(?:nih|reporter|national institutes of health)\b/i.test(t);
  const nsf = /\b(?:nsf|national science foundation)\b/i.test(t);
  if (nih === nsf) return undefined;
  return nih ? ['nih'] : ['nsf'];
}

function common(t: string): { year?: number; sources?: SourceId[]; limit?: number } {
  const y = YEAR.exec(t);
  const s = sourcesIn(t);
  return {
    ...(y ? { year: Number(y[1]) } : {}),
    ...(s ? { sources: s } : {}),
    ...limitOf(t),
  };
}

/** The text without the year, the count and the source names. */
function bare(t: string): string {
  return without(without(without(t, COUNT), new RegExp(YEAR.source, 'gi')), SOURCE_WORDS);
}

function topic(t: string): string {
  return without(t, FILLER);
}

const PERSON_WORD =
  /\b(?:pi|p\.i\.|principal investigator|investigator|professor|prof\.?|dr\.?|scientist|researcher)\s*[:=]?\s+/iu;
/** A name is capitalised: "Jennifer Doudna", "Alvarez", "Mary-Claire King". */
const NAME = /^[A-Z][\p{L}'’.-]*(?:\s+[A-Z][\p{L}'’.-]*){0,3}/u;

export function investigatorFromText(t: string): z.input<typeof InvestigatorInput> | undefined {
  const b = bare(t);
  const k = PERSON_WORD.exec(b);
  if (!k) return undefined;
  const after = b.slice(k.index + k[0].length);
  const name = NAME.exec(after);
  if (!name) return undefined;
  const investigator = name[0].replace(/[.,]+$/, '');
  const rest = topic(
    without(`${b.slice(0, k.index)} ${after.slice(name[0].length)}`, /\b(?:by|to|from|led by)\b/gi)
  );
  const { year: y, sources: s, limit } = common(t);
  return {
    investigator,
    ...(rest !== '' ? { query: rest } : {}),
    ...(y ? { year: y } : {}),
    ...(s ? { sources: s } : {}),
    ...(limit ? { limit } : {}),
  };
}

const ORG_WORD =
  /(?:universit(?:y|ies)|college|institute|school|hospital|cent(?:er|re)|foundation|laborator(?:y|ies)|clinic|academy)/i;
const AT =
  /\b(?:at|to|from|for|institution|awardee|organi[sz]ation)\s*[:=]?\s+((?:the\s+)?[A-Z][\p{L}&.'’-]*(?:\s+(?:of|and|for|at|the|[A-Z&][\p{L}&.'’-]*))*)/u;
/** Acronyms people use for institutions (MIT, UCLA): capitals only, 2 to 6 letters. */
const ACRONYM = /^[A-Z]{2,6}$/;

export function institutionFromText(t: string): z.input<typeof InstitutionInput> | undefined {
  const b = bare(t);
  const m = AT.exec(b);
  if (!m) return undefined;
  const institution = without(m[1]!, /^the\s+|\s+(?:of|and|for|at|the)$/gi);
  if (!ORG_WORD.test(institution) && !ACRONYM.test(institution)) return undefined;
  const rest = topic(b.slice(0, m.index) + ' ' + b.slice(m.index + m[0].length));
  const { year: y, sources: s, limit } = common(t);
  return {
    institution,
    ...(rest !== '' ? { query: rest } : {}),
    ...(y ? { year: y } : {}),
    ...(s ? { sources: s } : {}),
    ...(limit ? { limit } : {}),
  };
}

const RECENT =
  /\b(?:recent(?:ly)?|new|newly|latest|just awarded|this (?:week|month|year)|(?:last|past)\s+\d{1,4}\s+(?:days?|weeks?|months?))\b/i;

export function recentFromText(t: string): z.input<typeof RecentInput> | undefined {
  if (!RECENT.test(t)) return undefined;
  const days = /\b(?:last|past)\s+(\d{1,4})\s+(days?|weeks?|months?)\b/i.exec(t);
  const n = days
    ? Number(days[1]) * ({ d: 1, w: 7, m: 30 }[days[2]![0]!.toLowerCase()] ?? 1)
    : undefined;
  const rest = topic(
    without(
      bare(t),
      /\b(?:just awarded|this (?:week|month|year)|(?:last|past)\s+\d{1,4}\s+(?:days?|weeks?|months?))\b/gi
    )
  );
  const { sources: s, limit } = common(t);
  return {
    ...(rest !== '' ? { query: rest } : {}),
    ...(n !== undefined ? { days: Math.min(3650, Math.max(1, n)) } : {}),
    ...(s ? { sources: s } : {}),
    ...(limit ? { limit } : {}),
  };
}

const NOT_A_QUERY = /^(?:help|hi|hello|hey|what can you do\??|\?+|usage)$/i;

export function searchFromText(t: string): z.input<typeof SearchInput> | undefined {
  if (NOT_A_QUERY.test(t.trim())) return undefined;
  const query = topic(bare(t));
  if (query === '') return undefined;
  const { year: y, sources: s, limit } = common(t);
  return {
    query,
    ...(y ? { year: y } : {}),
    ...(s ? { sources: s } : {}),
    ...(limit ? { limit } : {}),
  };
}
