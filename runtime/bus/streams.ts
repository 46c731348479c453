// Declarations of every JetStream stream and KV bucket, provisioned idempotently at start.
import { RetentionPolicy, StorageType, DiscardPolicy, type StreamConfig } from '@nats-io/jetstream';
import { streams, subjects, buckets, partitionLabel } from './subjects.js';

export interface Topology {
  partitions: number;
  replicas: number;
  nodeTtlMs: number;
}

const nanos = (ms: number) => ms * 1_000_000;

/** One log per partition: actor snapshots (the newest per actor) and queued messages. */
export function partitionStream(
  label: string,
  t: Topology
): Partial<StreamConfig> & { name: string } {
  return {
    name: streams.partition(label),
    subjects: [subjects.partitionAll(label)],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.New,
    num_replicas: t.replicas,
    // Only the epoch marker rolls up its subject (once per activation); actor snapshots are plain
    // appends, and what they supersede is removed in bulk by compaction where a purge to a sequence
    // is safe, else deleted by sequence (runtime/cluster/partition-log.ts).
    allow_rollup_hdrs: true,
    // No max_age: snapshots of long-lived actors must not vanish; expiry is the actors' own job.
    max_age: 0,
    duplicate_window: nanos(120_000),
  };
}

/** Work-queue stream that never holds a message: its unique-filter rule is the partition lock. */
export function locksStream(t: Topology): Partial<StreamConfig> & { name: string } {
  return {
    name: streams.locks,
    subjects: [subjects.locksAll],
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
    num_replicas: t.replicas,
  };
}

/** Account events awaiting webhook delivery; a retried publish (same Nats-Msg-Id) is stored once. */
export function eventsStream(t: Topology): Partial<StreamConfig> & { name: string } {
  return {
    name: streams.events,
    subjects: [subjects.hubEventsAll],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    num_replicas: t.replicas,
    // A week covers a long webhook outage; older events are of no use to a receiver.
    max_age: nanos(7 * 86_400_000),
    duplicate_window: nanos(120_000),
  };
}

/**
 * Final snapshots of finished actors that compaction moved out of their partition's log, so that a
 * finished task stays readable (GetTask) after its partition's log was purged. Any owner writes
 * (a finished actor's final never changes; a second copy replaces the first).
 */
export function archiveStream(t: Topology): Partial<StreamConfig> & { name: string } {
  return {
    name: streams.archive,
    subjects: [subjects.archiveAll],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    num_replicas: t.replicas,
    max_msgs_per_subject: 1,
    max_age: 0,
  };
}

export function nodesBucket(t: Topology) {
  return { name: buckets.nodes, history: 1, ttl: t.nodeTtlMs, replicas: t.replicas };
}

/** Who holds which agent's WebSocket; entries of dead nodes are ignored and cleaned by survivors. */
export function presenceBucket(t: Topology) {
  return { name: buckets.presence, history: 1, replicas: t.replicas };
}

export function allPartitionLabels(partitions: number): string[] {
  return Array.from({ length: partitions }, (_, p) => partitionLabel(p, partitions));
}
