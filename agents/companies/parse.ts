// What a companies request asks, from JSON fields or plain language ("look up Apple", "officers of
// Pfizer Limited", "company 00526209 officers", "which datasets hold Pfizer").
import { z } from 'zod';
import { limitField, without, limitOf } from '../kit/public-data/index.js';

const name = z.string().trim().min(1).max(200);
const companyNumber = z
  .string()
  .trim()
  .toUpperCase()
  .regex(
    /^(?:\d{8}|[A-Z]{2}\d{6})$/,
    'must be a Companies House number, e.g. 00526209 or SC123456'
  );

export const LookupInput = z.object({ company: name, limit: limitField });
export type LookupInput = z.output<typeof LookupInput>;

export const OfficersInput = z
  .object({ company: name.optional(), companyNumber: companyNumber.optional() })
  .refine((o) => o.company !== undefined || o.companyNumber !== undefined, {
    message: 'give `company` (a name, ticker or CIK) or `companyNumber`',
  });
export type OfficersInput = z.output<typeof OfficersInput>;

export const PresenceInput = z.object({ company: name });
export type PresenceInput = z.output<typeof PresenceInput>;

const FILLER =
  /\b(?:show|find|list|get|give|me|please|the|a|an|all|any|of|for|at|in|on|about|what|which|who|is|are|has|have|does|do|hold|holds|mention|mentions|company|companies|firm|corporation|look ?up|lookup|profile|details?|info(?:rmation)?|identifiers?|registrations?|lei|cik|records?|\d+)\b/gi;

const clean = (t: string) => without(t.replace(/(\w)['’]s\b/g, '$1'), FILLER);

const PRESENCE =
  /\b(?:data presence|presence|which datasets|what datasets|datasets?|data sources?|where (?:does|do|is)\b.*\b(?:appear|show up|found))\b/i;

export function presenceFromText(t: string): z.input<typeof PresenceInput> | undefined {
  if (!PRESENCE.test(t)) return undefined;
  const company = clean(
    t.replace(
      /\b(?:data|presence|datasets?|sources?|where|appear|appears|show|up|found|hub|across|public)\b/gi,
      ' '
    )
  );
  return company === '' ? undefined : { company };
}

const OFFICERS = /\b(?:officers?|directors?|executives?|management|board|secretary)\b/i;

export function officersFromText(t: string): z.input<typeof OfficersInput> | undefined {
  if (!OFFICERS.test(t)) return undefined;
  const no = /\b(\d{8}|[A-Z]{2}\d{6})\b/.exec(t);
  if (no) return { companyNumber: no[1]! };
  const company = clean(
    t.replace(/\b(?:officers?|directors?|executives?|management|board|secretary|uk)\b/gi, ' ')
  );
  return company === '' ? undefined : { company };
}

const LOOKUP =
  /\b(?:look ?up|lookup|profile|lei|identifiers?|registrations?|company|details on|info(?:rmation)? (?:on|about))\b/i;

export function lookupFromText(t: string): z.input<typeof LookupInput> | undefined {
  if (!LOOKUP.test(t)) return undefined;
  const company = clean(t);
  if (company === '') return undefined;
  return { company, ...limitOf(t) };
}
