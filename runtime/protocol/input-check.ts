// Hand-written field readers for the params on the hot path (issue 19, Must 4): the zod schemas of
// hub-schema.ts stay the definition, these read JSON values (what JSON.parse returns) the way those
// schemas do, in the same order, and refuse with the same InvalidParamsError (-32602, `data.field`,
// the sentence of describeIssue) for the first bad field; the equivalence test runs both. A field
// is a dotted path built only when something is refused.
import { InvalidParamsError } from '../errors/index.js';

export type Json = Record<string, unknown>;

const ID_MAX = 256;
const LONE_SURROGATE = /\p{Surrogate}/u;

/** `name` under `at` ('' is the params object itself). */
export function fieldAt(at: string, name: string | number): string {
  return at === '' ? String(name) : `${at}.${name}`;
}

/** Refuses the whole request over `field` (the params themselves when it is ''). */
export function refuse(field: string, message: string): never {
  throw new InvalidParamsError(field === '' ? 'params' : field, message);
}

/** What describeIssue says for a value of the wrong type (zod's invalid_type). */
export function wrongType(field: string, expected: string, v: unknown): never {
  return refuse(field, v === undefined ? 'is required' : `must be ${expected}, got ${kindOf(v)}`);
}

/** The received value's kind as a person reads it (`a fraction` for a non-integer number). */
export function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number' && !Number.isInteger(v)) return 'a fraction';
  return typeof v === 'object' ? 'an object' : typeof v;
}

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function readObject(v: unknown, field: string): Json {
  if (!isObject(v)) wrongType(field, 'an object', v);
  return v;
}

export function readArray(v: unknown, field: string): unknown[] {
  if (!Array.isArray(v)) wrongType(field, 'an array', v);
  return v;
}

export function readString(v: unknown, field: string): string {
  if (typeof v !== 'string') wrongType(field, 'a string', v);
  return v;
}

export function readOptString(v: unknown, field: string): string | undefined {
  return v === undefined ? undefined : readString(v, field);
}

export function readOptBoolean(v: unknown, field: string): boolean | undefined {
  if (v === undefined || typeof v === 'boolean') return v;
  return wrongType(field, 'a boolean', v);
}

/** Id and OptionalId's checks after the length: ids go into signed canonical JSON and PostgreSQL. */
function checkIdText(s: string, field: string): string {
  if (LONE_SURROGATE.test(s)) refuse(field, 'must be well-formed Unicode');
  if (s.includes('\u0000')) refuse(field, 'must not contain a NUL character');
  return s;
}

/** hub-schema's Id: non-empty, at most 256 UTF-16 units. */
export function readId(v: unknown, field: string): string {
  const s = readString(v, field);
  if (s.length < 1) refuse(field, 'must not be empty');
  if (s.length > ID_MAX) refuse(field, `holds at most ${ID_MAX} characters`);
  return checkIdText(s, field);
}

/** hub-schema's OptionalId: absent or '' (protobuf's unset string) reads as undefined. */
export function readOptId(v: unknown, field: string): string | undefined {
  if (v === undefined) return undefined;
  const s = readString(v, field);
  if (s.length > ID_MAX) refuse(field, `holds at most ${ID_MAX} characters`);
  checkIdText(s, field);
  return s === '' ? undefined : s;
}

/** hub-schema's Count (z.number().int().min(0)), optional. */
export function readOptCount(v: unknown, field: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) return wrongType(field, 'a number', v);
  if (!Number.isInteger(v)) return wrongType(field, 'an integer', v);
  if (v > Number.MAX_SAFE_INTEGER) refuse(field, `must be at most ${Number.MAX_SAFE_INTEGER}`);
  if (v < Number.MIN_SAFE_INTEGER) refuse(field, `must be at least ${Number.MIN_SAFE_INTEGER}`);
  if (v < 0) refuse(field, 'must be at least 0');
  return v;
}

/**
 * part-input's Metadata (a string-keyed record), optional. Copied as zod copies it, `__proto__`
 * left out, so nothing downstream holds the caller's object.
 */
export function readOptMetadata(v: unknown, field: string): Json | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v)) return wrongType(field, 'an object', v);
  const out: Json = {};
  for (const key of Object.keys(v)) {
    if (key !== '__proto__') out[key] = v[key];
  }
  return out;
}
