// Small readers shared by the public-data agents' plain-language parsers.
import { z } from 'zod';

/** Results a skill returns at most. */
export const MAX_LIMIT = 50;
export const DEFAULT_LIMIT = 10;

/** The optional `limit` of every JSON skill input. */
export const limitField = z.number().int().min(1).max(MAX_LIMIT).optional();

/** "top 5", "first 20", "5 results": a count the text asks for, clamped; undefined when none. */
export function limitIn(text: string): number | undefined {
  // "last 30 days" is a window, not a count.
  const m =
    /\b(?:top|first|last|latest)\s+(\d{1,3})\b(?!\s*(?:days?|weeks?|months?|years?|mi\b|miles))|\b(\d{1,3})\s+(?:results|items)\b/i.exec(
      text
    );
  const n = m ? Number(m[1] ?? m[2]) : undefined;
  return n === undefined ? undefined : clamp(n, 1, MAX_LIMIT);
}

/**
 * The `limit` field of a skill's input read from text: `{ limit }` when the text asks for a count,
 * else nothing, so the skill's own default applies (spread it into the input).
 */
export function limitOf(text: string): { limit?: number } {
  const limit = limitIn(text);
  return limit === undefined ? {} : { limit };
}

export function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}

/** Lower-case words of a text (letters and digits), for matching. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The text with the words matched by `re` taken out and the spacing tidied. */
export function without(text: string, re: RegExp): string {
  return text
    .replace(re, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s,.:;!?-]+|[\s,.:;!?-]+$/g, '')
    .trim();
}
