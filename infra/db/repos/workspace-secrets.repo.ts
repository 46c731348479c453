// A workspace's secrets (issue 28 item 1, migration 0023). Only ciphertext passes through here:
// encryption and decryption happen in the gateway (gateway/workspaces/secret-box.ts) with the
// key from the configuration, which the database never sees.
import { type Queryable } from './sql.js';

export interface SealedSecret {
  readonly keyId: string;
  readonly iv: Buffer;
  readonly ciphertext: Buffer;
  readonly authTag: Buffer;
}

export interface SecretEntry {
  readonly name: string;
  readonly updatedBy: string;
  readonly updatedAt: Date;
}

export interface StoredSecret extends SealedSecret, SecretEntry {}

export async function putWorkspaceSecret(
  sql: Queryable,
  workspaceId: string,
  name: string,
  sealed: SealedSecret,
  by: string
): Promise<SecretEntry> {
  const rows = await sql<SecretEntry[]>`
    insert into workspace_secrets (workspace_id, name, key_id, iv, ciphertext, auth_tag, updated_by)
    values (${workspaceId}, ${name}, ${sealed.keyId}, ${sealed.iv}, ${sealed.ciphertext},
            ${sealed.authTag}, ${by})
    on conflict (workspace_id, name) do update set
      key_id = excluded.key_id, iv = excluded.iv, ciphertext = excluded.ciphertext,
      auth_tag = excluded.auth_tag, updated_by = excluded.updated_by, updated_at = now()
    returning name, updated_by, updated_at`;
  return rows[0]!;
}

export async function getWorkspaceSecret(
  sql: Queryable,
  workspaceId: string,
  name: string
): Promise<StoredSecret | null> {
  const rows = await sql<StoredSecret[]>`
    select name, key_id, iv, ciphertext, auth_tag, updated_by, updated_at
    from workspace_secrets where workspace_id = ${workspaceId} and name = ${name}`;
  return rows[0] ?? null;
}

export async function deleteWorkspaceSecret(
  sql: Queryable,
  workspaceId: string,
  name: string
): Promise<boolean> {
  const r = await sql`
    delete from workspace_secrets where workspace_id = ${workspaceId} and name = ${name}`;
  return r.count > 0;
}

/** The secrets' names and who last set them; never their values. */
export async function listWorkspaceSecrets(
  sql: Queryable,
  workspaceId: string
): Promise<SecretEntry[]> {
  return sql<SecretEntry[]>`
    select name, updated_by, updated_at from workspace_secrets
    where workspace_id = ${workspaceId} order by name`;
}
