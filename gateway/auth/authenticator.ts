// API-key authentication for every request: Bearer header → Principal, with a bounded TTL cache
// keyed by key hash so the hot path costs one hash and one Map probe (decisions.md §5, §6).
// Revocation reaches the cache through invalidateKeyHash/invalidateAgent (NATS broadcasts).
import {
  API_KEY_PATTERN,
  findPrincipalByKeyHash,
  hashApiKey,
  type Principal,
  type Queryable,
} from '../../infra/db/index.js';
import { UnauthenticatedError, UnavailableError } from '../../runtime/errors/index.js';
import type { Logger } from '../../runtime/log/index.js';
import type { RequestScope } from '../http/index.js';
import { bearerToken } from './bearer-token.js';

export interface AuthenticatorOptions {
  sql: Queryable;
  log: Logger;
  /** How long a found principal is trusted without asking the database again. */
  cacheTtlMs?: number;
  /** How long an unknown key is remembered as unknown. */
  negativeTtlMs?: number;
  /** Cap of each cache (found and unknown keys); the oldest entries go first. */
  maxEntries?: number;
}

export interface Authenticator {
  /**
   * The caller's principal; throws UnauthenticatedError (missing, malformed or unknown key).
   * `scope` is the request's (reply headers, client address) for wrappers that use it (rate limits).
   */
  authenticate(authorizationHeader: string | undefined, scope?: RequestScope): Promise<Principal>;
  /**
   * What this node knows without asking the database: the principal of a cached key, null for a
   * header that is refused for sure (missing, malformed, a key remembered as unknown), undefined
   * when only the database can tell.
   */
  known(authorizationHeader: string | undefined): Principal | null | undefined;
  /**
   * The hash of the key a principal this authenticator returned was found under (the rate limit
   * counts per key), so that it is not hashed a second time; undefined for any other object.
   */
  keyHashOf?(principal: Principal): string | undefined;
  /** Drop cached principals of this agent (its keys were rotated, or it was deleted). */
  invalidateAgent(agentId: string): void;
  /** Drop one cached key (revoked), by its hash. */
  invalidateKeyHash(keyHash: string): void;
  /** Forget everything; later calls query the database again. */
  close(): void;
}

interface Entry {
  readonly principal: Principal;
  readonly expiresAt: number;
}

const DEFAULTS = { cacheTtlMs: 30_000, negativeTtlMs: 5_000, maxEntries: 100_000 } as const;

export function createAuthenticator(opts: AuthenticatorOptions): Authenticator {
  const { sql, log } = opts;
  const cacheTtlMs = opts.cacheTtlMs ?? DEFAULTS.cacheTtlMs;
  const negativeTtlMs = opts.negativeTtlMs ?? DEFAULTS.negativeTtlMs;
  const maxEntries = Math.max(1, opts.maxEntries ?? DEFAULTS.maxEntries);

  // Maps iterate in insertion order, so the first key is the oldest: a cheap FIFO eviction.
  const found = new Map<string, Entry>();
  // Unknown keys live apart, so a flood of made-up keys cannot evict real principals.
  const unknown = new Map<string, number>();
  // One database query per hash at a time; everyone asking meanwhile awaits the same promise.
  const inflight = new Map<string, Promise<Principal | null>>();
  // Each principal looked up, to the hash it was found under (one object per look-up).
  const hashes = new WeakMap<Principal, string>();
  // Bumped by every invalidation: a look-up that began before one must not cache its answer,
  // since it may have read the key just before it was revoked.
  let generation = 0;

  const put = <V>(map: Map<string, V>, key: string, value: V): void => {
    map.delete(key);
    if (map.size >= maxEntries) {
      const oldest = map.keys().next();
      if (!oldest.done) map.delete(oldest.value);
    }
    map.set(key, value);
  };

  const lookUp = (hash: string): Promise<Principal | null> => {
    const started = generation;
    const query = findPrincipalByKeyHash(sql, hash).then(
      (principal) => {
        if (principal) hashes.set(principal, hash);
        if (generation === started) {
          if (principal) {
            // A key that expires sooner than the cache would trust it is dropped at its expiry.
            put(found, hash, {
              principal: Object.freeze(principal),
              expiresAt: Math.min(Date.now() + cacheTtlMs, principal.expiresAt ?? Infinity),
            });
          } else {
            put(unknown, hash, Date.now() + negativeTtlMs);
          }
        }
        if (inflight.get(hash) === query) inflight.delete(hash);
        return principal;
      },
      (err: unknown) => {
        if (inflight.get(hash) === query) inflight.delete(hash);
        // Not the caller's fault: a 503, never a 401 that would make clients drop a good key.
        throw new UnavailableError('cannot check the API key: the database is unavailable', err);
      }
    );
    inflight.set(hash, query);
    return query;
  };

  /** The key's hash, or the reason the header cannot hold one of our keys. */
  const hashOf = (header: string | undefined): string | UnauthenticatedError => {
    if (header === undefined || header === '') {
      return new UnauthenticatedError('missing Authorization header');
    }
    const key = bearerToken(header);
    if (key === undefined) {
      return new UnauthenticatedError(
        'malformed Authorization header: expected "Bearer <API key>"'
      );
    }
    // Not the shape of any key we issue: no hashing, no cache entry, no query.
    if (!API_KEY_PATTERN.test(key)) return new UnauthenticatedError('unknown API key');
    return hashApiKey(key);
  };

  /** The cached answer for a hash: a principal, false (known unknown), or undefined (ask). */
  const fromCache = (hash: string): Principal | false | undefined => {
    const now = Date.now();
    const hit = found.get(hash);
    if (hit !== undefined) {
      if (hit.expiresAt > now) return hit.principal;
      found.delete(hash);
    }
    const miss = unknown.get(hash);
    if (miss !== undefined) {
      if (miss > now) return false;
      unknown.delete(hash);
    }
    return undefined;
  };

  return {
    async authenticate(header) {
      const hash = hashOf(header);
      if (typeof hash !== 'string') throw hash;
      const cached = fromCache(hash);
      if (cached === false) throw new UnauthenticatedError('unknown API key');
      if (cached !== undefined) return cached;
      const principal = await (inflight.get(hash) ?? lookUp(hash));
      if (principal === null) throw new UnauthenticatedError('unknown API key');
      return principal;
    },

    keyHashOf: (principal) => hashes.get(principal),

    known(header) {
      const hash = hashOf(header);
      if (typeof hash !== 'string') return null;
      const cached = fromCache(hash);
      return cached === false ? null : cached;
    },

    invalidateAgent(agentId) {
      generation++;
      // A rare event against up to maxEntries entries: a scan beats keeping a second index.
      for (const [hash, entry] of found) {
        if (entry.principal.kind === 'agent' && entry.principal.agentId === agentId) {
          found.delete(hash);
        }
      }
      inflight.clear();
    },

    invalidateKeyHash(keyHash) {
      generation++;
      found.delete(keyHash);
      unknown.delete(keyHash);
      inflight.delete(keyHash);
    },

    close() {
      generation++;
      found.clear();
      unknown.clear();
      inflight.clear();
      log.debug('authenticator cache cleared');
    },
  };
}
