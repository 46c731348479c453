// Verifying a signed agent card (A2A "Agent Card signing"): each entry of `signatures` is a JWS
// (flattened JSON serialization, detached payload) over the RFC 8785 canonical JSON of the card
// without `signatures` and without empty values (empty strings, nulls, empty lists and objects),
// the form A2A 1.0 asks signers and verifiers to agree on. A card verifies when at
// least one signature checks out against a key the caller trusts: by default the hub's JWKS
// (`/.well-known/hub-keys.json`), the keys the hub signs its cards with.
import canonicalize from 'canonicalize';
import { base64url, createLocalJWKSet, flattenedVerify, type JSONWebKeySet } from 'jose';
import { hubKeysUrl } from '../envelope/hub-keys.js';

export interface CardSignatureEntry {
  protected: string;
  signature: string;
  header?: Record<string, unknown>;
}

export interface VerifyAgentCardOptions {
  /** Trusted keys as a JWKS; or `hubUrl` to fetch the hub's. */
  jwks?: { keys: readonly unknown[] };
  /** The hub whose keys to trust (its `/.well-known/hub-keys.json` is fetched). */
  hubUrl?: string;
  fetch?: typeof fetch;
  /** Accepted algorithms; default EdDSA and ES256. */
  algorithms?: readonly string[];
}

export interface VerifiedCardSignature {
  readonly kid: string | undefined;
  readonly alg: string;
}

export type VerifyAgentCardResult =
  | { readonly verified: true; readonly signature: VerifiedCardSignature }
  | { readonly verified: false; readonly reason: string };

/**
 * A card without empty values, recursively: empty strings, nulls, empty lists and objects (what
 * the A2A SDKs drop before canonicalizing; `false` and 0 stay).
 */
export function withoutCardDefaults(value: unknown): unknown {
  if (value === '' || value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const list = value.map(withoutCardDefaults).filter((v) => v !== undefined);
    return list.length > 0 ? list : undefined;
  }
  if (typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const cleaned = withoutCardDefaults(v);
    if (cleaned !== undefined) out[k] = cleaned;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The canonical bytes a card's signatures cover. */
export function canonicalCardPayload(card: object): Uint8Array {
  const rest: Record<string, unknown> = { ...(card as Record<string, unknown>) };
  delete rest.signatures;
  return new TextEncoder().encode(canonicalize(withoutCardDefaults(rest) ?? {}) ?? '{}');
}

/**
 * Checks the card's signatures against the trusted keys; resolves `{verified: true}` with the
 * signature that verified, or `{verified: false, reason}` (unsigned, tampered, unknown key…).
 */
export async function verifyAgentCard(
  card: object,
  opts: VerifyAgentCardOptions
): Promise<VerifyAgentCardResult> {
  const signatures = (card as { signatures?: unknown }).signatures;
  if (!Array.isArray(signatures) || signatures.length === 0) {
    return { verified: false, reason: 'the card carries no signatures' };
  }
  let jwks: { keys: readonly unknown[] };
  if (opts.jwks) jwks = opts.jwks;
  else if (opts.hubUrl) {
    const url = hubKeysUrl(opts.hubUrl);
    const res = await (opts.fetch ?? fetch)(url, { headers: { accept: 'application/json' } });
    if (!res.ok) return { verified: false, reason: `fetching ${url}: HTTP ${res.status}` };
    jwks = (await res.json()) as { keys: readonly unknown[] };
  } else {
    throw new Error('verifyAgentCard needs jwks or hubUrl: which keys to trust');
  }
  const keys = createLocalJWKSet(jwks as unknown as JSONWebKeySet);
  // Detached: the verifier supplies the payload, in its base64url form (b64 JWS).
  const payload = base64url.encode(canonicalCardPayload(card));
  const algorithms = [...(opts.algorithms ?? ['EdDSA', 'ES256'])];
  let reason = 'no signature verified';
  for (const s of signatures as CardSignatureEntry[]) {
    try {
      const r = await flattenedVerify(
        {
          protected: s.protected,
          signature: s.signature,
          payload,
          ...(s.header ? { header: s.header } : {}),
        },
        keys,
        { algorithms }
      );
      const header = r.protectedHeader ?? {};
      return {
        verified: true,
        signature: { kid: header.kid, alg: header.alg ?? '{}' },
      };
    } catch (err) {
      reason = err instanceof Error ? err.message : String(err);
    }
  }
  return { verified: false, reason };
}
