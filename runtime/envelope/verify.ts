// Verifies x-hub envelopes against the hub's JWKS (decisions.md §4): known kid, Ed25519 signature
// over the canonical JSON, then iat/exp with a clock-skew allowance. What official agents and any
// HTTP agent run before trusting sender or tenant.
import { createPublicKey, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { Envelope, signingInput } from './envelope.js';

export const EnvelopeRejection = {
  malformed: 'malformed',
  unknownKid: 'unknown_kid',
  badSignature: 'bad_signature',
  expired: 'expired',
  notYetValid: 'not_yet_valid',
} as const;
export type EnvelopeRejection = (typeof EnvelopeRejection)[keyof typeof EnvelopeRejection];

export type VerifyResult =
  { ok: true; envelope: Envelope } | { ok: false; reason: EnvelopeRejection };

export interface VerifyOptions {
  /** epoch ms */
  now: number;
  /** allowance for clocks that disagree; default 60 s */
  clockSkewSeconds?: number;
}

export const DEFAULT_CLOCK_SKEW_SECONDS = 60;

/** A JWKS as fetched: entries that are not Ed25519 signing keys are ignored. */
export interface JwksInput {
  keys: readonly unknown[];
}

const ED25519_SIGNATURE_BYTES = 64;

/**
 * Imported public keys by kid, per JWKS object: importing a JWK costs more than verifying a
 * signature. Unknown kids are not cached, so made-up kids cannot grow the cache.
 */
const keyCache = new WeakMap<JwksInput, Map<string, KeyObject>>();

export function verifyEnvelope(env: unknown, jwks: JwksInput, opts: VerifyOptions): VerifyResult {
  const parsed = Envelope.safeParse(env);
  if (!parsed.success) return reject('malformed');
  const envelope = parsed.data;
  if (envelope.exp < envelope.iat) return reject('malformed');

  const key = publicKey(jwks, envelope.kid);
  if (key === null) return reject('unknownKid');

  const sig = Buffer.from(envelope.sig, 'base64url');
  if (sig.length !== ED25519_SIGNATURE_BYTES || !verify(null, signingInput(envelope), key, sig)) {
    return reject('badSignature');
  }

  const nowSeconds = opts.now / 1000;
  const skew = opts.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS;
  if (envelope.exp + skew <= nowSeconds) return reject('expired');
  if (envelope.iat - skew > nowSeconds) return reject('notYetValid');
  return { ok: true, envelope };
}

function reject(reason: keyof typeof EnvelopeRejection): VerifyResult {
  return { ok: false, reason: EnvelopeRejection[reason] };
}

function publicKey(jwks: JwksInput, kid: string): KeyObject | null {
  let byKid = keyCache.get(jwks);
  if (byKid === undefined) {
    byKid = new Map();
    keyCache.set(jwks, byKid);
  }
  const cached = byKid.get(kid);
  if (cached !== undefined) return cached;
  const key = importKey(jwks.keys.find((k) => isEd25519Jwk(k) && k.kid === kid));
  if (key !== null) byKid.set(kid, key);
  return key;
}

function importKey(jwk: unknown): KeyObject | null {
  if (!isEd25519Jwk(jwk)) return null;
  try {
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
  } catch {
    return null;
  }
}

function isEd25519Jwk(k: unknown): k is { kty: 'OKP'; crv: 'Ed25519'; x: string; kid: string } {
  if (typeof k !== 'object' || k === null) return false;
  const j = k as Record<string, unknown>;
  return (
    j.kty === 'OKP' &&
    j.crv === 'Ed25519' &&
    typeof j.x === 'string' &&
    typeof j.kid === 'string' &&
    (j.alg === undefined || j.alg === 'EdDSA') &&
    (j.use === undefined || j.use === 'sig')
  );
}
