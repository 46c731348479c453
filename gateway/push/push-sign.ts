// Push notifications are signed so a receiver can tell the hub sent them (issue 27): beyond the
// caller's own token, each POST carries a JWT (EdDSA, the hub's envelope key, `kid` in
// /.well-known/hub-keys.json) whose `request_body_sha256` claim binds it to the exact body, as the
// A2A spec suggests for push notification security. The receiver checks the signature against
// the JWKS, `aud` against its own URL, `iat`/`exp`, and the body's hash.
import { createHash, createPrivateKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import type { SigningKeyConfig } from '../../runtime/envelope/index.js';

/** The header that carries the JWT. */
export const PUSH_SIGNATURE_HEADER = 'x-hub-signature-jws';
/** How long a signed notification is valid: retries are signed afresh. */
export const PUSH_SIGNATURE_TTL_SECONDS = 300;

export interface PushClaims {
  /** The receiver's URL. */
  readonly aud: string;
  /** Unique per notification, the same on every retry (X-Hub-Delivery). */
  readonly jti: string;
  readonly taskId: string;
  /** epoch ms */
  readonly now: number;
}

export class PushSigner {
  readonly #key: KeyObject;
  readonly #kid: string;

  constructor(
    key: SigningKeyConfig,
    /** The hub's public URL: the `iss` claim. */
    private readonly issuer: string
  ) {
    this.#key = createPrivateKey(key.privateKeyPem);
    this.#kid = key.kid;
  }

  sign(body: string, c: PushClaims): Promise<string> {
    const iat = Math.floor(c.now / 1000);
    return new SignJWT({
      taskId: c.taskId,
      request_body_sha256: createHash('sha256').update(body, 'utf8').digest('hex'),
    })
      .setProtectedHeader({ alg: 'EdDSA', kid: this.#kid, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setAudience(c.aud)
      .setJti(c.jti)
      .setIssuedAt(iat)
      .setExpirationTime(iat + PUSH_SIGNATURE_TTL_SECONDS)
      .sign(this.#key);
  }
}
