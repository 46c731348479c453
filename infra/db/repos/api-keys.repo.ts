// API keys: who a key belongs to (the Principal), issuing, rotating and revoking. Only the hash of
// a key is stored; the key itself is returned once, at issue (decisions.md §5).
import { agentNotFound, tenantNotFound } from './not-found.js';
import { HubError } from '../../../runtime/errors/index.js';
import { newApiKey, newKeyId } from './keys.js';
import {
  firstRow,
  inTransaction,
  isForeignKeyViolation,
  isUniqueViolation,
  type Queryable,
} from './sql.js';

/** What a key may be used for (issue 28): A2A messaging, directory queries, settings and keys. */
export const KeyScopes = ['messages', 'discovery', 'manage'] as const;
export type KeyScope = (typeof KeyScopes)[number];

/** What the key a principal came from says about itself; absent fields: every scope, no expiry. */
interface KeyFacts {
  readonly keyId?: string;
  readonly keyName?: string | null;
  /** Absent: every scope (keys issued before scopes existed, admin keys). */
  readonly scopes?: readonly KeyScope[];
  /** Epoch ms after which the key stops working; absent or null: never. */
  readonly expiresAt?: number | null;
}

/** Who is calling: an agent (its own key) or a tenant administrator (a tenant admin key). */
export type Principal =
  | ({ readonly kind: 'agent'; readonly agentId: string; readonly tenantId: string } & KeyFacts)
  | ({ readonly kind: 'admin'; readonly tenantId: string } & KeyFacts);

/** Whether the principal's key carries `scope`. */
export function hasScope(p: Principal, scope: KeyScope): boolean {
  return p.scopes === undefined || p.scopes.includes(scope);
}

/** A named key of an agent as listings show it (never the key or its hash). */
export interface AgentKey {
  readonly keyId: string;
  readonly name: string | null;
  readonly prefix: string;
  readonly scopes: KeyScope[];
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
}

export interface NamedKeyInput {
  readonly name: string;
  readonly scopes: readonly KeyScope[];
  readonly expiresAt: Date | null;
}

export interface IssuedKey {
  /** The API key: show it to its owner now, it cannot be recovered later. */
  readonly key: string;
  readonly keyId: string;
  readonly prefix: string;
}

export interface RotatedKey extends IssuedKey {
  /** Hashes of the keys this rotation revoked: broadcast them so caches drop them. */
  readonly revokedKeyHashes: string[];
}

/**
 * The principal of an active key, or null. Revoked keys and keys of deleted agents match nothing.
 * This is the authenticator's only query: one probe of the unique key_hash index.
 */
export async function findPrincipalByKeyHash(
  sql: Queryable,
  keyHash: string
): Promise<Principal | null> {
  const [row] = await sql<
    {
      tenantId: string;
      agentId: string | null;
      keyId: string;
      name: string | null;
      scopes: KeyScope[];
      expiresAt: Date | null;
    }[]
  >`
    select coalesce(a.tenant_id, k.tenant_id) as tenant_id, k.agent_id, k.id as key_id, k.name,
      k.scopes, k.expires_at
    from api_keys k
    left join agents a on a.id = k.agent_id
    where k.key_hash = ${keyHash}
      and k.revoked_at is null
      and (k.expires_at is null or k.expires_at > now())
      and (k.agent_id is null or (a.id is not null and a.deleted_at is null))`;
  if (!row) return null;
  // Rows of a database before 0024 (or a test's stand-in) may lack the columns: every scope.
  const facts: KeyFacts = {
    ...(row.keyId ? { keyId: row.keyId } : {}),
    ...(row.name ? { keyName: row.name } : {}),
    ...(row.scopes ? { scopes: row.scopes } : {}),
    ...(row.expiresAt ? { expiresAt: row.expiresAt.getTime() } : {}),
  };
  return row.agentId === null
    ? { kind: 'admin', tenantId: row.tenantId, ...facts }
    : { kind: 'agent', agentId: row.agentId, tenantId: row.tenantId, ...facts };
}

/**
 * Issue a named key for a live agent of `tenantId`. AGENT_NOT_FOUND when there is none; CONFLICT
 * (field `name`) when a live key of the agent has that name.
 */
export async function issueNamedKey(
  sql: Queryable,
  owner: { tenantId: string; agentId: string },
  input: NamedKeyInput
): Promise<IssuedKey & AgentKey> {
  const { key, hash, prefix } = newApiKey();
  try {
    const [row] = await sql<{ id: string; createdAt: Date }[]>`
      insert into api_keys (id, tenant_id, agent_id, key_hash, prefix, name, scopes, expires_at)
      select ${newKeyId()}, a.tenant_id, a.id, ${hash}, ${prefix}, ${input.name},
        ${sql.array([...input.scopes])}::text[], ${input.expiresAt}
      from agents a
      where a.id = ${owner.agentId} and a.tenant_id = ${owner.tenantId} and a.deleted_at is null
      returning id, created_at`;
    if (!row) throw agentNotFound(owner.agentId);
    return {
      key,
      keyId: row.id,
      prefix,
      name: input.name,
      scopes: [...input.scopes],
      createdAt: row.createdAt,
      expiresAt: input.expiresAt,
    };
  } catch (err) {
    if (isUniqueViolation(err, 'api_keys_agent_name_key')) {
      throw new HubError('CONFLICT', `the agent already has a key named "${input.name}"`, {
        data: { field: 'name' },
      });
    }
    throw err;
  }
}

