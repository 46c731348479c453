// The signed x-hub envelope (decisions.md §4): keys and JWKS, signing, verification, and removing
// any envelope a caller put in its own request.
export {
  Envelope,
  ENVELOPE_PARAM,
  ENVELOPE_VERSION,
  signingInput,
  SIGNED_KEYS,
  stripCallerEnvelope,
  attachEnvelope,
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
