// The hub's public signing keys (decisions.md §4), fetched from `{hub}/.well-known/hub-keys.json`
// and cached. A kid the cache does not hold triggers a refresh (the hub rotated its key), at most
// once per `minRefreshIntervalMs`, so a stream of made-up kids cannot turn into a stream of fetches.
import type { KeyObject } from 'node:crypto';
import { importEd25519Jwk, isJwks, type HubJwks } from '../contract/index.js';

export type { HubJwks } from '../contract/index.js';

export interface HubKeysOptions {
  /** The hub's base URL (http or https; a ws/wss URL or one ending in /ws is accepted too). */
  hubUrl?: string;
  /** Keys to start from (or the only keys, without hubUrl). */
  jwks?: HubJwks;
  /** Refetch after this long even when every kid is known; default 1 hour. */
  maxAgeMs?: number;
  /** The shortest gap between two refreshes caused by an unknown kid; default 30 s. */
  minRefreshIntervalMs?: number;
  fetch?: typeof fetch;
  /** epoch ms; for tests */
  now?: () => number;
}

export const DEFAULT_KEYS_MAX_AGE_MS = 60 * 60 * 1000;
export const DEFAULT_MIN_REFRESH_INTERVAL_MS = 30_000;

/** Where the hub publishes its keys, from any URL the SDK is given for the hub. */
export function hubKeysUrl(hubUrl: string): string {
  const u = new URL(hubUrl);
  if (u.protocol === 'ws:') u.protocol = 'http:';
  if (u.protocol === 'wss:') u.protocol = 'https:';
  const path = u.pathname.replace(/\/ws\/?$/, '').replace(/\/+$/, '');
  return `${u.origin}${path}/.well-known/hub-keys.json`;
}

export class HubKeys {
  readonly #url: string | undefined;
  readonly #fetch: typeof fetch;
  readonly #now: () => number;
  readonly #maxAgeMs: number;
  readonly #minRefreshMs: number;
  #keys = new Map<string, KeyObject>();
  /** When the keys were last fetched (or given); -Infinity: never. */
  #fetchedAt = -Infinity;
  #inFlight: Promise<void> | undefined;
  /** Why the last fetch failed, while no fetch has succeeded since. */
  #lastError: Error | undefined;
  #fetches = 0;

  constructor(opts: HubKeysOptions) {
    if (!opts.hubUrl && !opts.jwks) {
      throw new Error('HubKeys needs hubUrl (to fetch /.well-known/hub-keys.json) or jwks');
    }
    this.#url = opts.hubUrl ? hubKeysUrl(opts.hubUrl) : undefined;
    this.#fetch = opts.fetch ?? fetch;
    this.#now = opts.now ?? Date.now;
    this.#maxAgeMs = opts.maxAgeMs ?? DEFAULT_KEYS_MAX_AGE_MS;
    this.#minRefreshMs = opts.minRefreshIntervalMs ?? DEFAULT_MIN_REFRESH_INTERVAL_MS;
    if (opts.jwks) {
      this.#keys = importJwks(opts.jwks);
      // Given keys count as fresh only when there is nowhere to refresh them from.
      if (!this.#url) this.#fetchedAt = Infinity;
    }
  }

  /** How many times the JWKS was fetched (for monitoring and tests). */
  get fetches(): number {
    return this.#fetches;
  }

  /**
   * The public key for `kid`, or null when the hub does not publish it. Fetches when the cache is
   * empty or older than maxAgeMs, and once more for an unknown kid unless a fetch was recent.
   * Throws when the JWKS cannot be fetched and no key is known.
   */
  async key(kid: string): Promise<KeyObject | null> {
    // A fetch under way decides for every caller: none of them may see the half-empty cache.
    if (this.#inFlight) await this.#inFlight.catch(() => undefined);
    const age = this.#now() - this.#fetchedAt;
    if (this.#url && age >= this.#maxAgeMs) await this.#refreshOrKeep();
    const known = this.#keys.get(kid);
    if (known) return known;
    if (!this.#url || this.#now() - this.#fetchedAt < this.#minRefreshMs) {
      if (this.#keys.size === 0 && this.#lastError) throw this.#lastError;
      return null;
    }
    await this.#refresh();
    return this.#keys.get(kid) ?? null;
  }

  /** Fetch now, whatever the cache holds (one fetch at a time). */
  refresh(): Promise<void> {
    return this.#refresh();
  }

  async #refreshOrKeep(): Promise<void> {
    try {
      await this.#refresh();
    } catch (err) {
      // A stale cache still verifies signatures of keys that were valid; without one, fail.
      if (this.#keys.size === 0) throw err;
    }
  }

  #refresh(): Promise<void> {
    this.#inFlight ??= this.#load().finally(() => (this.#inFlight = undefined));
    return this.#inFlight;
  }

  async #load(): Promise<void> {
    const url = this.#url;
    if (!url) return;
    this.#fetches++;
    // Counted as an attempt either way, so a hub that is down is not asked on every message.
    this.#fetchedAt = this.#now();
    try {
      const res = await this.#fetch(url, { headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`fetching the hub's keys from ${url}: HTTP ${res.status}`);
      const body = await res.json();
      if (!isJwks(body)) throw new Error(`${url} did not answer with a JWKS ({"keys":[…]})`);
      this.#keys = importJwks(body);
      this.#lastError = undefined;
    } catch (err) {
      this.#lastError =
        err instanceof Error && err.message.includes(url)
          ? err
          : new Error(`fetching the hub's keys from ${url}: ${(err as Error).message}`);
      throw this.#lastError;
    }
  }
}

function importJwks(jwks: HubJwks): Map<string, KeyObject> {
  const out = new Map<string, KeyObject>();
  for (const k of jwks.keys) {
    // An unusable entry is skipped; the others still verify.
    const key = importEd25519Jwk(k);
    if (key) out.set((k as { kid: string }).kid, key);
  }
  return out;
}
