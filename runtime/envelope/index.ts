// The signed x-hub envelope (decisions.md §4): keys and JWKS, signing, verification, and removing
// any envelope a caller put in its own request.
export {
  ENVELOPE_PARAM,
  parseEnvelope,
  ENVELOPE_VERSION,
  signingInput,
  SIGNED_KEYS,
  stripCallerEnvelope,
  attachEnvelope,
  type Envelope,
  type EnvelopeFields,
  type Principal,
} from './envelope.js';
export {
  generateSigningKey,
  kidOf,
  jwksOf,
  publicJwkOf,
  type PublicJwk,
  type Jwks,
  type SigningKey,
  type SigningKeyConfig,
} from './keys.js';
export { EnvelopeSigner, DEFAULT_ENVELOPE_TTL_SECONDS, type SignOptions } from './signer.js';
export {
  verifyEnvelope,
  EnvelopeRejection,
  DEFAULT_CLOCK_SKEW_SECONDS,
  type VerifyResult,
  type VerifyOptions,
  type JwksInput,
} from './verify.js';
export {
  CardSigner,
  cardSigningPayload,
  withoutDefaults,
  type CardSignature,
} from './card-signature.js';
