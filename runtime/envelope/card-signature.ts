// Signed agent cards (A2A "Agent Card signing", issue 27): a JWS in flattened JSON serialization
// with a detached payload, the payload being the RFC 8785 canonical JSON of the card without its
// `signatures` and without empty values (empty strings, nulls, empty lists and objects), as A2A
// 1.0's canonicalization asks: a verifier that reads the card into the A2A types and
// writes it back (as @a2a-js/sdk does) gets the same bytes. Keys are the hub's envelope keys.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import canonicalize from 'canonicalize';
import { FlattenedSign } from 'jose';
import type { SigningKeyConfig } from './keys.js';

export interface CardSignature {
  protected: string;
  signature: string;
  header?: Record<string, unknown>;
}

/**
 * A card without empty values, recursively: empty strings, nulls, empty lists and objects (what
 * the A2A SDKs drop before canonicalizing; `false` and 0 stay).
 */
export function withoutDefaults(value: unknown): unknown {
  if (value === '' || value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const list = value.map(withoutDefaults).filter((v) => v !== undefined);
    return list.length > 0 ? list : undefined;
  }
  if (typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const cleaned = withoutDefaults(v);
    if (cleaned !== undefined) out[k] = cleaned;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The bytes a card's signatures cover. */
export function cardSigningPayload(card: object): Uint8Array {
  const rest: Record<string, unknown> = { ...(card as Record<string, unknown>) };
  delete rest.signatures;
  return new TextEncoder().encode(canonicalize(withoutDefaults(rest) ?? {}) ?? '{}');
}

export class CardSigner {
  readonly #key: KeyObject;
  readonly kid: string;

  constructor(
    key: SigningKeyConfig,
    /** Where verifiers find the key (the hub's /.well-known/hub-keys.json). */
    private readonly jku: string
  ) {
    this.#key = createPrivateKey(key.privateKeyPem);
    this.kid = key.kid;
  }

  /** The card with one hub signature in `signatures` (replacing any the card carried). */
  async sign<T extends object>(card: T): Promise<T & { signatures: CardSignature[] }> {
    const jws = await new FlattenedSign(cardSigningPayload(card))
      .setProtectedHeader({ alg: 'EdDSA', kid: this.kid, jku: this.jku, typ: 'JOSE' })
      .sign(this.#key);
    return {
      ...card,
      signatures: [{ protected: jws.protected ?? '{}', signature: jws.signature }],
    };
  }
}
