// Writes that can never succeed (issue 18 item 2), against a real nats-server whose max_payload is
// 64 KiB: such a write fails its own actor only, never breaks the partition's log, and every retry
// loop around it gives up after a bound and is counted in the metrics.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { until } from '../support/test-hub.js';
import {
  connectBus,
  partitionLabel,
  provision,
  streams,
  subjects,
  type Bus,
} from '../../runtime/bus/index.js';
import {
  Membership,
  PartitionLog,
  PartitionManager,
  WriteRefusedError,
  type PartitionHandler,
} from '../../runtime/cluster/index.js';
import { ActorHost, type ActorView } from '../../runtime/host/index.js';
import type { HubError } from '../../runtime/errors/index.js';
import { silentLogger as log } from '../../runtime/log/index.js';
import { createMetrics, type HubMetrics } from '../../runtime/metrics/index.js';
import { taskMachine } from '../../actors/index.js';

const P = 4;
const MAX_PAYLOAD = 64 * 1024;
let nats: NatsServerHandle;
let bus: Bus;

beforeAll(async () => {
  // nats-server takes max_payload from a configuration file only.
  const conf = join(mkdtempSync(join(tmpdir(), 'unwritable-nats-')), 'nats.conf');
  writeFileSync(conf, `max_payload: ${MAX_PAYLOAD}\n`);
  nats = await startNatsServer({ extraArgs: ['-c', conf] });
  bus = await connectBus({ servers: [nats.url], name: 'unwritable', replicas: 1, log });
  await provision(bus, { partitions: P, replicas: 1, nodeTtlMs: 3000 });
});

afterAll(async () => {
  await bus?.close();
  await nats?.close();
});

const taskInput = (id: string, text: string) => ({
  id,
  contextId: `ctx-${id}`,
  senderId: 'agent-a',
  recipientId: 'agent-b',
  senderTenantId: 't1',
  recipientTenantId: 't1',
  message: { role: 'user', messageId: `m-${id}`, parts: [{ kind: 'text', text }] },
  at: 1,
});

const counter = async (metrics: HubMetrics, name: 'writesRefused' | 'retryGiveUps') =>
  (await metrics[name].get()).values.map((v) => ({
    labels: v.labels as Record<string, string>,
    value: v.value,
  }));

async function snapshotsOf(label: string, id: string): Promise<number> {
  const info = await bus.jsm.streams.info(streams.partition(label), {
    subjects_filter: subjects.actorSnapshot(label, 'task', id),
  });
  return Object.values(info.state.subjects ?? {}).reduce((a, b) => a + b, 0);
}

