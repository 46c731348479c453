// The request as route handlers see it: everything read from uWS up front, because a uWS
// HttpRequest is stack-allocated and dies when its handler returns (before any await resumes).
import type { HttpRequest } from 'uWebSockets.js';
import { InvalidRequestError } from '../../runtime/errors/index.js';
import type { RequestScope } from './reply-headers.js';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface RouteRequest {
  readonly method: HttpMethod;
  /** URL path without the query string, still percent-encoded. */
  readonly path: string;
  /** Raw query string without the `?`, or ''. */
  readonly query: string;
  /** Lower-cased header names; repeated headers joined with ', '. */
  readonly headers: Readonly<Record<string, string>>;
  /** `:name` segments of the route pattern, raw (percent-encoded). */
  readonly params: Readonly<Record<string, string>>;
  /** Unique per request; quoted to the caller in place of internal error details. */
  readonly requestId: string;
  /**
   * The body, for routes declared with `body`; otherwise an empty buffer. Rejects with
   * PayloadTooLargeError over the limit.
   */
  readonly body: Promise<Buffer>;
  /** Reply headers added on the way (rate limits) and the client's address; pass it along. */
  readonly scope: RequestScope;
}

export function readHeaders(req: HttpRequest): Record<string, string> {
  // A null-prototype object: header names like __proto__ stay plain keys.
  const headers = Object.create(null) as Record<string, string>;
  req.forEach((name, value) => {
    const prev = headers[name];
    headers[name] = prev === undefined ? value : `${prev}, ${value}`;
  });
  return headers;
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/** Names of the `:param` segments of a uWS pattern, in order (uWS indexes them by position). */
export function paramNames(pattern: string): string[] {
  return pattern
    .split('/')
    .filter((s) => s.startsWith(':'))
    .map((s) => s.slice(1));
}

export function readParams(req: HttpRequest, names: readonly string[]): Record<string, string> {
  if (names.length === 0) return NO_PARAMS;
  const params = Object.create(null) as Record<string, string>;
  for (let i = 0; i < names.length; i++) params[names[i] as string] = req.getParameter(i);
  return params;
}

/** Upper-case method for metric labels, bounded to a fixed set so labels cannot explode. */
export function methodLabel(lowerCaseMethod: string): string {
  const upper = lowerCaseMethod.toUpperCase();
  return (HTTP_METHODS as readonly string[]).includes(upper) ||
    upper === 'HEAD' ||
    upper === 'OPTIONS'
    ? upper
    : 'OTHER';
}

/**
 * decodeURIComponent for a path parameter, as a 400 instead of a URIError. A NUL is refused the
 * same way: no id holds one, and PostgreSQL rejects it in text as an internal error (the fuzz
 * test found /api/agents/%00 and /agents/%00/a2a answering 500).
 */
export function decodeParam(raw: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    throw new InvalidRequestError(`Malformed percent-encoding in path segment "${raw}"`);
  }
  if (decoded.includes('\u0000')) {
    throw new InvalidRequestError(`Path segment "${raw}" holds a NUL character`);
  }
  return decoded;
}
