// Signed agent cards: verifying a card's JWS signatures against trusted keys (the hub's JWKS).
export {
  canonicalCardPayload,
  verifyAgentCard,
  withoutCardDefaults,
  type CardSignatureEntry,
  type VerifiedCardSignature,
  type VerifyAgentCardOptions,
  type VerifyAgentCardResult,
} from './verify-card.js';
