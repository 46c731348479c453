// Input checks shared by the repos. They throw InvalidParamsError naming the field, so the CLI and
// the REST API report the same message for the same mistake (decisions.md §6).
import { InvalidParamsError } from '../../../runtime/errors/index.js';

/** A trimmed, non-empty string of at most `max` characters. */
export function requiredText(field: string, value: unknown, max: number): string {
  if (typeof value !== 'string') throw new InvalidParamsError(field, 'must be a string');
  const text = value.trim();
  if (text === '') throw new InvalidParamsError(field, 'must not be empty');
  if (text.length > max) throw new InvalidParamsError(field, `must be at most ${max} characters`);
  return text;
}

/** A trimmed string of at most `max` characters (may be empty). */
export function optionalText(field: string, value: unknown, max: number): string {
  if (typeof value !== 'string') throw new InvalidParamsError(field, 'must be a string');
  const text = value.trim();
  if (text.length > max) throw new InvalidParamsError(field, `must be at most ${max} characters`);
  return text;
}

/** An integer within [min, max]. */
export function intInRange(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidParamsError(field, `must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** One of `allowed`. */
export function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new InvalidParamsError(field, `must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

/** An absolute http(s) URL. */
export function httpUrl(field: string, value: unknown): string {
  if (typeof value !== 'string') throw new InvalidParamsError(field, 'must be a string');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidParamsError(field, 'must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidParamsError(field, 'must be an absolute http(s) URL');
  }
  return value;
}
