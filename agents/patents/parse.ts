// What a patents request asks, from JSON fields or plain language ("patents on solid-state
// batteries", "patents similar to US 11,234,567", "patent 11234567", "patents assigned to IBM").
// Readers return undefined when the text is not for their skill, so the next skill may claim it.
import { z } from 'zod';
import { limitField, without, limitOf } from '../kit/public-data/index.js';

/** A patent or application number as people write it. */
export interface PatentRef {
  kind: 'patent' | 'application';
  /** Digits (a patent may keep a letter prefix such as RE or D). */
  number: string;
}

/**
 * "US 11,234,567 B2", "11234567", "RE49,123" (patents: up to 8 digits) or "16/123,456",
 * "16123456" with the word application (applications: 8 digits, series code first).
 */
export function readRef(raw: string): PatentRef | undefined {
  const s = raw.trim();
  const app = /\b(\d{2})\/(\d{3}),?(\d{3})\b/.exec(s);
  if (app) return { kind: 'application', number: `${app[1]}${app[2]}${app[3]}` };
  const appWord = /\bapplication\s+(?:no\.?\s*|number\s*)?(\d{8})\b/i.exec(s);
  if (appWord) return { kind: 'application', number: appWord[1]! };
  const pat = /\b(?:US\s*)?((?:RE|D|PP)?\s*\d{1,2},?\d{3},?\d{3})(?:\s*[AB][12])?\b/i.exec(s);
  if (pat) {
    const n = pat[1]!.replace(/[\s,]/g, '').toUpperCase();
    if (/^(?:RE|D|PP)?\d{5,8}$/.test(n)) return { kind: 'patent', number: n };
  }
  return undefined;
}

const refField = z
  .string()
  .trim()
  .transform((s, ctx) => {
    const r = readRef(s);
    if (r === undefined) {
      ctx.addIssue({
        code: 'custom',
        message:
          'must be a patent number (e.g. 11234567) or an application number (e.g. 16/123,456)',
      });
      return z.NEVER;
    }
    return r;
  });

const text = z.string().trim().min(1).max(500);

export const SearchInput = z.object({ concept: text, limit: limitField });
export type SearchInput = z.output<typeof SearchInput>;

export const SimilarInput = z.object({ patent: refField, limit: limitField });
export type SimilarInput = z.output<typeof SimilarInput>;

export const DetailInput = z.object({ patent: refField });
export type DetailInput = z.output<typeof DetailInput>;

export const AssigneeInput = z.object({
  assignee: z.string().trim().min(1).max(200),
  concept: text.optional(),
  limit: limitField,
});
export type AssigneeInput = z.output<typeof AssigneeInput>;

const SIMILAR = /\b(?:similar to|like|related to|prior art for|comparable to)\b/i;

export function similarFromText(t: string): z.input<typeof SimilarInput> | undefined {
  const m = SIMILAR.exec(t);
  if (!m) return undefined;
  const rest = t.slice(m.index + m[0].length);
  const ref = readRef(rest);
  if (ref === undefined) return undefined;
  return { patent: rest.trim(), ...limitOf(t) };
}

export function detailFromText(t: string): z.input<typeof DetailInput> | undefined {
  return readRef(t) === undefined ? undefined : { patent: t };
}

const ASSIGNEE =
  /\b(?:assigned to|owned by|held by|granted to|filed by|patents? (?:of|by|from))\s+(.+)$/i;
const POSSESSIVE = /^(.+?)['’]s\s+patents?\b(.*)$/i;

export function assigneeFromText(t: string): z.input<typeof AssigneeInput> | undefined {
  const extra = limitOf(t);
  const p = POSSESSIVE.exec(t);
  if (p) {
    const concept = topic(p[2]!);
    const assignee = without(p[1]!, /\b(?:show|list|find|me|all|the)\b/gi);
    if (assignee !== '') return { assignee, ...(concept ? { concept } : {}), ...extra };
  }
  const m = ASSIGNEE.exec(t);
  if (!m) return undefined;
  let assignee = m[1]!;
  let concept = topic(t.slice(0, m.index));
  const about = /\s+(?:on|about|for|in)\s+(.+)$/i.exec(assignee);
  if (about) {
    concept = topic(about[1]!);
    assignee = assignee.slice(0, about.index);
  }
  assignee = without(assignee, /\b(?:please|top\s+\d+|first\s+\d+)\b/gi);
  if (assignee === '') return undefined;
  return { assignee, ...(concept ? { concept } : {}), ...extra };
}

const FILLER =
  /\b(?:show|find|list|search|get|give|me|please|any|all|the|a|an|of|on|about|for|patents?|inventions?|uspto|applications?|top\s+\d{1,3}|first\s+\d{1,3}|\d{1,3}\s+results|covering|related|regarding)\b/gi;

function topic(s: string): string {
  return without(s, FILLER);
}

const NOT_A_QUERY = /^(?:help|hi|hello|hey|what can you do\??|\?+|usage)$/i;

export function searchFromText(t: string): z.input<typeof SearchInput> | undefined {
  if (NOT_A_QUERY.test(t.trim())) return undefined;
  const concept = topic(t);
  if (concept === '') return undefined;
  return { concept, ...limitOf(t) };
}
