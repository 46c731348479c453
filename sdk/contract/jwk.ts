// The hub's public signing keys as JWKs (RFC 8037, decisions.md §4): the one definition of what a
// key in /.well-known/hub-keys.json looks like and which entries a verifier accepts. The hub builds
// its JWKS with this type and the SDK reads it with these checks, so they cannot drift apart.
import { createPublicKey, type KeyObject } from 'node:crypto';

/** An Ed25519 public key as the hub publishes it. */
export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  /** base64url of the 32-byte public key */
  x: string;
  kid: string;
  use: 'sig';
  alg: 'EdDSA';
}

/** A JWKS as fetched: entries that are not Ed25519 signing keys are ignored. */
export interface HubJwks {
  keys: readonly unknown[];
}

/** An entry a verifier may use: Ed25519, with a kid, and not declared for another use. */
export function isEd25519Jwk(k: unknown): k is Pick<PublicJwk, 'kty' | 'crv' | 'x' | 'kid'> {
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

/** The entry as a node:crypto key, or null when it is not a usable Ed25519 public key. */
export function importEd25519Jwk(jwk: unknown): KeyObject | null {
  if (!isEd25519Jwk(jwk)) return null;
  try {
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
  } catch {
    return null;
  }
}

export function isJwks(v: unknown): v is HubJwks {
  return typeof v === 'object' && v !== null && Array.isArray((v as HubJwks).keys);
}
