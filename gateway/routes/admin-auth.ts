// The admin bearer token check for /debug. Both sides are hashed first so timingSafeEqual always
// compares equal-length buffers and neither the token nor its length leaks through timing.
import { createHash, timingSafeEqual } from 'node:crypto';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

const sha256 = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** A predicate over the Authorization header: true only for `Bearer <token>`. */
export function bearerTokenCheck(token: string): (authorization: string | undefined) => boolean {
  const expected = sha256(token);
  return (authorization) => {
    const given = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
    if (given === undefined) return false;
    return timingSafeEqual(sha256(given), expected);
  };
}
