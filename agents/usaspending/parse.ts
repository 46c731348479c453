// What a usaspending request asks, from JSON fields or plain language ("Lockheed Martin contracts",
// "grants awarded by NASA in 2024", "award CONT_AWD_…"). Readers return undefined when the text is
// not for their skill, so the next skill may claim it.
import { z } from 'zod';
import { MAX_LIMIT, clamp, limitField, limitIn, without } from '../kit/public-data/index.js';
import { EARLIEST } from './awards.js';
import { GENERATED_ID } from './detail.js';
import { GROUPS, groupsIn } from './groups.js';

const text = z.string().trim().min(1).max(200);
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'must be a real date')
  .refine((d) => d >= EARLIEST, `must be on or after ${EARLIEST} (USAspending starts at FY2008)`);

const common = {
  types: z.array(z.enum(GROUPS)).min(1).max(GROUPS.length).optional(),
  from: day.optional(),
  to: day.optional(),
  limit: limitField,
};

function ordered<S extends z.ZodType<{ from?: string | undefined; to?: string | undefined }>>(
  s: S
) {
  return s.refine((v) => v.from === undefined || v.to === undefined || v.from <= v.to, {
    message: 'must not be after `to`',
    path: ['from'],
  });
}

export const SearchInput = ordered(z.object({ query: text, ...common }));
export type SearchInput = z.output<typeof SearchInput>;

export const ContractorInput = ordered(
  z.object({ recipient: text, query: text.optional(), ...common })
);
export type ContractorInput = z.output<typeof ContractorInput>;

export const AgencyInput = ordered(z.object({ agency: text, query: text.optional(), ...common }));
export type AgencyInput = z.output<typeof AgencyInput>;

export const DetailInput = z.object({
  awardId: z
    .string()
    .trim()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9_.-]{3,99}$/,
      'must be an award id: CONT_AWD_…, ASST_NON_…, or a PIID/FAIN such as W912DY24C0001'
    ),
});
export type DetailInput = z.output<typeof DetailInput>;

/** "in 2024", "since 2020", "from 2021 to 2023": a calendar period; empty when none. */
export function periodIn(t: string): { from?: string; to?: string } {
  const range = /\b(?:from|between)\s+(\d{4})\s+(?:to|and|-|through)\s+(\d{4})\b/i.exec(t);
  if (range) return { from: `${range[1]}-01-01`, to: `${range[2]}-12-31` };
  const since = /\bsince\s+(\d{4})\b/i.exec(t);
  if (since) return { from: `${since[1]}-01-01` };
  const year = /\b(?:in|during|for)\s+(?:fy\s*)?(\d{4})\b/i.exec(t);
  if (year) return { from: `${year[1]}-01-01`, to: `${year[1]}-12-31` };
  return {};
}

const PERIOD =
  /\b(?:from|between)\s+\d{4}\s+(?:to|and|-|through)\s+\d{4}\b|\bsince\s+\d{4}\b|\b(?:in|during|for)\s+(?:fy\s*)?\d{4}\b/gi;
const COUNT = /\b(?:top|first|largest|biggest)\s+\d{1,3}\b|\b\d{1,3}\s+(?:results|items)\b/gi;
const TYPE_WORDS =
  /\b(?:federal\s+)?(?:contracts?|procurements?|purchase orders?|idvs?|idiq|gwacs?|indefinite[- ]delivery|grants?|cooperative agreements?|loans?|direct payments?|awards?|spending|obligations?)\b/gi;
const FILLER =
  /\b(?:show|find|list|search|get|give|me|please|all|any|the|a|an|of|about|for|on|what|which|who|are|is|were|was|and|or|with|in|by|government|federal|usaspending|largest|biggest|top|recent)\b/gi;

function countIn(t: string): number | undefined {
  const m = /\b(?:largest|biggest)\s+(\d{1,3})\b/i.exec(t);
  return limitIn(t) ?? (m ? clamp(Number(m[1]), 1, MAX_LIMIT) : undefined);
}

function extras(t: string) {
  const types = groupsIn(t);
  const limit = countIn(t);
  return { ...(types ? { types } : {}), ...periodIn(t), ...(limit ? { limit } : {}) };
}

/** The topic words of a search: the period, count, award types and filler taken out. */
function clean(t: string): string {
  return without(without(without(without(t, PERIOD), COUNT), TYPE_WORDS), FILLER);
}

/** A name as written ("Department of Defense"): only the period, count and type words go. */
function cleanName(t: string): string {
  return without(without(without(without(t, PERIOD), COUNT), TYPE_WORDS), /\b(?:please)\b/gi)
    .replace(/^the\s+/i, '')
    .trim();
}

export function detailFromText(t: string): z.input<typeof DetailInput> | undefined {
  const g = GENERATED_ID.exec(t);
  if (g) return { awardId: g[1]! };
  // "award W912DY24C0001", "contract number FA8750-21-C-0001": an id has a digit in it.
  const m =
    /\b(?:award|contract|grant|piid|fain)\s+(?:id\s+|number\s+|no\.?\s+|#\s*)?([A-Z0-9][A-Z0-9_.-]{3,})\b/i.exec(
      t
    );
  if (m && /\d/.test(m[1]!) && /[A-Z]/i.test(m[1]!) && !/^\d{4}$/.test(m[1]!)) {
    return { awardId: m[1]! };
  }
  return undefined;
}

const TO_RECIPIENT =
  /\b(?:contractor|recipient|vendor|awardee|company|awarded to|awards? (?:to|won by|for)|contracts? (?:to|won by|with)|grants? to|paid to|money to|spending (?:with|on))\s+(.+)$/i;
const POSSESSIVE =
  /^(.+?)['’]s\s+(?:federal\s+|government\s+)?(?:contracts?|grants?|awards?|idvs?|loans?)\b/i;

export function contractorFromText(t: string): z.input<typeof ContractorInput> | undefined {
  const m = TO_RECIPIENT.exec(t) ?? POSSESSIVE.exec(t);
  if (!m) return undefined;
  const recipient = cleanName(m[1]!);
  if (recipient === '') return undefined;
  return { recipient, ...extras(t) };
}

const BY_AGENCY =
  /\b(?:agency|department|awarded by|(?:awards?|contracts?|grants?|idvs?|loans?|spending|obligations?)\s+(?:by|from|of))\s+(?:the\s+)?(.+)$/i;

export function agencyFromText(t: string): z.input<typeof AgencyInput> | undefined {
  const m = BY_AGENCY.exec(t);
  if (!m) return undefined;
  const raw = m[0].toLowerCase().startsWith('department') ? `Department ${m[1]!}` : m[1]!;
  const agency = cleanName(raw);
  if (agency === '') return undefined;
  const head = clean(t.slice(0, m.index));
  return { agency, ...(head !== '' ? { query: head } : {}), ...extras(t) };
}

const NOT_A_QUERY = /^(?:help|hi|hello|hey|what can you do\??|\?+|usage)$/i;

export function searchFromText(t: string): z.input<typeof SearchInput> | undefined {
  if (NOT_A_QUERY.test(t.trim())) return undefined;
  const query = clean(t);
  if (query === '') return undefined;
  return { query, ...extras(t) };
}
