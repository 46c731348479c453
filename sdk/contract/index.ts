// The protocol contract the hub and the SDK share (one copy: the hub imports it from here): task
// states and parts, the x-hub envelope, and the hub's JWKs. Only node: built-ins, no hub code.
export { TaskStates, TerminalStates, type TaskState, type Part } from './task.js';
export {
  ENVELOPE_VERSION,
  EnvelopeRejections,
  DEFAULT_CLOCK_SKEW_SECONDS,
  SIGNED_KEYS,
  isWellFormed,
  signingInput,
  parseEnvelope,
  envelopeProblem,
  type HubEnvelope,
  type EnvelopeRejection,
} from './envelope.js';
export { isEd25519Jwk, importEd25519Jwk, isJwks, type PublicJwk, type HubJwks } from './jwk.js';
