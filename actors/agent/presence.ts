// Where each WebSocket agent is connected, cluster-wide. The KV bucket HUB_PRESENCE maps
// agent.<agentId> to {nodeId, connId}; every node watches it into memory so routing a frame costs
// no round trip. An entry counts only while its node is a live member: a crashed node's entries are
// ignored at once and deleted by the survivors.
import type { KV } from '@nats-io/kv';
import { buckets, decodeJson, encodeJson, presenceKey, type Bus } from '../../runtime/bus/index.js';
import type { Logger } from '../../runtime/log/index.js';

/** A failed presence put is retried after this, doubling up to the longest pause. */
const PUT_RETRY_FIRST_MS = 250;
const PUT_RETRY_MAX_MS = 5_000;

export interface PresenceEntry {
  nodeId: string;
  connId: string;
  since: number;
}

export interface PresenceOptions {
  bus: Bus;
  nodeId: string;
  log: Logger;
  /** Live members (membership view); entries of other nodes are stale. */
  liveNodes: () => readonly string[];
}

export class Presence {
  private kv!: KV;
  private readonly entries = new Map<string, PresenceEntry>();
  private stopWatch: (() => void) | undefined;
  private stopped = false;
  private readonly listeners: Array<(agentId: string, entry: PresenceEntry | undefined) => void> =
    [];

  constructor(private readonly o: PresenceOptions) {}

  async start(): Promise<void> {
    this.kv = await this.o.bus.kvm.open(buckets.presence);
    const iter = await this.kv.watch({ key: 'agent.*' });
    this.stopWatch = () => iter.stop();
    let ready!: () => void;
    const initial = new Promise<void>((r) => (ready = r));
    void (async () => {
      for await (const e of iter) {
        const agentId = e.key.slice('agent.'.length);
        if (e.operation === 'DEL' || e.operation === 'PURGE') {
          this.entries.delete(agentId);
          this.emit(agentId, undefined);
        } else {
          const entry = decodeJson<PresenceEntry>(e.value);
          this.entries.set(agentId, entry);
          this.emit(agentId, entry);
        }
        if (e.delta === 0) ready();
      }
    })();
    // An empty bucket sends no initial entry; don't wait forever for one.
    await Promise.race([initial, new Promise((r) => setTimeout(r, 500))]);
    await this.forgetPreviousRun();
  }

  /**
   * Entries naming this node from before it started are a killed process's (same NODE_ID): this
   * one holds no socket yet. Its node is live again, so they would pass for connections for ever:
   * sends to those agents were pushed into nothing and queued, and their queues retried a socket
   * that did not exist. Runs before the gateway accepts a socket.
   */
  private async forgetPreviousRun(): Promise<void> {
    for (const [agentId, e] of [...this.entries]) {
      if (e.nodeId !== this.o.nodeId) continue;
      this.entries.delete(agentId);
      this.emit(agentId, undefined);
      await this.kv.delete(presenceKey(agentId)).catch((err: unknown) => {
        this.o.log.warn({ err, agentId }, 'stale presence delete failed');
      });
    }
  }

  stop(): void {
    this.stopped = true;
    this.stopWatch?.();
  }

  /** The connection holding the agent, if its node is alive. */
  where(agentId: string): PresenceEntry | undefined {
    const e = this.entries.get(agentId);
    if (!e) return undefined;
    return this.o.liveNodes().includes(e.nodeId) ? e : undefined;
  }

  isOnline(agentId: string): boolean {
    return this.where(agentId) !== undefined;
  }

  onChange(fn: (agentId: string, entry: PresenceEntry | undefined) => void): void {
    this.listeners.push(fn);
  }

  /**
   * Records the agent's socket on this node. A put that fails (the NATS server this node reaches
   * has no JetStream quorum, mid-partition) is retried while the socket is still the agent's
   * current one: a put given up left the agent offline for every other node while its socket stayed
   * open, and messages to it waited in its queue until it reconnected (the partitions fault test,
   * seed 374119235: 1,231 tasks `submitted` for good). Resolves once the entry is stored, or once
   * the socket is gone or replaced; rejects only on the first failure, to tell the caller.
   */
  async connected(agentId: string, connId: string): Promise<void> {
    const entry: PresenceEntry = { nodeId: this.o.nodeId, connId, since: Date.now() };
    this.entries.set(agentId, entry);
    try {
      await this.kv.put(presenceKey(agentId), encodeJson(entry));
    } catch (err) {
      this.retryPut(agentId, entry, 0);
      throw err;
    }
  }

  private retryPut(agentId: string, entry: PresenceEntry, tries: number): void {
    const delay = Math.min(PUT_RETRY_MAX_MS, PUT_RETRY_FIRST_MS * 2 ** tries);
    setTimeout(() => {
      // Disconnected, replaced here, or re-registered since: this entry is no longer the one to keep.
      if (this.stopped || this.entries.get(agentId) !== entry) return;
      this.kv.put(presenceKey(agentId), encodeJson(entry)).then(
        () => this.o.log.info({ agentId, tries: tries + 1 }, 'presence stored after a retry'),
        () => this.retryPut(agentId, entry, tries + 1)
      );
    }, delay).unref();
  }

  /** Removes the entry only if it is still this connection's (a newer one may have replaced it). */
  async disconnected(agentId: string, connId: string): Promise<void> {
    const current = this.entries.get(agentId);
    if (current && (current.connId !== connId || current.nodeId !== this.o.nodeId)) return;
    this.entries.delete(agentId);
    await this.kv.delete(presenceKey(agentId)).catch((err: unknown) => {
      this.o.log.warn({ err, agentId }, 'presence delete failed');
    });
  }

  /**
   * Delete from the bucket every entry of nodes that are no longer members (run by survivors after
   * a crash). The bucket is read again first: the agent may have reconnected on a live node since
   * this node's copy was taken. Only the bucket is changed here; every node's map, this one's too,
   * follows the bucket through its watch. (Deleting from the map directly diverged for good when
   * the bucket's delete then failed: in the partitions fault test a survivor forgot 8 agents whose
   * entries the bucket still held, and queued 500 messages to them until the end of the run.) An
   * entry of a node that is not live counts for nothing meanwhile (`where`); a socket holder that
   * sees its agent's entry deleted puts it back.
   */
  async sweep(): Promise<number> {
    const live = new Set(this.o.liveNodes());
    let n = 0;
    for (const [agentId, e] of [...this.entries]) {
      if (live.has(e.nodeId)) continue;
      const current = await this.kv.get(presenceKey(agentId)).catch(() => null);
      if (!current || current.operation !== 'PUT') continue;
      if (live.has(decodeJson<PresenceEntry>(current.value).nodeId)) continue;
      try {
        await this.kv.delete(presenceKey(agentId));
        n++;
      } catch {
        // Left in the bucket (and ignored while its node is not live): the next sweep tries again.
      }
    }
    return n;
  }

  private emit(agentId: string, entry: PresenceEntry | undefined): void {
    for (const fn of this.listeners) fn(agentId, entry);
  }
}
