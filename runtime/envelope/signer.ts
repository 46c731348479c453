// Signs x-hub envelopes (decisions.md §4). Signing is on every delivery's hot path, so the private
// KeyObject is parsed once per signer, not per call.
import { createPrivateKey, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { HubError, InvalidParamsError } from '../errors/index.js';
import {
  ENVELOPE_VERSION,
  isWellFormed,
  signingInput,
  type Envelope,
  type EnvelopeFields,
} from './envelope.js';
import type { SigningKeyConfig } from './keys.js';

export const DEFAULT_ENVELOPE_TTL_SECONDS = 300;

export interface SignOptions {
  /** epoch ms (the caller's clock, so tests control time) */
  now: number;
  /** lifetime; default 300 s */
  ttlSeconds?: number;
}

export class EnvelopeSigner {
  readonly kid: string;
  readonly #key: KeyObject;

  constructor(keys: SigningKeyConfig) {
    const key = createPrivateKey(keys.privateKeyPem);
    if (key.asymmetricKeyType !== 'ed25519') {
      throw new HubError('INTERNAL', `envelope signing key ${keys.kid} is not an Ed25519 key`);
    }
    this.kid = keys.kid;
    this.#key = key;
  }

  /**
   * A signed envelope for `fields`, valid from `now` for `ttlSeconds`. Throws InvalidParamsError
   * for a field that is not well-formed Unicode (RFC 8785 cannot canonicalize it).
   */
  sign(fields: EnvelopeFields, opts: SignOptions): Envelope {
    checkWellFormed(fields);
    const iat = Math.floor(opts.now / 1000);
    // Only the known fields are copied: whatever is signed is exactly what verifiers parse.
    const unsigned = {
      v: ENVELOPE_VERSION,
      sender: { agentId: fields.sender.agentId, tenantId: fields.sender.tenantId },
      recipient: { agentId: fields.recipient.agentId, tenantId: fields.recipient.tenantId },
      taskId: fields.taskId,
      contextId: fields.contextId,
      messageId: fields.messageId,
      iat,
      exp: iat + Math.floor(opts.ttlSeconds ?? DEFAULT_ENVELOPE_TTL_SECONDS),
      kid: this.kid,
    } as const;
    // Ed25519 hashes internally: the algorithm argument is null.
    const sig = sign(null, signingInput(unsigned), this.#key).toString('base64url');
    return { ...unsigned, sig };
  }
}

function checkWellFormed(f: EnvelopeFields): void {
  const strings: [string, string][] = [
    ['sender.agentId', f.sender.agentId],
    ['sender.tenantId', f.sender.tenantId],
    ['recipient.agentId', f.recipient.agentId],
    ['recipient.tenantId', f.recipient.tenantId],
    ['taskId', f.taskId],
    ['contextId', f.contextId],
    ['messageId', f.messageId],
  ];
  for (const [field, value] of strings) {
    if (!isWellFormed(value)) throw new InvalidParamsError(field, 'must be well-formed Unicode');
  }
}
