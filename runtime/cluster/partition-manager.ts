// Keeps this node's owned partitions equal to what rendezvous hashing over the live members assigns
// it: acquire the lock, fence the log, activate; or deactivate and release. Reconciles run one at a
// time, on membership changes and on every tick; a lost lock or a fenced log gives a partition up.
// A partition whose log keeps breaking, or whose activation keeps failing, is taken again only after
// a pause that doubles each time (up to 30 s): a fault that recurs cannot spin the node. A NATS
// reconnect clears the record: failures during an outage say nothing about the partition.
import type { Bus } from '../bus/index.js';
import { partitionLabel } from '../bus/index.js';
import type { Logger } from '../log/index.js';
import type { HubMetrics } from '../metrics/index.js';
import { ownerOf } from './hash.js';
import type { Membership } from './membership.js';
import { PartitionLock } from './partition-lock.js';
import { PartitionLog } from './partition-log.js';
import type { CompactionOptions } from './log-compactor.js';

export type HandoverReason = 'rebalance' | 'fenced' | 'lock_lost' | 'shutdown' | 'error';

export interface PartitionHandler {
  /**
   * True when every record this handler writes to a partition's log is covered by a LogHolder it
   * registers (PartitionLog.addHolder) in activate(). A log is compacted only when its handler says
   * so: a record that no holder relocates is purged with the rest.
   */
  readonly holdsLogRecords?: boolean;
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
  /**
   * When to compact an owned partition's log (none: never). Only a handler that holds its records
   * (PartitionHandler.holdsLogRecords) gets its logs compacted.
   */
  compaction?: CompactionOptions;
  /** The pauses before a troubled partition is taken again (defaults: 1 s doubling to 30 s). */
  retakePauseMs?: { first: number; max: number };
}

interface Owned {
  lock: PartitionLock;
  log: PartitionLog;
  since: number;
}

/** Failures of one partition in a row (a broken log, a failed activation) and when to try again. */
interface Trouble {
  failures: number;
  notBefore: number;
}

/** The first failure is retried at once (a fenced log: the next reconcile settles who owns it). */
const RETAKE_FIRST_PAUSE_MS = 1000;
const RETAKE_MAX_PAUSE_MS = 30_000;
/** Failures in a row after which the retries count as given up (and keep the longest pause). */
const RETAKE_GIVE_UP_AFTER = 6;
/** A partition held this long without trouble starts over from a clean record. */
const STABLE_MS = 60_000;

export class PartitionManager {
  private readonly owned = new Map<number, Owned>();
  private readonly locks = new Map<number, PartitionLock>();
  private readonly trouble = new Map<number, Trouble>();
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly o: PartitionManagerOptions) {}

  start(): void {
    this.o.membership.onChange(() => this.reconcileSoon());
    this.o.bus.onReconnect(() => {
      this.trouble.clear();
      this.reconcileSoon();
    });
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
      // The owner of every partition as this node computes it (index = partition): the same on
      // every node once membership has settled.
      owners: Array.from({ length: this.o.partitions }, (_, p) => ownerOf(p, live) ?? null),
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
    const held = this.ownedPartitions();
    await Promise.all(held.map((p) => this.giveUp(p, 'shutdown')));
    if (held.length > 0)
      this.o.log.info(
        { partitions: held.length },
        `partitions released: ${held.length} (shutdown)`
      );
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
    // A draining node is not among the live ones: what it hands over it gives up for shutdown.
    const reason: HandoverReason = live.includes(this.o.nodeId) ? 'rebalance' : 'shutdown';
    const leaving = this.ownedPartitions().filter((p) => !want.has(p));
    for (const p of leaving) await this.giveUp(p, reason);
    if (leaving.length > 0)
      this.o.log.info(
        { partitions: leaving.map((p) => this.label(p)), reason },
        `partitions released: ${leaving.length} (${reason})`
      );
    const now = Date.now();
    for (const p of want) {
      if (this.stopped) return;
      if (!this.owned.has(p) && (this.trouble.get(p)?.notBefore ?? 0) <= now) await this.take(p);
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
      const compaction = this.o.handler.holdsLogRecords ? this.o.compaction : undefined;
      const log = await PartitionLog.open(this.o.bus, label, this.o.nodeId, {
        ...(compaction ? { compaction } : {}),
        log: this.o.log,
        ...(this.o.metrics ? { metrics: this.o.metrics } : {}),
      });
      log.whenBroken((err) => {
        const pauseMs = this.troubled(p);
        this.o.log.warn(
          { err, partition: label, failures: this.trouble.get(p)?.failures, retakeInMs: pauseMs },
          'partition log broken; giving the partition up'
        );
        void this.giveUp(p, 'fenced').then(() => this.reconcileSoon());
      });
      this.owned.set(p, { lock, log, since: Date.now() });
      await this.o.handler.activate(p, label, log);
      // Only now: a compaction must not run before every holder has registered and restored.
      log.startCompaction();
      // Debug: a node takes dozens at start-up; the counts are in /metrics and /debug/cluster.
      this.o.log.debug({ partition: label, epoch: log.epoch }, 'partition acquired');
    } catch (err) {
      const pauseMs = this.troubled(p);
      this.o.log.error(
        { err, partition: label, failures: this.trouble.get(p)?.failures, retakeInMs: pauseMs },
        'partition activation failed'
      );
      const log = this.owned.get(p)?.log;
      this.owned.delete(p);
      log?.close();
      await this.o.handler.deactivate(p, label, 'error').catch(() => undefined);
      await lock.release();
    }
    this.o.metrics?.partitionsOwned.set(this.owned.size);
  }

  /**
   * Records a failure of partition `p` and returns how long to wait before taking it again. Its
   * give-up (the pause has reached its longest) is counted once per streak of failures.
   */
  private troubled(p: number): number {
    const now = Date.now();
    const since = this.owned.get(p)?.since;
    let t = this.trouble.get(p);
    if (!t || (since !== undefined && now - since > STABLE_MS)) t = { failures: 0, notBefore: 0 };
    t.failures++;
    const { first, max } = this.o.retakePauseMs ?? {
      first: RETAKE_FIRST_PAUSE_MS,
      max: RETAKE_MAX_PAUSE_MS,
    };
    const pauseMs = t.failures === 1 ? 0 : Math.min(max, first * 2 ** (t.failures - 2));
    t.notBefore = now + pauseMs;
    this.trouble.set(p, t);
    if (t.failures === RETAKE_GIVE_UP_AFTER) {
      this.o.metrics?.retryGiveUps.inc({ loop: 'partition_take' });
      this.o.log.error(
        { partition: this.label(p), failures: t.failures },
        'partition keeps failing; it is taken again after the longest pause from now on'
      );
    }
    return pauseMs;
  }

  private async giveUp(p: number, reason: HandoverReason): Promise<void> {
    const owned = this.owned.get(p);
    if (!owned) return;
    this.owned.delete(p);
    const label = this.label(p);
    // No purge once the partition is being given up (one already past its marker finishes).
    owned.log.close();
    try {
      await this.o.handler.deactivate(p, label, reason);
    } catch (err) {
      this.o.log.error({ err, partition: label }, 'partition deactivation failed');
    }
    await owned.lock.release();
    this.o.metrics?.partitionHandovers.inc({ reason });
    this.o.metrics?.partitionsOwned.set(this.owned.size);
    // Rebalances and shutdowns release many at once and say so in one line of their own.
    this.o.log[reason === 'shutdown' || reason === 'rebalance' ? 'debug' : 'info'](
      { partition: label, reason },
      'partition released'
    );
  }
}
