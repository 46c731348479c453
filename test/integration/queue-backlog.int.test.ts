// Which recipients have queued messages, as every node keeps it (actors/queue/queue-backlog.ts),
// against a real nats-server: a broadcast lost across a split NATS cluster (no reconnect tells the
// hub) is made good by reading the owners' backlogs again.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { connectBus, type Bus } from '../../runtime/bus/index.js';
import { silentLogger } from '../../runtime/log/index.js';
import { QueueBacklog } from '../../actors/queue/queue-backlog.js';

let nats: NatsServerHandle;
let bus: Bus;

beforeAll(async () => {
  nats = await startNatsServer();
  bus = await connectBus({ servers: [nats.url], name: 'backlog', replicas: 1, log: silentLogger });
});

afterAll(async () => {
  await bus?.close();
  await nats?.close();
});

describe('the cluster-wide backlog set', () => {
  it('counts every recipient as backed up until read, then learns a missed backlog on refresh', async () => {
    // What each partition's owner would answer.
    const owners = new Map<number, string[]>([
      [0, []],
      [1, ['agent-early']],
      [2, []],
      [3, []],
    ]);
    const reads: number[] = [];
    const b = new QueueBacklog({
      bus,
      partitions: 4,
      read: (p) => {
        reads.push(p);
        return Promise.resolve(owners.get(p) ?? []);
      },
    });
    // Partition 3 is this node's own.
    expect(b.has('agent-x', 2)).toBe(true);
    b.start(() => [3]);
    await vi.waitFor(() => expect(b.has('agent-x', 2)).toBe(false));
    expect(b.has('agent-early', 1)).toBe(true);
    // Partition 2's owner queued a message for agent-late; its broadcast never came (a split).
    owners.set(2, ['agent-late']);
    expect(b.has('agent-late', 2)).toBe(false);
    reads.length = 0;
    b.refresh(() => [3]);
    await vi.waitFor(() => expect(b.has('agent-late', 2)).toBe(true));
    // Its own partition is not asked.
    expect(reads.sort()).toEqual([0, 1, 2]);
    b.stop();
  });
});
