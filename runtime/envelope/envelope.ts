// The signed `x-hub` envelope (decisions.md §4): who sent a message to whom, for which task, signed
// by the hub with Ed25519 over the RFC 8785 canonical JSON of every field but `sig`.
import { z } from 'zod';

/** The params key the envelope travels under. */
export const ENVELOPE_PARAM = 'x-hub';
export const ENVELOPE_VERSION = 1;

/** RFC 8785 refuses strings with lone surrogates; so do the signer and the verifier. */
export function isWellFormed(s: string): boolean {
  return !/\p{Surrogate}/u.test(s);
}

const Text = z.string().min(1).refine(isWellFormed, 'must be well-formed Unicode');

const Principal = z.object({ agentId: Text, tenantId: Text });
export type Principal = z.infer<typeof Principal>;

/** The envelope as it arrives: parsed before any check so a malformed one is rejected cleanly. */
export const Envelope = z.object({
  v: z.literal(ENVELOPE_VERSION),
  sender: Principal,
  recipient: Principal,
  taskId: Text,
  contextId: Text,
  messageId: Text,
  /** Unix seconds */
  iat: z.number().int(),
  /** Unix seconds */
  exp: z.number().int(),
  kid: Text,
  /** base64url Ed25519 signature */
  sig: z.string().min(1),
});
export type Envelope = z.infer<typeof Envelope>;

/** What the caller of sign() supplies; the signer adds v, iat, exp, kid and sig. */
export type EnvelopeFields = Pick<
  Envelope,
  'sender' | 'recipient' | 'taskId' | 'contextId' | 'messageId'
>;

/** The keys of the signed envelope, in RFC 8785 order (UTF-16 code units); `sig` is not signed. */
export const SIGNED_KEYS = [
  'contextId',
  'exp',
  'iat',
  'kid',
  'messageId',
  'recipient',
  'sender',
  'taskId',
  'v',
] as const;

/**
 * The bytes that are signed: the RFC 8785 canonical JSON of the envelope without `sig`. Written
 * out for this fixed shape (keys in code-point order, every value through JSON.stringify, which is
 * how RFC 8785 serializes strings and integers): byte for byte what `canonicalize` gives, a test
 * holds them together, at a fraction of its cost on the delivery hot path.
 */
export function signingInput(e: Omit<Envelope, 'sig'>): Buffer {
  const j = JSON.stringify;
  return Buffer.from(
    `{"contextId":${j(e.contextId)},"exp":${j(e.exp)},"iat":${j(e.iat)},"kid":${j(e.kid)},` +
      `"messageId":${j(e.messageId)},` +
      `"recipient":{"agentId":${j(e.recipient.agentId)},"tenantId":${j(e.recipient.tenantId)}},` +
      `"sender":{"agentId":${j(e.sender.agentId)},"tenantId":${j(e.sender.tenantId)}},` +
      `"taskId":${j(e.taskId)},"v":${j(e.v)}}`,
    'utf8'
  );
}

/**
 * `params` without any caller-supplied `x-hub` (decisions.md §4: it is discarded, never trusted);
 * a new object, the input is left as it is.
 */
export function stripCallerEnvelope<T>(params: T): T {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return params;
  if (!Object.prototype.hasOwnProperty.call(params, ENVELOPE_PARAM)) return params;
  const { [ENVELOPE_PARAM]: _discarded, ...rest } = params as Record<string, unknown>;
  return rest as T;
}

/** `params` with the hub's envelope attached (after stripping any the caller sent). */
export function attachEnvelope<T extends object>(
  params: T,
  envelope: Envelope
): T & { 'x-hub': Envelope } {
  return { ...stripCallerEnvelope(params), [ENVELOPE_PARAM]: envelope };
}
