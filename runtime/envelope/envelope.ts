// The signed `x-hub` envelope (decisions.md §4): who sent a message to whom, for which task, signed
// by the hub with Ed25519 over the RFC 8785 canonical JSON of every field but `sig`. The shape,
// the signed bytes and the checks live in the SDK's contract (sdk/contract), shared with agents.
import type { HubEnvelope } from '../../sdk/contract/index.js';

export {
  ENVELOPE_VERSION,
  SIGNED_KEYS,
  isWellFormed,
  signingInput,
  parseEnvelope,
} from '../../sdk/contract/index.js';

/** The params key the envelope travels under. */
export const ENVELOPE_PARAM = 'x-hub';

/** The envelope's shape is the SDK's contract: what the hub signs is what agents parse. */
export type Envelope = HubEnvelope;
export type Principal = HubEnvelope['sender'];

/** What the caller of sign() supplies; the signer adds v, iat, exp, kid and sig. */
export type EnvelopeFields = Pick<
  Envelope,
  'sender' | 'recipient' | 'taskId' | 'contextId' | 'messageId'
>;

/**
 * `params` without any caller-supplied `x-hub` (decisions.md §4: it is discarded, never trusted);
 * a new object, the input is left as it is.
 */
export function stripCallerEnvelope<T>(params: T): T {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return params;
  if (!Object.prototype.hasOwnProperty.call(params, ENVELOPE_PARAM)) return params;
  const { [ENVELOPE_PARAM]: _discarded, ...rest } = params as Record<string, unknown>;
  return rest as T;
}

/** `params` with the hub's envelope attached (after stripping any the caller sent). */
export function attachEnvelope<T extends object>(
  params: T,
  envelope: Envelope
): T & { 'x-hub': Envelope } {
  return { ...stripCallerEnvelope(params), [ENVELOPE_PARAM]: envelope };
}
