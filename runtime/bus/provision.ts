// Creates or updates every declared stream and bucket. Safe to run on every start and from
// several nodes at once: "already in use" from a concurrent create is treated as success.
import type { Bus } from './connection.js';
import {
  partitionStream,
  locksStream,
  eventsStream,
  archiveStream,
  nodesBucket,
  presenceBucket,
  allPartitionLabels,
  type Topology,
} from './streams.js';
import type { StreamConfig } from '@nats-io/jetstream';

async function ensureStream(
  bus: Bus,
  cfg: Partial<StreamConfig> & { name: string }
): Promise<void> {
  try {
    await bus.jsm.streams.info(cfg.name);
    await bus.jsm.streams.update(cfg.name, cfg);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    try {
      await bus.jsm.streams.add(cfg);
    } catch (e) {
      // Another node created it between our info and add.
      if (!/already in use/i.test(String((e as Error).message))) throw e;
    }
  }
}

function isNotFound(err: unknown): boolean {
  return /not found/i.test(String((err as Error)?.message));
}

export async function provision(bus: Bus, t: Topology): Promise<void> {
  await ensureStream(bus, locksStream(t));
  await ensureStream(bus, eventsStream(t));
  await ensureStream(bus, archiveStream(t));
  // Sequential keeps the meta leader calm on a cluster; 32 streams take well under a second on R1.
  for (const label of allPartitionLabels(t.partitions))
    await ensureStream(bus, partitionStream(label, t));
  await bus.kvm.create(nodesBucket(t).name, {
    history: nodesBucket(t).history,
    ttl: nodesBucket(t).ttl,
    replicas: nodesBucket(t).replicas,
  });
  const presence = presenceBucket(t);
  await bus.kvm.create(presence.name, { history: presence.history, replicas: presence.replicas });
}
