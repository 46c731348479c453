// What a trade request asks, from JSON fields or plain language ("US exports of soybeans to China
// in 2024", "imports from Mexico in 2025-03", "Germany's exports of cars in 2023", "US trade with
// Canada", "top import partners of Japan for semiconductors in 2023").
import { z } from 'zod';
import { limitField, without, limitOf } from '../kit/public-data/index.js';

const name = z.string().trim().min(2).max(80);
const period = z
  .string()
  .trim()
  .regex(/^(?:19|20)\d{2}(?:-(?:0[1-9]|1[0-2]))?$/, 'must be a year (2024) or a month (2024-06)')
  .optional();
const commodity = z.string().trim().min(2).max(80).optional();

export const FlowInput = z.object({
  commodity,
  partner: name.optional(),
  reporter: name.optional(),
  period,
  limit: limitField,
});
export type FlowInput = z.output<typeof FlowInput>;

export const CountryInput = z.object({ country: name, period, limit: limitField });
export type CountryInput = z.output<typeof CountryInput>;

export const PartnersInput = z.object({
  reporter: name.optional(),
  flow: z.enum(['exports', 'imports']).optional(),
  commodity,
  period,
  limit: limitField,
});
export type PartnersInput = z.output<typeof PartnersInput>;

const PERIOD = /\b((?:19|20)\d{2}(?:-(?:0[1-9]|1[0-2]))?)\b/;

function periodIn(t: string): { period?: string } {
  const m = PERIOD.exec(t);
  return m ? { period: m[1]! } : {};
}

const tidy = (s: string) =>
  without(
    without(s, /\b(?:in|during|for|the|year|month|of|please|show|me|what|were|was|are|is)\b/gi),
    PERIOD
  );

/** "Germany's" or "German"-less possessives: the reporter named before the flow. */
function reporterIn(t: string): { reporter?: string } {
  const m = /^(?:what (?:are|were) )?(?:the )?([A-Z][\w .]*?)[’']s\b/.exec(t);
  if (m) return { reporter: m[1]!.trim() };
  const us = /^(?:the\s+)?(?:u\.?s\.?a?\.?|united states|american|america)\b/i.exec(t);
  return us ? { reporter: 'United States' } : {};
}

export function partnersFromText(t: string): z.input<typeof PartnersInput> | undefined {
  const m =
    /\b(?:top|biggest|largest|main|leading)\s+(?:(export|import)\s+)?(?:trading\s+)?(?:partners?|markets|suppliers|buyers|destinations|sources)\b(?:\s+(?:of|for)\s+(?:the\s+)?([A-Za-z][A-Za-z .]*?))?(?:\s+(?:for|in)\s+([A-Za-z][A-Za-z ]*?))?(?=\s+(?:in\s+)?(?:19|20)\d{2}\b|[?.!]?$)/i.exec(
      t
    );
  if (!m) return undefined;
  const flow =
    m[1]?.toLowerCase() === 'import' || /\bsuppliers|sources|imports?\b/i.test(t)
      ? 'imports'
      : 'exports';
  const reporter = m[2]?.trim() || reporterIn(t).reporter;
  return {
    flow,
    ...(reporter ? { reporter } : {}),
    ...(m[3] ? { commodity: m[3].trim() } : {}),
    ...periodIn(t),
    ...limitOf(t.replace(/\btop\s+(?=\d)/i, 'top ')),
  };
}

export function countryFromText(t: string): z.input<typeof CountryInput> | undefined {
  const m =
    /\btrade(?:\s+balance)?\s+(?:with|between\s+(?:the\s+)?(?:us|u\.s\.|united states)\s+and)\s+(?:the\s+)?([A-Za-z][A-Za-z .]*?)(?=\s+(?:in\s+)?(?:19|20)\d{2}\b|[?.!]?$)/i.exec(
      t
    );
  return m ? { country: m[1]!.trim(), ...periodIn(t) } : undefined;
}

function flowFromText(
  t: string,
  flow: 'exports' | 'imports'
): z.input<typeof FlowInput> | undefined {
  const word =
    flow === 'exports'
      ? /\bexports?\b|\bexported\b|\bsold abroad\b/i
      : /\bimports?\b|\bimported\b/i;
  if (!word.test(t)) return undefined;
  const to =
    flow === 'exports'
      ? /\bto\s+(?:the\s+)?([A-Za-z][A-Za-z .]*?)(?=\s+(?:in\s+)?(?:19|20)\d{2}\b|\s+of\b|[?.!]?$)/i
      : /\bfrom\s+(?:the\s+)?([A-Za-z][A-Za-z .]*?)(?=\s+(?:in\s+)?(?:19|20)\d{2}\b|\s+of\b|[?.!]?$)/i;
  const partner = to.exec(t)?.[1]?.trim();
  const of =
    /\b(?:of|in)\s+(?!(?:19|20)\d{2}\b)([A-Za-z0-9][A-Za-z0-9 ]*?)(?=\s+(?:to|from|in|during)\b|\s+(?:19|20)\d{2}\b|[?.!]?$)/i.exec(
      t.replace(/^.*?\b(?:exports?|imports?|exported|imported)\b/i, '')
    );
  const hs = /\bHS\s*(\d{2,6})\b/i.exec(t)?.[1];
  const c = hs ?? (of ? tidy(of[1]!) : undefined);
  return {
    ...(c ? { commodity: c } : {}),
    ...(partner ? { partner } : {}),
    ...reporterIn(t),
    ...periodIn(t),
    ...limitOf(t),
  };
}

export const exportsFromText = (t: string) => flowFromText(t, 'exports');
export const importsFromText = (t: string) => flowFromText(t, 'imports');
