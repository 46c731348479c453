// Field parsing shared by the kanban actions: ISO 8601 instants (normalised to UTC), slugs, ids,
// and the zod pieces built on them, so every action words a bad field the same way.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';

export const PRIORITY_MIN = 0;
export const PRIORITY_MAX = 5;

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/i;

/**
 * An ISO 8601 date (`2026-12-01`, read as midnight UTC) or date-time with a zone (`Z` or an
 * offset); undefined for anything else, including impossible dates such as 2026-02-30.
 */
export function parseInstant(text: string): Date | undefined {
  const m = INSTANT.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1) return undefined;
  if (probe.getUTCDate() !== day) return undefined;
  if (h === undefined) return probe;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59) return undefined;
  const at = new Date(text.trim().replace(' ', 'T'));
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** An instant in a field: a string as parseInstant reads it. */
export const Instant = z.string().transform((s, ctx) => {
  const at = parseInstant(s);
  if (at) return at;
  ctx.addIssue({
    code: 'custom',
    message: 'must be an ISO 8601 date or date-time with a zone, e.g. 2026-12-01T17:00:00Z',
  });
  return z.NEVER;
});

export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MAX = 48;

/** A slug from a board name: lowercase ASCII words joined by dashes; '' when nothing is left. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
}

export const Slug = z
  .string()
  .trim()
  .toLowerCase()
  .max(SLUG_MAX)
  .regex(SLUG, 'must be lowercase letters, digits and single dashes, e.g. "q3-launch"');

export const Name = (max: number) => z.string().trim().min(1, 'must not be empty').max(max);

/** A board, lane or card as a caller names it: an id, a slug or a name. */
export const Ref = z.string().trim().min(1, 'must not be empty').max(200);

export const Priority = z.number().int().min(PRIORITY_MIN).max(PRIORITY_MAX);

export const LABEL_MAX = 40;
export const LABELS_MAX = 20;

/** Labels trimmed and de-duplicated without regard to case (the first spelling wins). */
export const Labels = z
  .array(z.string().trim().min(1, 'must not be empty').max(LABEL_MAX))
  .max(LABELS_MAX)
  .transform((labels) => uniqueLabels(labels));

export function uniqueLabels(labels: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const l of labels) {
    const key = l.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(l);
  }
  return out;
}

export const IdPrefixes = {
  board: 'kb_board_',
  lane: 'kb_lane_',
  card: 'kb_card_',
} as const;

export function newId(kind: keyof typeof IdPrefixes): string {
  return IdPrefixes[kind] + randomBytes(8).toString('hex');
}
