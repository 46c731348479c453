// REST error bodies (decisions.md §6): {"error":{"code":"UPPER_SNAKE","message":"…","details":…}},
// plus the same text as a top-level `message` (decisions.md §11): existing hub clients show
// `body.error` when it is a string, else `body.message`, and printed "[object Object]" without it.
import type { HubError } from './hub-error.js';

export interface RestErrorBody {
  error: { code: string; message: string; details?: unknown };
  message: string;
}

export function toRestError(err: HubError, requestId?: string): RestErrorBody {
  if (err.code === 'INTERNAL') {
    return restError('INTERNAL', 'Internal error', { requestId });
  }
  return restError(err.code, err.message, err.data);
}

/** A REST error body for a code the catalog has no entry for (405 from the route table). */
export function restError(code: string, message: string, details?: unknown): RestErrorBody {
  return details === undefined
    ? { error: { code, message }, message }
    : { error: { code, message, details }, message };
}
