// Bad input gets a clear error naming the field (decisions.md §6: -32602 with `data.field`): the
// first zod issue becomes an InvalidParamsError with a dotted path and a sentence a person can act on.
import type { z } from 'zod';
import { InvalidParamsError } from '../errors/index.js';
import { kindOf } from './input-check.js';

/**
 * Parses JSON-RPC `params` with `schema`, or throws InvalidParamsError naming the first bad field
 * (`message.parts.0.text`). Absent params are read as `{}` so the missing field gets named.
 */
export function parseParams<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  const result = schema.safeParse(params === undefined ? {} : params, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue === undefined) throw new InvalidParamsError('params', 'invalid');
  const field = issue.path.map(String).join('.') || 'params';
  throw new InvalidParamsError(field, describeIssue(issue));
}

/** A short human sentence for one zod issue. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${article(issue.expected)}, got ${kindOf(issue.input)}`;
    case 'too_small':
      if (issue.origin === 'array') {
        return Number(issue.minimum) <= 1
          ? 'must not be empty'
          : `needs at least ${issue.minimum} items`;
      }
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1
          ? 'must not be empty'
          : `needs at least ${issue.minimum} characters`;
      }
      return `must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'array') return `holds at most ${issue.maximum} items`;
      if (issue.origin === 'string') return `holds at most ${issue.maximum} characters`;
      return `must be at most ${issue.maximum}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
    case 'not_multiple_of':
    case 'unrecognized_keys':
    case 'invalid_union':
    case 'invalid_key':
    case 'invalid_element':
    case 'custom':
      return issue.message;
  }
}

const ARTICLES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  record: 'an object',
};

function article(expected: string): string {
  return ARTICLES[expected] ?? expected;
}
