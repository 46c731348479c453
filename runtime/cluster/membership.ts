// Cluster membership through heartbeats: each node puts its record in the HUB_NODES bucket every
// heartbeat; a node is live while its record is younger than the node TTL. Plain puts, no CAS
// (KV compare-and-swap is not exact on replicated 2.9.10 streams).
import type { KV } from '@nats-io/kv';
import type { Logger } from '../log/index.js';
import { nodeKey, encodeJson, decodeJson, type Bus, buckets } from '../bus/index.js';

export interface NodeRecord {
  nodeId: string;
  publicUrl: string;
  startedAt: number;
  draining: boolean;
}

export interface MembershipOptions {
  bus: Bus;
  self: Omit<NodeRecord, 'draining'>;
  heartbeatMs: number;
  nodeTtlMs: number;
  log: Logger;
  now?: () => number;
}

export class Membership {
  private kv!: KV;
  private readonly seen = new Map<string, { record: NodeRecord; at: number }>();
  private timer: NodeJS.Timeout | undefined;
  private draining = false;
  private stopped = false;
  private watchStop: (() => void) | undefined;
  private readonly listeners: Array<() => void> = [];
  private readonly now: () => number;

  constructor(private readonly opts: MembershipOptions) {
    this.now = opts.now ?? Date.now;
  }

  async start(): Promise<void> {
    this.kv = await this.opts.bus.kvm.open(buckets.nodes);
    await this.beat();
    const iter = await this.kv.watch({ key: 'node.*' });
    this.watchStop = () => iter.stop();
    void (async () => {
      for await (const e of iter) {
        const id = e.key.slice('node.'.length);
        if (e.operation === 'DEL' || e.operation === 'PURGE') this.seen.delete(id);
        else {
          try {
            this.seen.set(id, { record: decodeJson<NodeRecord>(e.value), at: e.created.getTime() });
          } catch (err) {
            this.opts.log.warn({ err, key: e.key }, 'ignoring unreadable node record');
          }
        }
        this.changed();
      }
    })();
    this.timer = setInterval(() => void this.tick(), this.opts.heartbeatMs);
  }

  /** Live members, sorted; draining nodes are excluded so partitions move off them. */
  liveNodeIds(): string[] {
    const cutoff = this.now() - this.opts.nodeTtlMs;
    const out: string[] = [];
    for (const [id, { record, at }] of this.seen) {
      if (at >= cutoff && !record.draining) out.push(id);
    }
    if (!this.draining && !this.stopped && !out.includes(this.opts.self.nodeId)) {
      out.push(this.opts.self.nodeId);
    }
    return out.sort();
  }

  members(): Array<NodeRecord & { lastSeenMs: number }> {
    const now = this.now();
    return [...this.seen.values()]
      .map(({ record, at }) => ({ ...record, lastSeenMs: now - at }))
      .sort((a, b) => a.nodeId.localeCompare(b.nodeId));
  }

  onChange(fn: () => void): void {
    this.listeners.push(fn);
  }

  /** Announce that this node is leaving so others take its partitions without waiting for the TTL. */
  async drain(): Promise<void> {
    this.draining = true;
    await this.beat().catch(() => undefined);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.watchStop?.();
    await this.kv?.delete(nodeKey(this.opts.self.nodeId)).catch(() => undefined);
  }

  private async tick(): Promise<void> {
    try {
      await this.beat();
    } catch (err) {
      this.opts.log.warn({ err }, 'heartbeat failed');
    }
    // Expiry produces no watch event, so ageing out is noticed on the tick.
    this.changed();
  }

  private async beat(): Promise<void> {
    if (this.stopped) return;
    const rec: NodeRecord = { ...this.opts.self, draining: this.draining };
    await this.kv.put(nodeKey(rec.nodeId), encodeJson(rec));
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
  }
}