/** The agent's live keys (not revoked; expired ones included, marked by expiresAt), oldest first. */
export function listAgentKeys(sql: Queryable, agentId: string): Promise<AgentKey[]> {
  return sql<AgentKey[]>`
    select id as key_id, name, prefix, scopes, created_at, expires_at from api_keys
    where agent_id = ${agentId} and revoked_at is null
    order by created_at, id`;
}

/** Revoke one key of an agent. Resolves with its hash (to broadcast), or null if none was live. */
export async function revokeAgentKey(
  sql: Queryable,
  agentId: string,
  keyId: string
): Promise<string | null> {
  const [row] = await sql<{ keyHash: string }[]>`
    update api_keys set revoked_at = now()
    where id = ${keyId} and agent_id = ${agentId} and revoked_at is null
    returning key_hash`;
  return row?.keyHash ?? null;
}

/**
 * Of these agent key hashes, the ones still active (not revoked, agent not deleted): the periodic
 * re-check of open WebSockets, one query for many sockets.
 */
export async function activeAgentKeyHashes(
  sql: Queryable,
  keyHashes: readonly string[]
): Promise<Set<string>> {
  if (keyHashes.length === 0) return new Set();
  const rows = await sql<{ keyHash: string }[]>`
    select k.key_hash
    from api_keys k
    join agents a on a.id = k.agent_id
    where k.key_hash = any(${sql.array([...keyHashes])}::text[])
      and k.revoked_at is null
      and (k.expires_at is null or k.expires_at > now())
      and a.deleted_at is null`;
  return new Set(rows.map((r) => r.keyHash));
}

/** Store a new key for `agentId` (or a tenant admin key when agentId is null). */
export async function insertApiKey(
  sql: Queryable,
  owner: { tenantId: string; agentId: string | null }
): Promise<IssuedKey> {
  const { key, hash, prefix } = newApiKey();
  const rows = await sql<{ id: string }[]>`
    insert into api_keys (id, tenant_id, agent_id, key_hash, prefix)
    values (${newKeyId()}, ${owner.tenantId}, ${owner.agentId}, ${hash}, ${prefix})
    returning id`;
  return { key, keyId: firstRow(rows, 'insert into api_keys').id, prefix };
}

/** A new tenant admin key. Throws NOT_FOUND when the tenant does not exist. */
export async function issueAdminKey(sql: Queryable, tenantId: string): Promise<IssuedKey> {
  try {
    // A savepoint inside a caller's transaction, so a missing tenant leaves it usable.
    return await inTransaction(sql, (tx) => insertApiKey(tx, { tenantId, agentId: null }));
  } catch (err) {
    if (isForeignKeyViolation(err, 'api_keys_tenant_id_fkey')) {
      throw tenantNotFound(tenantId);
    }
    throw err;
  }
}

/**
 * Revoke every active key of the agent and issue a new one, atomically. Throws AGENT_NOT_FOUND
 * when the agent does not exist or is deleted.
 */
export async function rotateAgentKey(sql: Queryable, agentId: string): Promise<RotatedKey> {
  return inTransaction(sql, async (tx) => {
    // The row lock serializes two rotations of one agent: exactly one new key survives.
    const [agent] = await tx<{ tenantId: string }[]>`
      select tenant_id from agents where id = ${agentId} and deleted_at is null for update`;
    if (!agent) throw agentNotFound(agentId);
    const revokedKeyHashes = await revokeAgentKeys(tx, agentId);
    const issued = await insertApiKey(tx, { tenantId: agent.tenantId, agentId });
    return { ...issued, revokedKeyHashes };
  });
}

/** Revoke one key by its id. Resolves with its hash (to broadcast), or null if it was not active. */
export async function revokeKey(
  sql: Queryable,
  keyId: string
): Promise<{ keyHash: string; agentId: string | null } | null> {
  const [row] = await sql<{ keyHash: string; agentId: string | null }[]>`
    update api_keys set revoked_at = now()
    where id = ${keyId} and revoked_at is null
    returning key_hash, agent_id`;
  return row ?? null;
}

/** Revoke every active key of an agent; resolves with their hashes. */
export async function revokeAgentKeys(sql: Queryable, agentId: string): Promise<string[]> {
  const rows = await sql<{ keyHash: string }[]>`
    update api_keys set revoked_at = now()
    where agent_id = ${agentId} and revoked_at is null
    returning key_hash`;
  return rows.map((r) => r.keyHash);
}
