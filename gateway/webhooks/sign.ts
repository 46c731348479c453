// Webhook signatures (decisions.md §9): X-Hub-Signature = sha256=<hex HMAC-SHA256 of the raw body>.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** What a receiver does: recompute and compare in constant time. */
export function verifySignature(secret: string, body: string, header: string | undefined): boolean {
  if (header === undefined) return false;
  const expected = Buffer.from(signBody(secret, body));
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
