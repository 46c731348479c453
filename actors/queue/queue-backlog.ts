// Which recipients have queued messages, cluster-wide (issue 30 point 2: no message overtakes a
// queue after a node starts). Every node keeps the set, so a new message for a backed-up recipient
// queues behind the older ones instead of being delivered directly. Owners broadcast each change;
// a node that starts, or reconnects to NATS (broadcasts published meanwhile are lost), reads the
// backlog of every partition from its owner, and until it has read a partition's, every recipient
// of that partition counts as backed up.
import type { Subscription } from '@nats-io/nats-core';
import { decodeJson, encodeJson, subjects, type Bus } from '../../runtime/bus/index.js';

/** How long to wait before reading again the backlogs whose owners did not answer. */
const RETRY_MS = 1000;
/**
 * How often every backlog is read again anyway. A NATS server cut from the others splits the
 * cluster's core messaging without the hub's connection dropping: broadcasts published on the
 * other side are lost and no reconnect says so (partitions seed 193519858: a message pushed
 * directly past its sender's queued one, 9 s after the heal).
 */
const REFRESH_MS = 15_000;

export interface QueueBacklogOptions {
  bus: Bus;
  partitions: number;
  /** The recipients with queued messages of one partition, asked of its owner. */
  read(partition: number): Promise<string[]>;
}

export class QueueBacklog {
  /** Recipients with queued messages, cluster-wide (owners broadcast changes). */
  private readonly recipients = new Set<string>();
  /**
   * Queue partitions whose backlogs this node has read (from their owner, or owns): for any other
   * partition a recipient counts as backed up, so a node that just started (or missed broadcasts
   * while reconnecting to NATS) never delivers past messages it does not know about.
   */
  private readonly known = new Set<number>();
  private syncTimer: NodeJS.Timeout | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;
  private sub: Subscription | undefined;
  private stopped = false;

  constructor(private readonly o: QueueBacklogOptions) {}

  /** Follows the broadcasts and reads every backlog; `owned` lists this node's queue partitions. */
  start(owned: () => Iterable<number>): void {
    this.sub = this.o.bus.nc.subscribe(subjects.queueBacklog, {
      callback: (_err, msg) => {
        const b = decodeJson<{ recipientId: string; backlog: boolean }>(msg.data);
        if (b.backlog) this.recipients.add(b.recipientId);
        else this.recipients.delete(b.recipientId);
      },
    });
    // Subscribed first, then read: a change broadcast meanwhile is not missed.
    this.sync();
    // Broadcasts published while the connection was down are lost: read every backlog again.
    this.o.bus.onReconnect(() => {
      if (this.stopped) return;
      this.known.clear();
      for (const p of owned()) this.known.add(p);
      this.sync();
    });
    this.refreshTimer = setInterval(() => this.refresh(owned), REFRESH_MS);
    this.refreshTimer.unref();
  }

  /**
   * Reads again the backlog of every partition this node does not own, adding what broadcasts
   * missed (on the cluster's membership changing, and every REFRESH_MS). A recipient no longer
   * backed up that stays listed only sends its next messages through its queue, which broadcasts
   * again once it drains.
   */
  refresh(owned: () => Iterable<number>): void {
    if (this.stopped) return;
    const mine = new Set(owned());
    for (let p = 0; p < this.o.partitions; p++) {
      if (mine.has(p)) continue;
      this.o.read(p).then(
        (recipients) => {
          for (const r of recipients) this.recipients.add(r);
        },
        () => undefined
      );
    }
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.syncTimer);
    clearInterval(this.refreshTimer);
    this.sub?.unsubscribe();
  }

  /** Has the recipient, of a tenant in queue partition `partition`, queued messages? */
  has(recipientId: string, partition: number): boolean {
    if (this.recipients.has(recipientId)) return true;
    return this.known.size < this.o.partitions && !this.known.has(partition);
  }

  /** Whether this node has last heard the recipient as backed up. */
  listed(recipientId: string): boolean {
    return this.recipients.has(recipientId);
  }

  /** Noted here at once, before the owner's broadcast (the next message must queue behind it). */
  add(recipientId: string): void {
    this.recipients.add(recipientId);
  }

  /** This node owns the partition now: what it holds is its backlog. */
  markKnown(partition: number): void {
    this.known.add(partition);
  }

  /** The owner's change of a recipient's backlog, here and on every node. */
  broadcast(recipientId: string, backlog: boolean): void {
    if (backlog) this.recipients.add(recipientId);
    else this.recipients.delete(recipientId);
    this.o.bus.nc.publish(subjects.queueBacklog, encodeJson({ recipientId, backlog }));
  }

  /** Reads the backlog of every partition not known yet from its owner; retries the rest. */
  private sync(): void {
    clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    const missing: number[] = [];
    for (let p = 0; p < this.o.partitions; p++) if (!this.known.has(p)) missing.push(p);
    if (missing.length === 0) return;
    void Promise.all(
      missing.map((p) =>
        this.o.read(p).then(
          (recipients) => {
            for (const r of recipients) this.recipients.add(r);
            this.known.add(p);
          },
          () => undefined
        )
      )
    ).then(() => {
      if (this.stopped || this.known.size >= this.o.partitions) return;
      this.syncTimer = setTimeout(() => this.sync(), RETRY_MS);
      this.syncTimer.unref();
    });
  }
}
