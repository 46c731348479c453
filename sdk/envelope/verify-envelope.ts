// Verifying the hub-signed `x-hub` envelope (decisions.md §4), exactly as the hub signs it: an
// Ed25519 signature (base64url) over the RFC 8785 canonical JSON of the envelope's fields without
// `sig`, by the key the JWKS publishes under `kid`; then iat/exp with a clock-skew allowance. The
// parsing and the checks are the contract's (../contract), the same code the hub runs.
import {
  DEFAULT_CLOCK_SKEW_SECONDS,
  envelopeProblem,
  parseEnvelope,
  signingInput,
  type EnvelopeRejection,
  type HubEnvelope,
} from '../contract/index.js';
import { HubKeys, type HubKeysOptions } from './hub-keys.js';

export { EnvelopeRejections, DEFAULT_CLOCK_SKEW_SECONDS } from '../contract/index.js';
export type { EnvelopeRejection } from '../contract/index.js';

export type EnvelopeCheck =
  { ok: true; envelope: HubEnvelope } | { ok: false; reason: EnvelopeRejection; detail?: string };

export interface EnvelopeVerifierOptions extends HubKeysOptions {
  /** Allowance for clocks that disagree, in seconds; default 60 (the hub's own verifier's). */
  clockSkewSeconds?: number;
}

/** Thrown by `EnvelopeVerifier.assert` (and refused deliveries name it). */
export class EnvelopeVerificationError extends Error {
  constructor(
    readonly reason: EnvelopeRejection,
    detail?: string
  ) {
    super(`envelope verification failed: ${reason}${detail ? ` (${detail})` : ''}`);
    this.name = 'EnvelopeVerificationError';
  }
}

export class EnvelopeVerifier {
  readonly keys: HubKeys;
  readonly #skew: number;
  readonly #now: () => number;

  constructor(opts: EnvelopeVerifierOptions) {
    this.keys = new HubKeys(opts);
    this.#skew = opts.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS;
    this.#now = opts.now ?? Date.now;
  }

  /** Checks an envelope as received; never throws. */
  async verify(raw: unknown): Promise<EnvelopeCheck> {
    if (raw === undefined || raw === null) return { ok: false, reason: 'missing' };
    const envelope = parseEnvelope(raw);
    if (!envelope) return { ok: false, reason: 'malformed' };
    let key;
    try {
      key = await this.keys.key(envelope.kid);
    } catch (err) {
      return { ok: false, reason: 'keys_unavailable', detail: (err as Error).message };
    }
    if (!key) return { ok: false, reason: 'unknown_kid' };
    const problem = envelopeProblem(envelope, key, this.#now(), this.#skew);
    return problem ? { ok: false, reason: problem } : { ok: true, envelope };
  }

  /** The verified envelope, or an EnvelopeVerificationError naming why it was refused. */
  async assert(raw: unknown): Promise<HubEnvelope> {
    const r = await this.verify(raw);
    if (!r.ok) throw new EnvelopeVerificationError(r.reason, r.detail);
    return r.envelope;
  }
}

/** The bytes the hub signs: RFC 8785 JSON of the known fields but `sig`. */
export function signedBytes(e: Omit<HubEnvelope, 'sig'>): Buffer {
  return signingInput(e);
}
