// card:list filters: the caller's fields made into one query the store runs, and the overdue rule
// (due before now and not completed) that listings and renderings share.
import { z } from 'zod';
import { Instant, Ref } from './parse.js';

export const LIST_LIMIT_DEFAULT = 100;
export const LIST_LIMIT_MAX = 500;

export const CardFilterInput = z.object({
  board: Ref.optional(),
  lane: Ref.optional(),
  overdue: z.boolean().optional(),
  due_before: Instant.optional(),
  label: z.string().trim().min(1, 'must not be empty').max(40).optional(),
  source_ref: z.string().trim().min(1, 'must not be empty').max(200).optional(),
  completed: z.boolean().optional(),
  limit: z.number().int().min(1).max(LIST_LIMIT_MAX).optional(),
});
export type CardFilterInput = z.output<typeof CardFilterInput>;

/** What the store filters on; every field narrows. */
export interface CardQuery {
  /** Only cards due strictly before this instant. */
  dueBefore?: Date;
  /** true: due before `now` and not completed; false: anything else. */
  overdue?: { now: Date; is: boolean };
  /** Lower-cased; matched without regard to case. */
  label?: string;
  sourceRef?: string;
  completed?: boolean;
  limit: number;
}

export function cardQuery(input: CardFilterInput, now: Date): CardQuery {
  const q: CardQuery = { limit: input.limit ?? LIST_LIMIT_DEFAULT };
  if (input.due_before) q.dueBefore = input.due_before;
  if (input.overdue !== undefined) q.overdue = { now, is: input.overdue };
  if (input.label !== undefined) q.label = input.label.toLowerCase();
  if (input.source_ref !== undefined) q.sourceRef = input.source_ref;
  if (input.completed !== undefined) q.completed = input.completed;
  return q;
}

/** The filters in words, for the heading of a listing: "overdue, label bug". */
export function describeQuery(input: CardFilterInput): string {
  const parts: string[] = [];
  if (input.lane) parts.push(`lane ${input.lane}`);
  if (input.overdue === true) parts.push('overdue');
  if (input.overdue === false) parts.push('not overdue');
  if (input.due_before) parts.push(`due before ${input.due_before.toISOString()}`);
  if (input.label) parts.push(`label ${input.label}`);
  if (input.source_ref) parts.push(`source ${input.source_ref}`);
  if (input.completed === true) parts.push('completed');
  if (input.completed === false) parts.push('open');
  return parts.join(', ');
}

export function isOverdue(
  card: { dueAt: Date | null; completedAt: Date | null },
  now: Date
): boolean {
  return card.dueAt !== null && card.completedAt === null && card.dueAt.getTime() < now.getTime();
}
