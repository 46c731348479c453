// REST error bodies (decisions.md §6): {"error":{"code":"UPPER_SNAKE","message":"…","details":…}}.
import type { HubError } from './hub-error.js';

export interface RestErrorBody {
  error: { code: string; message: string; details?: unknown };
}

export function toRestError(err: HubError, requestId?: string): RestErrorBody {
  if (err.code === 'INTERNAL') {
    return { error: { code: 'INTERNAL', message: 'Internal error', details: { requestId } } };
  }
  return err.data === undefined
    ? { error: { code: err.code, message: err.message } }
    : { error: { code: err.code, message: err.message, details: err.data } };
}
