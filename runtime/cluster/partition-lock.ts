// A partition lock that cannot be held twice, even on a replicated stream: a durable consumer on
// the work-queue stream HUB_LOCKS filtered on the partition's lock subject. The server allows one
// consumer per filter on a work-queue stream, and deletes the consumer inactive_threshold after its
// holder stops pulling, so a dead holder releases the lock by itself (shared/docs/nats-2.9.md §0.2).
import { AckPolicy, type Consumer } from '@nats-io/jetstream';
import { consumers, streams, subjects, type Bus } from '../bus/index.js';
import type { Logger } from '../log/index.js';

export type AcquireResult = 'acquired' | 'held-elsewhere';

export class PartitionLock {
  private consumer: Consumer | undefined;
  private held = false;
  private readonly name: string;

  constructor(
    private readonly bus: Bus,
    readonly label: string,
    private readonly nodeId: string,
    private readonly inactiveMs: number,
    private readonly log: Logger
  ) {
    this.name = consumers.partitionLock(label, nodeId);
  }

  get isHeld(): boolean {
    return this.held;
  }

  async acquire(): Promise<AcquireResult> {
    try {
      await this.bus.jsm.consumers.add(streams.locks, {
        durable_name: this.name,
        filter_subject: subjects.partitionLock(this.label),
        ack_policy: AckPolicy.Explicit,
        inactive_threshold: this.inactiveMs * 1_000_000,
        num_replicas: this.bus.replicas,
      });
    } catch (err) {
      if (/not unique/i.test(String((err as Error).message))) return 'held-elsewhere';
      throw err;
    }
    this.consumer = await this.bus.js.consumers.get(streams.locks, this.name);
    this.held = true;
    void this.keepAlive();
    return 'acquired';
  }

  /** Still ours? A lock the server deleted (we stalled past the threshold) is lost. */
  async verify(): Promise<boolean> {
    if (!this.held) return false;
    try {
      await this.bus.jsm.consumers.info(streams.locks, this.name);
      return true;
    } catch (err) {
      if (/not found/i.test(String((err as Error).message))) {
        this.held = false;
        return false;
      }
      // The server is unreachable: we cannot tell; keep the lock and let fencing decide.
      return true;
    }
  }

  async release(): Promise<void> {
    if (!this.held) return;
    this.held = false;
    try {
      await this.bus.jsm.consumers.delete(streams.locks, this.name);
    } catch (err) {
      this.log.debug({ err, partition: this.label }, 'lock release: consumer already gone');
    }
  }

  /** Outstanding pull requests are what keeps the consumer from going inactive. */
  private async keepAlive(): Promise<void> {
    const expires = Math.max(1000, Math.min(5000, Math.floor(this.inactiveMs / 3)));
    while (this.held && this.consumer) {
      try {
        const batch = await this.consumer.fetch({ max_messages: 1, expires });
        for await (const m of batch) m.ack(); // the stream never holds messages; defensive
      } catch (err) {
        if (!this.held) return;
        this.log.debug({ err, partition: this.label }, 'lock keep-alive pull failed');
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }
}
