// Verifying the hub-signed `x-hub` envelope against the hub's published keys (decisions.md §4).
export {
  EnvelopeVerifier,
  EnvelopeVerificationError,
  EnvelopeRejections,
  DEFAULT_CLOCK_SKEW_SECONDS,
  signedBytes,
  type EnvelopeCheck,
  type EnvelopeRejection,
  type EnvelopeVerifierOptions,
} from './verify-envelope.js';
export {
  HubKeys,
  hubKeysUrl,
  DEFAULT_KEYS_MAX_AGE_MS,
  DEFAULT_MIN_REFRESH_INTERVAL_MS,
  type HubJwks,
  type HubKeysOptions,
} from './hub-keys.js';
