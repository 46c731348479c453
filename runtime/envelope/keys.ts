// Hub signing keys for the x-hub envelope (decisions.md §4): Ed25519 key pairs, their key id, and
// the public JWKS served at /.well-known/hub-keys.json.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { HubError } from '../errors/index.js';

import type { PublicJwk } from '../../sdk/contract/index.js';

/** An Ed25519 public key as a JWK (RFC 8037): the contract's, so the SDK reads what is published. */
export type { PublicJwk } from '../../sdk/contract/index.js';

export interface Jwks {
  keys: PublicJwk[];
}

/** A private signing key as configuration holds it. */
export interface SigningKeyConfig {
  kid: string;
  privateKeyPem: string;
}

export interface SigningKey extends SigningKeyConfig {
  publicJwk: PublicJwk;
}

/** A fresh Ed25519 key pair; its kid is derived from the public key (see kidOf). */
export function generateSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const x = rawPublicKey(publicKey);
  const kid = kidOf(x);
  return {
    kid,
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicJwk: jwk(x, kid),
  };
}

/** base64url of the first 8 bytes of sha256(raw public key): short, stable, collision-safe enough. */
export function kidOf(rawPublicKey: Buffer): string {
  return createHash('sha256').update(rawPublicKey).digest().subarray(0, 8).toString('base64url');
}

/** The JWKS for a set of keys (current and still-valid previous ones, for rotation). */
export function jwksOf(keys: readonly (SigningKeyConfig | SigningKey)[]): Jwks {
  return { keys: keys.map(publicJwkOf) };
}

/** The public JWK of a key, derived from its private key when it does not carry one. */
export function publicJwkOf(key: SigningKeyConfig | SigningKey): PublicJwk {
  if ('publicJwk' in key) return { ...key.publicJwk, kid: key.kid };
  const publicKey = createPublicKey(createPrivateKey(key.privateKeyPem));
  return jwk(rawPublicKey(publicKey), key.kid);
}

function rawPublicKey(publicKey: KeyObject): Buffer {
  const { x } = publicKey.export({ format: 'jwk' });
  if (typeof x !== 'string') throw new HubError('INTERNAL', 'not an Ed25519 public key');
  return Buffer.from(x, 'base64url');
}

function jwk(x: Buffer, kid: string): PublicJwk {
  return { kty: 'OKP', crv: 'Ed25519', x: x.toString('base64url'), kid, use: 'sig', alg: 'EdDSA' };
}
