// Workspace secrets at rest: AES-256-GCM under WORKSPACE_SECRET_KEY, a fresh 96-bit IV per value,
// the workspace id and secret name as associated data (a ciphertext moved to another workspace or
// name fails to open). The key never reaches the database or a log; only its id (a hash prefix)
// is stored, so a value sealed under another key is told apart from a damaged one.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { HubError } from '../../runtime/errors/index.js';
import type { SealedSecret } from '../../infra/db/index.js';

/** The label the development key is derived from when WORKSPACE_SECRET_KEY is unset. */
const DEV_KEY_LABEL = 'burrow development workspace secret key (set WORKSPACE_SECRET_KEY)';

export class SecretBox {
  readonly keyId: string;
  /** True when no key was configured: the development key anyone can derive is in use. */
  readonly isDevelopmentKey: boolean;
  readonly #key: Buffer;

  constructor(configured: string | undefined) {
    this.isDevelopmentKey = configured === undefined;
    this.#key =
      configured === undefined
        ? Buffer.from(hkdfSync('sha256', DEV_KEY_LABEL, 'burrow', 'workspace-secrets', 32))
        : Buffer.from(configured, /^[0-9a-fA-F]{64}$/.test(configured) ? 'hex' : 'base64');
    if (this.#key.length !== 32) throw new TypeError('a workspace secret key is 32 bytes');
    this.keyId = createHash('sha256').update(this.#key).digest('hex').slice(0, 16);
  }

  seal(workspaceId: string, name: string, value: string): SealedSecret {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(aad(workspaceId, name));
    const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return { keyId: this.keyId, iv, ciphertext, authTag: cipher.getAuthTag() };
  }

  open(workspaceId: string, name: string, sealed: SealedSecret): string {
    if (sealed.keyId !== this.keyId) {
      throw new HubError(
        'UNPROCESSABLE',
        `Secret ${name} was encrypted under another WORKSPACE_SECRET_KEY; set it again`,
        { data: { field: 'name' } }
      );
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, sealed.iv);
      decipher.setAAD(aad(workspaceId, name));
      decipher.setAuthTag(sealed.authTag);
      return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
    } catch {
      // Never the cause: it would only say "unable to authenticate data", and must not carry bytes.
      throw new HubError('UNPROCESSABLE', `Secret ${name} cannot be decrypted; set it again`, {
        data: { field: 'name' },
      });
    }
  }
}

function aad(workspaceId: string, name: string): Buffer {
  return Buffer.from(`${workspaceId}\u0000${name}`, 'utf8');
}
