// Keeps this node's owned partitions equal to what rendezvous hashing over the live members assigns
// it: acquire the lock, fence the log, activate; or deactivate and release. Reconciles run one at a
// time, on membership changes and on every tick; a lost lock or a fenced log gives a partition up.
import type { Bus } from '../bus/index.js';
import { partitionLabel } from '../bus/index.js';
import type { Logger } from '../log/index.js';
import type { HubMetrics } from '../metrics/index.js';
import { ownerOf } from './hash.js';
import type { Membership } from './membership.js';
import { PartitionLock } from './partition-lock.js';
import { PartitionLog } from './partition-log.js';

export type HandoverReason = 'rebalance' | 'fenced' | 'lock_lost' | 'shutdown' | 'error';

export interface PartitionHandler {
  /** Bring the partition's actors up from its log; requests for it may arrive as soon as this resolves. */
  activate(partition: number, label: string, log: PartitionLog): Promise<void>;
  /** Stop serving the partition: no new work, in-flight writes finished, actors stopped. */
  deactivate(partition: number, label: string, reason: HandoverReason): Promise<void>;
}

export interface PartitionManagerOptions {
  bus: Bus;
  membership: Membership;
  nodeId: string;
  partitions: number;
  lockInactiveMs: number;
  tickMs: number;
  handler: PartitionHandler;
  log: Logger;
  metrics?: HubMetrics;
}

interface Owned {
  lock: PartitionLock;
  log: PartitionLog;
  since: number;
}

export class PartitionManager {
  private readonly owned = new Map<number, Owned>();
  private readonly locks = new Map<number, PartitionLock>();
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly o: PartitionManagerOptions) {}

  start(): void {
    this.o.membership.onChange(() => this.reconcileSoon());
    this.timer = setInterval(() => this.reconcileSoon(), this.o.tickMs);
    this.reconcileSoon();
  }

  label(p: number): string {
    return partitionLabel(p, this.o.partitions);
  }

  ownedPartitions(): number[] {
    return [...this.owned.keys()].sort((a, b) => a - b);
  }

  owns(p: number): boolean {
    return this.owned.has(p);
  }

  /** Resolves when the current reconcile (and any queued one) has finished. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  view() {
    const live = this.o.membership.liveNodeIds();
    return {
      nodeId: this.o.nodeId,
      partitions: this.o.partitions,
      owned: this.ownedPartitions(),
      desired: this.desired(live),
      live,
      members: this.o.membership.members(),
    };
  }

  reconcileSoon(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.reconcile()
      .catch((err: unknown) => this.o.log.error({ err }, 'partition reconcile failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          this.reconcileSoon();
        }
      });
  }

  /** Graceful leave: tell the others, then hand every partition back. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.settled();
    await Promise.all(this.ownedPartitions().map((p) => this.giveUp(p, 'shutdown')));
  }

  private desired(live: readonly string[]): number[] {
    const out: number[] = [];
    for (let p = 0; p < this.o.partitions; p++) if (ownerOf(p, live) === this.o.nodeId) out.push(p);
    return out;
  }

  private async reconcile(): Promise<void> {
    const live = this.o.membership.liveNodeIds();
    const want = new Set(this.desired(live));
    // Verify held locks first: a partition whose lock the server dropped must stop at once.
    for (const [p, owned] of this.owned) {
      if (!(await owned.lock.verify())) await this.giveUp(p, 'lock_lost');
    }
    for (const p of this.ownedPartitions()) if (!want.has(p)) await this.giveUp(p, 'rebalance');
    for (const p of want) {
      if (this.stopped) return;
      if (!this.owned.has(p)) await this.take(p);
    }
    this.o.metrics?.partitionsOwned.set(this.owned.size);
  }

  private async take(p: number): Promise<void> {
    const label = this.label(p);
    let lock = this.locks.get(p);
    if (!lock) {
      lock = new PartitionLock(this.o.bus, label, this.o.nodeId, this.o.lockInactiveMs, this.o.log);
      this.locks.set(p, lock);
    }
    if ((await lock.acquire()) !== 'acquired') return; // the previous owner still holds it
    try {
      const log = await PartitionLog.open(this.o.bus, label, this.o.nodeId);
      log.whenBroken((err) => {
        this.o.log.warn({ err, partition: label }, 'partition log broken; giving the partition up');
        void this.giveUp(p, 'fenced').then(() => this.reconcileSoon());
      });
      this.owned.set(p, { lock, log, since: Date.now() });
      await this.o.handler.activate(p, label, log);
      this.o.log.info({ partition: label, epoch: log.epoch }, 'partition acquired');
    } catch (err) {
      this.o.log.error({ err, partition: label }, 'partition activation failed');
      this.owned.delete(p);
      await this.o.handler.deactivate(p, label, 'error').catch(() => undefined);
      await lock.release();
    }
    this.o.metrics?.partitionsOwned.set(this.owned.size);
  }

  private async giveUp(p: number, reason: HandoverReason): Promise<void> {
    const owned = this.owned.get(p);
    if (!owned) return;
    this.owned.delete(p);
    const label = this.label(p);
    try {
      await this.o.handler.deactivate(p, label, reason);
    } catch (err) {
      this.o.log.error({ err, partition: label }, 'partition deactivation failed');
    }
    await owned.lock.release();
    this.o.metrics?.partitionHandovers.inc({ reason });
    this.o.metrics?.partitionsOwned.set(this.owned.size);
    this.o.log.info({ partition: label, reason }, 'partition released');
  }
}
