// Verifies x-hub envelopes against the hub's JWKS (decisions.md §4): known kid, Ed25519 signature
// over the canonical JSON, then iat/exp with a clock-skew allowance. What official agents and any
// HTTP agent run before trusting sender or tenant. Parsing and checks are the SDK contract's.
import type { KeyObject } from 'node:crypto';
import {
  envelopeProblem,
  importEd25519Jwk,
  isEd25519Jwk,
  parseEnvelope,
  type HubEnvelope,
  type HubJwks,
} from '../../sdk/contract/index.js';

export { DEFAULT_CLOCK_SKEW_SECONDS } from '../../sdk/contract/index.js';

/** The reasons the hub's verifier gives (it holds its keys, so never missing or unavailable). */
export const EnvelopeRejection = {
  malformed: 'malformed',
  unknownKid: 'unknown_kid',
  badSignature: 'bad_signature',
  expired: 'expired',
  notYetValid: 'not_yet_valid',
} as const;
export type EnvelopeRejection = (typeof EnvelopeRejection)[keyof typeof EnvelopeRejection];

export type VerifyResult =
  { ok: true; envelope: HubEnvelope } | { ok: false; reason: EnvelopeRejection };

export interface VerifyOptions {
  /** epoch ms */
  now: number;
  /** allowance for clocks that disagree; default 60 s */
  clockSkewSeconds?: number;
}

/** A JWKS as fetched: entries that are not Ed25519 signing keys are ignored. */
export type JwksInput = HubJwks;

/**
 * Imported public keys by kid, per JWKS object: importing a JWK costs more than verifying a
 * signature. Unknown kids are not cached, so made-up kids cannot grow the cache.
 */
const keyCache = new WeakMap<JwksInput, Map<string, KeyObject>>();

export function verifyEnvelope(env: unknown, jwks: JwksInput, opts: VerifyOptions): VerifyResult {
  const envelope = parseEnvelope(env);
  if (envelope === null) return { ok: false, reason: 'malformed' };
  const key = publicKey(jwks, envelope.kid);
  if (key === null) return { ok: false, reason: 'unknown_kid' };
  const problem = envelopeProblem(envelope, key, opts.now, opts.clockSkewSeconds);
  // envelopeProblem names only signature and time, all of them in the hub's list.
  if (problem !== undefined) return { ok: false, reason: problem as EnvelopeRejection };
  return { ok: true, envelope };
}

function publicKey(jwks: JwksInput, kid: string): KeyObject | null {
  let byKid = keyCache.get(jwks);
  if (byKid === undefined) {
    byKid = new Map();
    keyCache.set(jwks, byKid);
  }
  const cached = byKid.get(kid);
  if (cached !== undefined) return cached;
  const key = importEd25519Jwk(jwks.keys.find((k) => isEd25519Jwk(k) && k.kid === kid));
  if (key !== null) byKid.set(kid, key);
  return key;
}