describe('a write that can never succeed', () => {
  it('is refused by the log before it takes a sequence; the log stays usable', async () => {
    const plog = await PartitionLog.open(bus, partitionLabel(0, P), 'n0');
    let broken: Error | undefined;
    plog.whenBroken((e) => (broken = e));
    const big = { text: 'x'.repeat(MAX_PAYLOAD) };
    await expect(plog.append(subjects.actorSnapshot('00', 'x', 'big'), big)).rejects.toSatisfy(
      (e) => e instanceof WriteRefusedError && e.code === 'PAYLOAD_TOO_LARGE'
    );
    await expect(plog.append('hubd.01.s.x.elsewhere', { n: 1 })).rejects.toBeInstanceOf(
      WriteRefusedError
    );
    await expect(plog.append('hubd.00.s.x.bad subject', { n: 1 })).rejects.toBeInstanceOf(
      WriteRefusedError
    );
    expect(broken).toBeUndefined();
    const seq = await plog.append(subjects.actorSnapshot('00', 'x', 'small'), { n: 1 });
    expect(seq).toBe(plog.lastSequence);
  });

  it('fails only its own actor: the others on the partition keep persisting', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    const host = new ActorHost({ bus, nodeId: 'n1', partitions: P, log, metrics });
    host.define('task', taskMachine);
    const refused: Array<{ id: string; state: unknown; code: string }> = [];
    host.onRefused('task', (addr, view: ActorView, err: HubError) =>
      refused.push({ id: addr.id, state: view.value, code: err.code })
    );
    const label = partitionLabel(1, P);
    const plog = await PartitionLog.open(bus, label, 'n1');
    let broken: Error | undefined;
    plog.whenBroken((e) => (broken = e));
    await host.activate(1, label, plog);
    const at = (id: string) => ({ kind: 'task', id, partition: 1 });

    // A neighbour before and after.
    await host.send(at('t-small'), undefined, { input: taskInput('t-small', 'hi'), key: 'k1' });

    // A spawn whose first record is too large: refused with the limit; nothing exists.
    const spawn = host.send(at('t-big'), undefined, {
      input: taskInput('t-big', 'x'.repeat(70 * 1024)),
      key: 'k2',
    });
    await expect(spawn).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      data: { limit: expect.any(Number), maxPayload: MAX_PAYLOAD },
    });
    expect(await snapshotsOf(label, 't-big')).toBe(0);
    expect(await host.read(at('t-big'))).toBeUndefined();

    // The neighbour persists right after, in the same partition and log.
    const started = await host.send(at('t-small'), { type: 'task.start', at: 2 });
    expect(started.view.value).toBe('working');
    const stored = await host.read({ ...at('t-small'), partition: 1 });
    expect(stored?.value).toBe('working');

    // A change of a stored actor that no longer fits: undone, the hooks told, the actor goes on.
    const reply = host.send(at('t-small'), {
      type: 'task.respond',
      at: 3,
      by: 'agent-b',
      state: 'completed',
      artifact: { artifactId: 'a', parts: [{ kind: 'text', text: 'y'.repeat(40 * 1024) }] },
    });
    await expect(reply).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    await until(() => refused.length === 1);
    expect(refused).toEqual([{ id: 't-small', state: 'working', code: 'PAYLOAD_TOO_LARGE' }]);
    const after = await host.send(at('t-small'), {
      type: 'task.respond',
      at: 4,
      by: 'agent-b',
      state: 'completed',
      artifact: { artifactId: 'a', parts: [{ kind: 'text', text: 'short' }] },
    });
    expect(after.view.value).toBe('completed');

    // Another actor spawns and is stored normally; the log never broke.
    await host.send(at('t-other'), undefined, { input: taskInput('t-other', 'hello') });
    expect(await snapshotsOf(label, 't-other')).toBe(1);
    expect(broken).toBeUndefined();
    expect(await counter(metrics, 'writesRefused')).toEqual([
      { labels: { kind: 'task', reason: 'too_large' }, value: 2 },
    ]);
    await host.deactivate(1, label, 'shutdown');
  });

  it('gives an actor up after repeated refusals: a hook that makes things worse cannot loop', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    const host = new ActorHost({ bus, nodeId: 'n2', partitions: P, log, metrics });
    host.define('task', taskMachine);
    const label = partitionLabel(2, P);
    await host.activate(2, label, await PartitionLog.open(bus, label, 'n2'));
    const addr = { kind: 'task', id: 't-loop', partition: 2 };
    const oversized = (at: number) => ({
      type: 'task.respond' as const,
      at,
      by: 'agent-b',
      state: 'working' as const,
      artifact: { artifactId: `a${at}`, parts: [{ kind: 'text', text: 'z'.repeat(40 * 1024) }] },
    });
    let hookCalls = 0;
    host.onRefused('task', (a) => {
      hookCalls++;
      void host.send(a, oversized(100 + hookCalls)).catch(() => undefined);
    });
    await host.send(addr, undefined, { input: taskInput('t-loop', 'start') });
    await expect(host.send(addr, oversized(2))).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    });
    await until(async () =>
      (await counter(metrics, 'retryGiveUps')).some((c) => c.labels.loop === 'actor_write')
    );
    expect(hookCalls).toBe(7);
    // Its last durable state stays in the log.
    expect((await host.read(addr))?.value).toBe('submitted');
    await host.deactivate(2, label, 'shutdown');
  });

  it('a request no node owns gives up after its bound, counted', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    const host = new ActorHost({
      bus,
      nodeId: 'n3',
      partitions: P,
      log,
      metrics,
      handoverWaitMs: 300,
    });
    host.define('task', taskMachine);
    await expect(
      host.send({ kind: 'task', id: 't-nobody', partition: 3 }, { type: 'task.start', at: 1 })
    ).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(await counter(metrics, 'retryGiveUps')).toEqual([
      { labels: { loop: 'owner_request' }, value: 1 },
    ]);
  });

  it('a partition whose activation keeps failing is retried after doubling pauses, then counted', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    const membership = new Membership({
      bus,
      self: { nodeId: 'mgr', publicUrl: 'http://mgr', startedAt: Date.now() },
      heartbeatMs: 100,
      nodeTtlMs: 3000,
      log,
    });
    await membership.start();
    const attempts: number[] = [];
    const handler: PartitionHandler = {
      activate: (p) => {
        if (p === 0) attempts.push(Date.now());
        return p === 0 ? Promise.reject(new Error('replay failed')) : Promise.resolve();
      },
      deactivate: () => Promise.resolve(),
    };
    const manager = new PartitionManager({
      bus,
      membership,
      nodeId: 'mgr',
      partitions: P,
      lockInactiveMs: 2000,
      tickMs: 20,
      handler,
      log,
      metrics,
      retakePauseMs: { first: 50, max: 400 },
    });
    manager.start();
    try {
      await until(async () =>
        (await counter(metrics, 'retryGiveUps')).some((c) => c.labels.loop === 'partition_take')
      );
      const gaps = attempts.slice(1).map((t, i) => t - attempts[i]!);
      // Ticks come every 20 ms; the pauses grow: 0, 50, 100, 200, 400 ms.
      expect(attempts).toHaveLength(6);
      expect(gaps[2]).toBeGreaterThanOrEqual(90);
      expect(gaps[4]).toBeGreaterThanOrEqual(390);
      // It keeps to the longest pause afterwards instead of spinning on every tick: the next two
      // attempts each come a full pause after the one before (every tick, they would be 20 ms).
      const before = attempts.length;
      await until(() => attempts.length >= before + 2, 5_000);
      const later = attempts.slice(before - 1, before + 2);
      expect(later[1]! - later[0]!).toBeGreaterThanOrEqual(390);
      expect(later[2]! - later[1]!).toBeGreaterThanOrEqual(390);
      expect(manager.ownedPartitions()).toEqual([1, 2, 3]);
    } finally {
      await manager.stop();
      await membership.stop();
    }
  });
});
