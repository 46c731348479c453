// Secrets and ids minted by the identity repos: API keys (shown once, stored as a hash), webhook
// secrets, tenant/agent/key ids (decisions.md §5, §7).
import { createHash, randomBytes } from 'node:crypto';

/** Every API key starts with this, so leaked keys are easy to recognise (and to grep for). */
export const API_KEY_PREFIX = 'bk_';
/** `bk_` + base64url of 32 bytes (43 characters). */
export const API_KEY_PATTERN = /^bk_[A-Za-z0-9_-]{43}$/;
/** How many leading characters of a key are kept in clear to tell keys apart in listings. */
export const API_KEY_PREFIX_LENGTH = 10;

export interface NewApiKey {
  /** The key itself: handed to the caller once, never stored. */
  readonly key: string;
  /** What is stored and looked up: hashApiKey(key). */
  readonly hash: string;
  /** The first characters of the key, stored in clear. */
  readonly prefix: string;
}

/** A fresh API key with its hash and display prefix. */
export function newApiKey(): NewApiKey {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, API_KEY_PREFIX_LENGTH) };
}

/**
 * The stored form of an API key: SHA-256, hex. A slow password hash (scrypt, argon2) protects
 * low-entropy secrets against guessing; a key of 256 random bits cannot be guessed, so a fast
 * unsalted hash is just as safe and lets the hot path look keys up by hash in one index probe.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The secret the hub presents to an HTTP agent as `Authorization: Bearer <secret>`. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** `agent-<12 hex>` (decisions.md §7). */
export function newAgentId(): string {
  return `agent-${randomBytes(6).toString('hex')}`;
}

/** `ten-<12 hex>`. */
export function newTenantId(): string {
  return `ten-${randomBytes(6).toString('hex')}`;
}

/** `key-<16 hex>`: names a key row without revealing anything about the key. */
export function newKeyId(): string {
  return `key-${randomBytes(8).toString('hex')}`;
}
