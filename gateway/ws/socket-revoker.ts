// Ends agent sockets whose API key stops being valid (key rotated, agent deleted). HTTP meets a
// revoked key at once because the broadcasts (hub.directory.key.revoked from the CLI,
// hub.directory.agent.<id> from the API and the CLI) drop it from every node's auth cache; a socket
// checked its key once, at connect, so the same broadcasts make each node check the sockets it
// holds and close those whose key is gone: close code 4401 after an `auth_error` frame. A
// periodic sweep catches revocations whose broadcast never came (the CLI could not reach NATS).
import {
  activeAgentKeyHashes,
  findPrincipalByKeyHash,
  type Queryable,
} from '../../infra/db/index.js';
import type { Logger } from '../../runtime/log/index.js';
import type { ConnectionRegistry } from '../../actors/index.js';
import { UwsAgentConnection } from './agent-connection.js';

const REVOKED = 'API key revoked';
/** Keys per sweep query. */
const SWEEP_BATCH = 1000;

export class SocketRevoker {
  /**
   * Bumped by every broadcast. A key check that spans one may have read the key just before it was
   * revoked, so the socket it admits is checked again (see `checkedSince`).
   */
  private generation = 0;
  private timer: NodeJS.Timeout | undefined;
  private sweeping = false;

  constructor(
    private readonly conns: ConnectionRegistry,
    private readonly sql: Queryable,
    private readonly log: Logger
  ) {}

  /** A mark to pass to `checkedSince` once the key check that starts now is done. */
  mark(): number {
    return this.generation;
  }

  /** Re-check `conn` if a broadcast arrived since `mark`. */
  checkedSince(mark: number, conn: UwsAgentConnection): void {
    if (mark !== this.generation) this.recheck(conn);
  }

  /** A key was revoked (by its hash): the sockets opened with it close without a query. */
  keyRevoked(keyHash: string): void {
    this.generation++;
    // A rare event: a scan of this node's sockets beats keeping an index by key.
    for (const conn of this.conns.all()) {
      if (conn instanceof UwsAgentConnection && conn.keyHash === keyHash) conn.revoke(REVOKED);
    }
  }

  /**
   * Something about the agent changed: its keys rotated, it was deleted, or only its card or
   * settings (the broadcast does not say which), so the database decides.
   */
  agentChanged(agentId: string): void {
    this.generation++;
    const conn = this.conns.get(agentId);
    if (conn instanceof UwsAgentConnection) this.recheck(conn);
  }

  /** Sweep every `everyMs`. */
  start(everyMs: number): void {
    this.timer ??= setInterval(() => void this.sweep(), everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Checks the key of every socket this node holds, a batch per query; closes the revoked. */
  async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      const open: UwsAgentConnection[] = [];
      for (const c of this.conns.all()) if (c instanceof UwsAgentConnection) open.push(c);
      for (let i = 0; i < open.length; i += SWEEP_BATCH) {
        const batch = open.slice(i, i + SWEEP_BATCH);
        const active = await activeAgentKeyHashes(
          this.sql,
          batch.map((c) => c.keyHash)
        );
        for (const c of batch) if (!active.has(c.keyHash)) c.revoke(REVOKED);
      }
    } catch (err) {
      this.log.warn({ err }, 'cannot re-check socket keys; kept open until the next sweep');
    } finally {
      this.sweeping = false;
    }
  }

  private recheck(conn: UwsAgentConnection): void {
    findPrincipalByKeyHash(this.sql, conn.keyHash).then(
      (p) => {
        if (p?.kind !== 'agent' || p.agentId !== conn.agentId) conn.revoke(REVOKED);
      },
      // The key may well still be valid: a socket is not ended on a database outage.
      (err: unknown) =>
        this.log.warn({ err, agentId: conn.agentId }, 'cannot re-check a socket key; kept open')
    );
  }
}
