// What an epa request asks, from JSON fields or plain language ("violators in Ohio", "facilities
// in Houston, TX", "ExxonMobil's facilities", "facilities in Texas", "Acme Chemical"). Readers
// return undefined when the text is not for their skill, so the next skill may claim it.
import { z } from 'zod';
import { limitField, without, limitOf } from '../kit/public-data/index.js';
import { stateCode, trailingState } from './states.js';

const text = z.string().trim().min(1).max(200);
const state = z
  .string()
  .trim()
  .transform((s, ctx) => {
    const code = stateCode(s);
    if (code === undefined) {
      ctx.addIssue({ code: 'custom', message: 'must be a U.S. state name or postal code' });
      return z.NEVER;
    }
    return code;
  });
const zip = z.string().regex(/^\d{5}$/, 'must be a 5-digit ZIP code');

export const SearchInput = z
  .object({
    name: text.optional(),
    city: text.optional(),
    state: state.optional(),
    zip: zip.optional(),
    limit: limitField,
  })
  .refine((i) => i.name ?? i.city ?? i.state ?? i.zip, {
    message: 'give at least one of name, city, state, zip',
  });
export type SearchInput = z.output<typeof SearchInput>;

export const CompanyInput = z.object({ company: text, state: state.optional(), limit: limitField });
export type CompanyInput = z.output<typeof CompanyInput>;

export const StateInput = z.object({ state, limit: limitField });
export type StateInput = z.output<typeof StateInput>;

export const ViolatorsInput = z
  .object({
    state: state.optional(),
    city: text.optional(),
    name: text.optional(),
    significantOnly: z.boolean().optional(),
    limit: limitField,
  })
  .refine((i) => i.state ?? i.city ?? i.name, {
    message: 'give at least one of state, city, name',
  });
export type ViolatorsInput = z.output<typeof ViolatorsInput>;

export interface Place {
  city?: string;
  state?: string;
  zip?: string;
}

/** "Houston, TX", "Texas", "77001", "Houston" as ECHO's city, state and ZIP. */
export function placeOf(raw: string): Place {
  const s = without(raw, /\b(?:the state of|state of|please)\b/gi);
  if (/^\d{5}$/.test(s)) return { zip: s };
  const code = stateCode(s);
  if (code !== undefined) return { state: code };
  const tail = trailingState(s);
  if (tail !== undefined) {
    const city = s.slice(0, tail.index).replace(/[\s,]+$/, '');
    return city === '' ? { state: tail.code } : { city, state: tail.code };
  }
  return { city: s };
}

const VIOLATORS =
  /\b(?:violators?|violations?|violating|in violation|non-?complian\w*|non-?compliers?|snc|out of compliance|polluters?)\b/i;
const SIGNIFICANT = /\b(?:significant|serious|snc|worst)\b/i;
const FILLER =
  /\b(?:show|find|list|search|get|give|me|please|any|all|the|a|an|of|about|for|epa|echo|environmental|facilities|facility|sites?|plants?|with|who|which|are|is|top|first|\d{1,3}\s+results)\b/gi;

export function violatorsFromText(t: string): z.input<typeof ViolatorsInput> | undefined {
  if (!VIOLATORS.test(t)) return undefined;
  const common = {
    ...(SIGNIFICANT.test(t) ? { significantOnly: true } : {}),
    ...limitOf(t),
  };
  // The last "in": "facilities in violation in Houston, TX".
  const loc = /^.*\b(?:in|near|around)\s+(.+)$/i.exec(t);
  if (loc && !/^violation\b/i.test(loc[1]!)) {
    const p = placeOf(loc[1]!);
    if (p.zip === undefined) return { ...p, ...common };
  }
  const by = /\b(?:by|of|from|at)\s+(.+)$/i.exec(t);
  const name = by ? without(by[1]!, FILLER) : '';
  if (name !== '') return { name, ...common };
  return undefined;
}

const COMPANY =
  /\b(?:company|compan(?:y|ies) named|owned by|operated by|run by|facilities (?:of|owned by)|plants of|sites of|compliance(?: record)? of)\s+(.+)$/i;
const POSSESSIVE = /^(.+?)['’]s\s+(?:facilities|plants|sites|compliance)\b/i;

export function companyFromText(t: string): z.input<typeof CompanyInput> | undefined {
  const m = COMPANY.exec(t) ?? POSSESSIVE.exec(t);
  if (!m) return undefined;
  let company = m[1]!;
  let st: string | undefined;
  const inState = /\s+in\s+(.+)$/i.exec(company);
  if (inState && stateCode(inState[1]!) !== undefined) {
    st = stateCode(inState[1]!);
    company = company.slice(0, inState.index);
  }
  company = without(company, FILLER);
  if (company === '') return undefined;
  return { company, ...(st ? { state: st } : {}), ...limitOf(t) };
}

export function stateFromText(t: string): z.input<typeof StateInput> | undefined {
  const rest = without(t, FILLER).replace(/^(?:in|state)\s+/i, '');
  const code = stateCode(rest);
  if (code === undefined) return undefined;
  return { state: code, ...limitOf(t) };
}

const NOT_A_QUERY = /^(?:help|hi|hello|hey|what can you do\??|\?+|usage)$/i;

export function searchFromText(t: string): z.input<typeof SearchInput> | undefined {
  if (NOT_A_QUERY.test(t.trim())) return undefined;
  const extra = limitOf(t);
  const zipM = /\b(\d{5})\b/.exec(t);
  if (zipM && /\b(?:zip|near|in|around)\b/i.test(t)) return { zip: zipM[1]!, ...extra };
  const named = /\b(?:named|called)\s+(.+)$/i.exec(t);
  if (named) {
    const name = without(named[1]!, FILLER);
    if (name !== '') return { name, ...extra };
  }
  const loc = /\b(?:in|near|around)\s+(.+)$/i.exec(t);
  if (loc) {
    const p = placeOf(loc[1]!);
    const name = without(t.slice(0, loc.index), FILLER);
    return { ...p, ...(name !== '' ? { name } : {}), ...extra };
  }
  const name = without(t, FILLER);
  return name === '' ? undefined : { name, ...extra };
}
