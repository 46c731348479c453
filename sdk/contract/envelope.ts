// The signed `x-hub` envelope (decisions.md §4) as both sides read it: its shape, the bytes that
// are signed, and the checks a verifier runs. The hub signs and verifies with these, and the SDK
// verifies with them, so a change to the envelope is one change, held by the contract test.
import { verify, type KeyObject } from 'node:crypto';

export const ENVELOPE_VERSION = 1;

/** The hub-signed `x-hub` envelope every delivery carries. */
export interface HubEnvelope {
  v: 1;
  sender: { agentId: string; tenantId: string };
  recipient: { agentId: string; tenantId: string };
  taskId: string;
  contextId: string;
  messageId: string;
  /** Unix seconds */
  iat: number;
  /** Unix seconds */
  exp: number;
  kid: string;
  /** base64url Ed25519 signature */
  sig: string;
}

/** Why an envelope is refused. `missing` and `keys_unavailable` only arise where keys are fetched. */
export const EnvelopeRejections = {
  missing: 'missing',
  malformed: 'malformed',
  unknownKid: 'unknown_kid',
  badSignature: 'bad_signature',
  expired: 'expired',
  notYetValid: 'not_yet_valid',
  keysUnavailable: 'keys_unavailable',
} as const;
export type EnvelopeRejection = (typeof EnvelopeRejections)[keyof typeof EnvelopeRejections];

/** The allowance for clocks that disagree, in seconds. */
export const DEFAULT_CLOCK_SKEW_SECONDS = 60;
const ED25519_SIGNATURE_BYTES = 64;

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

/** String.prototype.isWellFormed (ES2024): Node 20 has it; older runtimes use the pattern. */
const nativeWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean })
  .isWellFormed;
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * RFC 8785 refuses strings with lone surrogates; so do the signer and the verifier. Seven fields
 * of every signed envelope pass here: the native check is a fraction of the pattern's cost.
 */
export function isWellFormed(s: string): boolean {
  return nativeWellFormed !== undefined ? nativeWellFormed.call(s) : !LONE_SURROGATE.test(s);
}

/**
 * The bytes that are signed: the RFC 8785 canonical JSON of the envelope without `sig`. Written
 * out for this fixed shape (keys in code-point order, every value through JSON.stringify, which is
 * how RFC 8785 serializes strings and integers): byte for byte what `canonicalize` gives, a test
 * holds them together, at a fraction of its cost on the delivery hot path. Only the known fields
 * are taken: anything else in the object is neither signed nor trusted.
 */
export function signingInput(e: Omit<HubEnvelope, 'sig'>): Buffer {
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

/** The envelope's known fields when every one has the right type; null otherwise. */
export function parseEnvelope(raw: unknown): HubEnvelope | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  const sender = principal(r.sender);
  const recipient = principal(r.recipient);
  const { taskId, contextId, messageId, kid, sig, iat, exp } = r;
  if (r.v !== ENVELOPE_VERSION || !sender || !recipient) return null;
  if (!text(taskId) || !text(contextId) || !text(messageId) || !text(kid)) return null;
  if (typeof sig !== 'string' || sig.length === 0) return null;
  if (!Number.isInteger(iat) || !Number.isInteger(exp) || (exp as number) < (iat as number)) {
    return null;
  }
  return {
    v: ENVELOPE_VERSION,
    sender,
    recipient,
    taskId,
    contextId,
    messageId,
    iat: iat as number,
    exp: exp as number,
    kid,
    sig,
  };
}

/**
 * Why a parsed envelope does not hold under `key` at `nowMs`: its signature first, then its
 * lifetime with `skewSeconds` of allowance either way; undefined when it holds.
 */
export function envelopeProblem(
  envelope: HubEnvelope,
  key: KeyObject,
  nowMs: number,
  skewSeconds: number = DEFAULT_CLOCK_SKEW_SECONDS
): EnvelopeRejection | undefined {
  const sig = Buffer.from(envelope.sig, 'base64url');
  if (sig.length !== ED25519_SIGNATURE_BYTES || !verify(null, signingInput(envelope), key, sig)) {
    return EnvelopeRejections.badSignature;
  }
  const nowSeconds = nowMs / 1000;
  if (envelope.exp + skewSeconds <= nowSeconds) return EnvelopeRejections.expired;
  if (envelope.iat - skewSeconds > nowSeconds) return EnvelopeRejections.notYetValid;
  return undefined;
}

function principal(v: unknown): { agentId: string; tenantId: string } | null {
  if (typeof v !== 'object' || v === null) return null;
  const { agentId, tenantId } = v as Record<string, unknown>;
  return text(agentId) && text(tenantId) ? { agentId, tenantId } : null;
}

/** A non-empty, well-formed string. */
function text(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0 && isWellFormed(v);
}
