// Signatures on a card an agent registers (issue 27): each JWS in `signatures` is verified before
// the card is stored, against the key its protected header names (an embedded `jwk`, or `kid` in
// the JWKS at `jku`, fetched through the outbound guard like every registered URL). A signature
// that does not verify refuses the card, naming it, and changes nothing. The outcome is stored
// with the card as `x-hub-signatures` (whatever a caller put there is replaced), which discovery
// shows with the card.
import { createLocalJWKSet, decodeProtectedHeader, flattenedVerify, importJWK } from 'jose';
import type { JSONWebKeySet, JWK } from 'jose';
import { base64url } from 'jose';
import { cardSigningPayload } from '../../runtime/envelope/index.js';
import { InvalidParamsError } from '../../runtime/errors/index.js';
import { outboundRequest, type OutboundGuard } from '../../runtime/net/index.js';

export const VERIFIED_SIGNATURES_FIELD = 'x-hub-signatures';
const ALGORITHMS = ['EdDSA', 'ES256', 'ES384', 'RS256', 'PS256'];
const JKU_TIMEOUT_MS = 5_000;
const MAX_SIGNATURES = 5;

export interface VerifiedSignature {
  readonly kid?: string;
  readonly alg: string;
  readonly jku?: string;
  readonly verified: true;
  /** epoch ms */
  readonly verifiedAt: number;
}

/**
 * The card to store: without signatures, as given (minus any caller-made `x-hub-signatures`);
 * with signatures, each verified, and their outcome recorded. Throws InvalidParamsError naming
 * the first signature that fails.
 */
export async function verifyRegisteredCard(
  card: unknown,
  guard: OutboundGuard,
  now: number = Date.now()
): Promise<unknown> {
  if (typeof card !== 'object' || card === null || Array.isArray(card)) return card;
  const rest = { ...(card as Record<string, unknown>) };
  delete rest[VERIFIED_SIGNATURES_FIELD];
  const signatures = rest.signatures;
  if (signatures === undefined) return rest;
  if (!Array.isArray(signatures) || signatures.length === 0) {
    throw new InvalidParamsError('card.signatures', 'must be a non-empty list of JWS objects');
  }
  if (signatures.length > MAX_SIGNATURES) {
    throw new InvalidParamsError('card.signatures', `at most ${MAX_SIGNATURES} signatures`);
  }
  const payload = base64url.encode(cardSigningPayload(rest));
  const out: VerifiedSignature[] = [];
  for (const [i, raw] of signatures.entries()) {
    const field = `card.signatures[${i}]`;
    const s = raw as { protected?: unknown; signature?: unknown; header?: unknown };
    if (typeof s.protected !== 'string' || typeof s.signature !== 'string') {
      throw new InvalidParamsError(field, 'must have `protected` and `signature` strings');
    }
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader({ protected: s.protected });
    } catch {
      throw new InvalidParamsError(`${field}.protected`, 'is not a base64url JWS header');
    }
    const jws = { protected: s.protected, signature: s.signature, payload };
    try {
      if (header.jwk !== undefined) {
        const key = await importJWK(header.jwk as JWK, header.alg);
        await flattenedVerify(jws, key, { algorithms: ALGORITHMS });
      } else if (typeof header.jku === 'string') {
        const keys = createLocalJWKSet(await fetchJwks(header.jku, guard));
        await flattenedVerify(jws, keys, { algorithms: ALGORITHMS });
      } else {
        throw new Error('its protected header names no key (jwk or jku)');
      }
    } catch (err) {
      if (err instanceof InvalidParamsError) throw err;
      throw new InvalidParamsError(
        field,
        `does not verify: ${err instanceof Error ? err.message : String(err)}`
      );
    }
    out.push({
      ...(header.kid !== undefined ? { kid: header.kid } : {}),
      alg: header.alg ?? '',
      ...(typeof header.jku === 'string' ? { jku: header.jku } : {}),
      verified: true,
      verifiedAt: now,
    });
  }
  return { ...rest, [VERIFIED_SIGNATURES_FIELD]: out };
}

async function fetchJwks(jku: string, guard: OutboundGuard): Promise<JSONWebKeySet> {
  let url: URL;
  try {
    url = new URL(jku);
  } catch {
    throw new Error(`jku ${jku} is not a URL`);
  }
  const res = await outboundRequest(guard, url, {
    method: 'GET',
    headers: { accept: 'application/json' },
    timeoutMs: JKU_TIMEOUT_MS,
    maxBytes: 64 * 1024,
  });
  if (res.status !== 200) throw new Error(`jku ${jku} answered HTTP ${res.status}`);
  const body = JSON.parse(res.body.toString('utf8')) as unknown;
  if (typeof body !== 'object' || body === null || !Array.isArray((body as JSONWebKeySet).keys)) {
    throw new Error(`jku ${jku} is not a JWKS`);
  }
  return body as JSONWebKeySet;
}
