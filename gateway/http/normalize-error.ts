// Any thrown value as a HubError, knowing about zod: a ZodError from a params or body schema is the
// caller's mistake (-32602 / HTTP 400), naming the first bad field; anything unknown is INTERNAL.
import { z } from 'zod';
import { HubError, InternalError, InvalidParamsError } from '../../runtime/errors/index.js';

export interface IssueSummary {
  path: (string | number)[];
  code: string;
  message: string;
}

export function normalizeError(err: unknown): HubError {
  if (err instanceof HubError) return err;
  // $ZodError is the common parent of zod classic and zod/mini errors.
  if (err instanceof z.core.$ZodError) return fromZodError(err);
  return new InternalError(err);
}

/** InvalidParamsError with data `{field, issues}`; `field` is the first issue's dotted path. */
export function fromZodError(err: z.core.$ZodError): InvalidParamsError {
  const issues: IssueSummary[] = err.issues.map((i) => ({
    path: i.path.map((p) => (typeof p === 'number' ? p : String(p))),
    code: i.code,
    message: i.message,
  }));
  const first = issues[0];
  const field = first && first.path.length > 0 ? first.path.join('.') : 'params';
  return new InvalidParamsError(field, first?.message ?? 'invalid', { issues });
}
