// Verifying the hub-signed `x-hub` envelope (decisions.md §4), exactly as the hub signs it: an
// Ed25519 signature (base64url) over the RFC 8785 canonical JSON of the envelope's fields without
// `sig`, by the key the JWKS publishes under `kid`; then iat/exp with a clock-skew allowance.
import { verify } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { HubEnvelope } from '../protocol.js';
import { HubKeys, type HubKeysOptions } from './hub-keys.js';

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

export type EnvelopeCheck =
  { ok: true; envelope: HubEnvelope } | { ok: false; reason: EnvelopeRejection; detail?: string };

export interface EnvelopeVerifierOptions extends HubKeysOptions {
  /** Allowance for clocks that disagree, in seconds; default 60 (the hub's own verifier's). */
  clockSkewSeconds?: number;
}

export const DEFAULT_CLOCK_SKEW_SECONDS = 60;
const ED25519_SIGNATURE_BYTES = 64;

/** Thrown by `EnvelopeVerifier.assert` (and refused deliveries name it). */
export class EnvelopeVerificationError extends Error {
  constructor(
    readonly reason: EnvelopeRejection,
    detail?: string
  ) {
    super(`envelope verification failed: ${reason}${detail ? ` (${detail})` : ''}`);
    this.name = 'EnvelopeVerificationError';
  }
}

export class EnvelopeVerifier {
  readonly keys: HubKeys;
  readonly #skew: number;
  readonly #now: () => number;

  constructor(opts: EnvelopeVerifierOptions) {
    this.keys = new HubKeys(opts);
    this.#skew = opts.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS;
    this.#now = opts.now ?? Date.now;
  }

  /** Checks an envelope as received; never throws. */
  async verify(raw: unknown): Promise<EnvelopeCheck> {
    if (raw === undefined || raw === null) return { ok: false, reason: 'missing' };
    const envelope = parseEnvelope(raw);
    if (!envelope) return { ok: false, reason: 'malformed' };
    let key;
    try {
      key = await this.keys.key(envelope.kid);
    } catch (err) {
      return { ok: false, reason: 'keys_unavailable', detail: (err as Error).message };
    }
    if (!key) return { ok: false, reason: 'unknown_kid' };
    const sig = Buffer.from(envelope.sig, 'base64url');
    if (sig.length !== ED25519_SIGNATURE_BYTES || !verify(null, signedBytes(envelope), key, sig)) {
      return { ok: false, reason: 'bad_signature' };
    }
    const nowSeconds = this.#now() / 1000;
    if (envelope.exp + this.#skew <= nowSeconds) return { ok: false, reason: 'expired' };
    if (envelope.iat - this.#skew > nowSeconds) return { ok: false, reason: 'not_yet_valid' };
    return { ok: true, envelope };
  }

  /** The verified envelope, or an EnvelopeVerificationError naming why it was refused. */
  async assert(raw: unknown): Promise<HubEnvelope> {
    const r = await this.verify(raw);
    if (!r.ok) throw new EnvelopeVerificationError(r.reason, r.detail);
    return r.envelope;
  }
}

/**
 * The bytes the hub signs: RFC 8785 JSON of the known fields but `sig`. Only known fields are
 * taken, as the hub signs only those; anything else in the object is neither trusted nor returned.
 */
export function signedBytes(e: Omit<HubEnvelope, 'sig'>): Buffer {
  const unsigned = {
    v: e.v,
    sender: { agentId: e.sender.agentId, tenantId: e.sender.tenantId },
    recipient: { agentId: e.recipient.agentId, tenantId: e.recipient.tenantId },
    taskId: e.taskId,
    contextId: e.contextId,
    messageId: e.messageId,
    iat: e.iat,
    exp: e.exp,
    kid: e.kid,
  };
  return Buffer.from(canonicalize(unsigned) ?? '', 'utf8');
}

/** The envelope's known fields when every one has the right type; null otherwise. */
function parseEnvelope(raw: unknown): HubEnvelope | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const sender = principal(r.sender);
  const recipient = principal(r.recipient);
  const { taskId, contextId, messageId, kid, sig, iat, exp } = r;
  if (r.v !== 1 || !sender || !recipient) return null;
  if (![taskId, contextId, messageId, kid].every(text)) return null;
  if (typeof sig !== 'string' || sig.length === 0) return null;
  if (!Number.isInteger(iat) || !Number.isInteger(exp) || (exp as number) < (iat as number)) {
    return null;
  }
  return {
    v: 1,
    sender,
    recipient,
    taskId: taskId as string,
    contextId: contextId as string,
    messageId: messageId as string,
    iat: iat as number,
    exp: exp as number,
    kid: kid as string,
    sig,
  };
}

function principal(v: unknown): { agentId: string; tenantId: string } | null {
  if (typeof v !== 'object' || v === null) return null;
  const { agentId, tenantId } = v as Record<string, unknown>;
  return text(agentId) && text(tenantId) ? { agentId, tenantId } : null;
}

/** A non-empty, well-formed string: RFC 8785 cannot canonicalize lone surrogates. */
function text(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0 && !/\p{Surrogate}/u.test(v);
}
