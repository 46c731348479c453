// Reading workspace method params: one object, every field checked and named when wrong, unknown
// fields refused (a typo never silently does nothing, decisions.md §6).
import { InvalidParamsError } from '../../runtime/errors/index.js';
import { WORKSPACE_ID, WORKSPACE_MEMORY_ID } from '../../infra/db/index.js';

export type Params = Record<string, unknown>;

export const MEMORY_TYPE = /^[a-z][a-z0-9_-]{0,39}$/;
export const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/;
export const MAX_CONTENT_BYTES = 8192;
export const MAX_SECRET_BYTES = 16_384;
export const MAX_TAGS = 20;

/** The params as an object with only `allowed` keys. */
export function readParams(params: unknown, allowed: readonly string[]): Params {
  if (params === undefined || params === null) return {};
  if (typeof params !== 'object' || Array.isArray(params)) {
    throw new InvalidParamsError('params', 'must be an object');
  }
  const p = params as Params;
  const unknown = Object.keys(p).filter((k) => !allowed.includes(k));
  if (unknown[0] !== undefined) {
    throw new InvalidParamsError(unknown[0], `unknown field; allowed: ${allowed.join(', ')}`);
  }
  return p;
}

export function workspaceId(p: Params): string {
  const v = p.workspaceId;
  if (typeof v !== 'string' || !WORKSPACE_ID.test(v)) {
    throw new InvalidParamsError('workspaceId', 'required: a workspace id (ws_ and 24 hex digits)');
  }
  return v;
}

export function memoryId(p: Params): string {
  const v = p.memoryId;
  if (typeof v !== 'string' || !WORKSPACE_MEMORY_ID.test(v)) {
    throw new InvalidParamsError('memoryId', 'required: a memory id (wsm_ and 24 hex digits)');
  }
  return v;
}

export function agentIdParam(p: Params): string {
  const v = p.agentId;
  if (typeof v !== 'string' || v.trim() === '' || v.length > 200) {
    throw new InvalidParamsError('agentId', 'required: an agent id or alias');
  }
  return v.trim();
}

export function text(p: Params, field: string, max: number, required: true): string;
export function text(p: Params, field: string, max: number, required: false): string | undefined;
export function text(p: Params, field: string, max: number, required: boolean): string | undefined {
  const v = p[field];
  if (v === undefined || v === null) {
    if (required) throw new InvalidParamsError(field, 'required');
    return undefined;
  }
  if (typeof v !== 'string' || (required && v.trim() === '')) {
    throw new InvalidParamsError(
      field,
      required ? 'must be a non-empty string' : 'must be a string'
    );
  }
  if (Buffer.byteLength(v, 'utf8') > max) {
    throw new InvalidParamsError(field, `must be at most ${max} bytes`, { max });
  }
  return v;
}

export function memoryType(p: Params, fallback?: string): string | undefined {
  const v = p.type;
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'string' || !MEMORY_TYPE.test(v)) {
    throw new InvalidParamsError(
      'type',
      'must be a lowercase word: a letter, then letters, digits, _ or - (at most 40)'
    );
  }
  return v;
}

export function tags(p: Params): string[] | undefined {
  const v = p.tags;
  if (v === undefined || v === null) return undefined;
  if (
    !Array.isArray(v) ||
    v.length > MAX_TAGS ||
    !v.every((t) => typeof t === 'string' && t.trim() !== '' && t.length <= 50)
  ) {
    throw new InvalidParamsError('tags', `must be at most ${MAX_TAGS} strings of 1–50 characters`);
  }
  return [...new Set((v as string[]).map((t) => t.trim()))];
}

export function secretName(p: Params): string {
  const v = p.name;
  if (typeof v !== 'string' || !SECRET_NAME.test(v)) {
    throw new InvalidParamsError(
      'name',
      'required: a letter or _, then letters, digits, _, . or - (at most 100)'
    );
  }
  return v;
}

export function wholeNumber(
  p: Params,
  field: string,
  min: number,
  max: number,
  fallback: number
): number {
  const v = p[field];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new InvalidParamsError(field, `must be an integer from ${min} to ${max}`, { min, max });
  }
  return v;
}

export function score(p: Params, field: string, fallback: number): number {
  const v = p[field];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < -1 || v > 1) {
    throw new InvalidParamsError(field, 'must be a number from -1 to 1');
  }
  return v;
}
