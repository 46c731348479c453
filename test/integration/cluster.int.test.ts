// The partition lock, the fenced partition log and the actor host against a real nats-server.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import {
  connectBus,
  provision,
  type Bus,
  partitionLabel,
  subjects,
} from '../../runtime/bus/index.js';
import { PartitionLock, PartitionLog, FencedError } from '../../runtime/cluster/index.js';
import { ActorHost } from '../../runtime/host/index.js';
import { silentLogger as log } from '../../runtime/log/index.js';
import { createActor } from 'xstate';
import { taskMachine, type TaskEvent, type TaskInput } from '../../actors/index.js';

const P = 4;
let nats: NatsServerHandle;
let bus: Bus;
let bus2: Bus;

beforeAll(async () => {
  nats = await startNatsServer();
  bus = await connectBus({ servers: [nats.url], name: 't1', replicas: 1, log });
  bus2 = await connectBus({ servers: [nats.url], name: 't2', replicas: 1, log });
  await provision(bus, { partitions: P, replicas: 1, nodeTtlMs: 3000 });
});

afterAll(async () => {
  await bus?.close();
  await bus2?.close();
  await nats?.close();
});

describe('partition lock', () => {
  it('cannot be held by two nodes at once, and is free again after release', async () => {
    const a = new PartitionLock(bus, '00', 'node-a', 3000, log);
    const b = new PartitionLock(bus2, '00', 'node-b', 3000, log);
    expect(await a.acquire()).toBe('acquired');
    expect(await b.acquire()).toBe('held-elsewhere');
    expect(await a.verify()).toBe(true);
    await a.release();
    expect(await b.acquire()).toBe('acquired');
    expect(await a.verify()).toBe(false);
    await b.release();
  });

  it('is released by the server when its holder stops renewing it', async () => {
    // A holder that vanished: create the consumer directly and never pull on it.
    const ghost = new PartitionLock(bus, '01', 'ghost', 1500, log);
    expect(await ghost.acquire()).toBe('acquired');
    // Simulate the process dying: stop the keep-alive loop without deleting the consumer.
    (ghost as unknown as { held: boolean }).held = false;
    const b = new PartitionLock(bus2, '01', 'node-b', 1500, log);
    const t0 = Date.now();
    let got = await b.acquire();
    while (got !== 'acquired' && Date.now() - t0 < 15_000) {
      await new Promise((r) => setTimeout(r, 200));
      got = await b.acquire();
    }
    expect(got).toBe('acquired');
    const waited = Date.now() - t0;
    console.log(`lock freed ${waited} ms after the holder stopped renewing`);
    expect(waited).toBeLessThan(15_000);
    await b.release();
  });
});

describe('partition log', () => {
  it('fences a stale owner: its next append fails once a new owner opened the log', async () => {
    const old = await PartitionLog.open(bus, '02', 'node-a');
    await old.append(subjects.actorSnapshot('02', 'x', 'one'), { n: 1 }, { rollup: true });
    await Promise.all(
      [1, 2, 3].map((n) => old.append(subjects.actorSnapshot('02', 'x', `p${n}`), { n }))
    );
    const fresh = await PartitionLog.open(bus2, '02', 'node-b');
    expect(fresh.epoch).toBeGreaterThan(old.lastSequence - 1);
    let broken: Error | undefined;
    old.whenBroken((e) => (broken = e));
    await expect(
      old.append(subjects.actorSnapshot('02', 'x', 'one'), { n: 2 })
    ).rejects.toBeInstanceOf(FencedError);
    expect(broken).toBeInstanceOf(FencedError);
    // The new owner writes normally.
    await fresh.append(subjects.actorSnapshot('02', 'x', 'one'), { n: 3 }, { rollup: true });
    const last = await bus.jsm.streams.getMessage('HUB_P02', {
      last_by_subj: subjects.actorSnapshot('02', 'x', 'one'),
    });
    expect(last?.json()).toEqual({ n: 3 });
  });
});

describe('actor host', () => {
  const addr = { kind: 'task', id: 'task-abc', partition: 3 };
  const input = {
    id: 'task-abc',
    contextId: 'ctx-1',
    senderId: 'agent-a',
    recipientId: 'agent-b',
    senderTenantId: 't1',
    recipientTenantId: 't1',
    message: { role: 'user', messageId: 'm1', parts: [{ kind: 'text', text: 'hi' }] },
    at: 1,
  };

  it("restores an actor's state after its host restarts, and routes to the owner from another node", async () => {
    const label = partitionLabel(3, P);
    const h1 = new ActorHost({ bus, nodeId: 'n1', partitions: P, log });
    h1.define('task', taskMachine);
    h1.start();
    const log1 = await PartitionLog.open(bus, label, 'n1');
    await h1.activate(3, label, log1);
    const v = await h1.send(addr, { type: 'task.start', at: 2 }, { input });
    expect(v.view.value).toBe('working');
    expect(v.created).toBe(true);

    // A second node without the partition reaches the actor through NATS.
    const remote = new ActorHost({
      bus: bus2,
      nodeId: 'n2',
      partitions: P,
      log,
      handoverWaitMs: 5000,
    });
    remote.define('task', taskMachine);
    expect((await remote.read(addr))?.value).toBe('working');
    expect(await remote.lookup('task:task-abc')).toMatchObject({ value: 'working' });

    // Host 1 goes away (as after a crash: nothing is flushed on the way out).
    await h1.deactivate(3, label, 'lock_lost');
    h1.stop();

    // A new host takes the partition and finds the actor where it was.
    const h2 = new ActorHost({ bus: bus2, nodeId: 'n2', partitions: P, log });
    h2.define('task', taskMachine);
    const log2 = await PartitionLog.open(bus2, label, 'n2');
    await h2.activate(3, label, log2);
    const restored = await h2.read(addr);
    expect(restored?.value).toBe('working');
    expect((restored?.context as { messages: unknown[] }).messages).toHaveLength(1);
    const done = await h2.send(addr, {
      type: 'task.respond',
      at: 3,
      by: 'agent-b',
      state: 'completed',
    });
    expect(done.view.value).toBe('completed');
    // Finished actors leave memory; their final snapshot stays in the log and reads from there.
    await vi.waitFor(() => expect(h2.localSummary()).toEqual([{ partition: label, actors: 0 }]));
    expect(await remote.read(addr)).toMatchObject({ value: 'completed', status: 'done' });
    await expect(h2.send(addr, { type: 'task.start', at: 4 })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await h2.deactivate(3, label, 'shutdown');
  });

  it('spawns once per key within the window, also after the partition moved', async () => {
    const label = partitionLabel(2, P);
    const mk = (nodeBus: Bus, nodeId: string) => {
      const h = new ActorHost({ bus: nodeBus, nodeId, partitions: P, log });
      h.define('task', taskMachine);
      return h;
    };
    const a = mk(bus, 'na');
    await a.activate(2, label, await PartitionLog.open(bus, label, 'na'));
    const at = { kind: 'task', partition: 2 };
    const first = await a.send({ ...at, id: 'task-k1' }, undefined, {
      input: { ...input, id: 'task-k1' },
      key: 'agent-a:m1',
    });
    const again = await a.send({ ...at, id: 'task-k2' }, undefined, {
      input: { ...input, id: 'task-k2' },
      key: 'agent-a:m1',
    });
    expect(first).toMatchObject({ id: 'task-k1', created: true });
    expect(again).toMatchObject({ id: 'task-k1', created: false, changed: false });
    await a.deactivate(2, label, 'rebalance');
    // The new owner rebuilds the key index from the log.
    const b = mk(bus2, 'nb');
    await b.activate(2, label, await PartitionLog.open(bus2, label, 'nb'));
    const third = await b.send({ ...at, id: 'task-k3' }, undefined, {
      input: { ...input, id: 'task-k3' },
      key: 'agent-a:m1',
    });
    expect(third).toMatchObject({ id: 'task-k1', created: false });
    const other = await b.send({ ...at, id: 'task-k4' }, undefined, {
      input: { ...input, id: 'task-k4' },
      key: 'agent-a:m2',
    });
    expect(other).toMatchObject({ id: 'task-k4', created: true });
    await b.deactivate(2, label, 'shutdown');
  });

  it('drops on restore a spawn its owner took for failed that reached the log after the retry', async () => {
    // A publish whose acknowledgement timed out (a NATS server cut from the others) is a write of
    // unknown fate: the caller got an error and retried, a new owner (whose replay had not seen
    // the first write) spawned a second actor under the same key, and then the first write
    // landed. Restoring both would deliver the message twice.
    const label = partitionLabel(3, P);
    const at = { kind: 'task', partition: 3 };
    const mk = (nodeBus: Bus, nodeId: string) => {
      const h = new ActorHost({ bus: nodeBus, nodeId, partitions: P, log });
      h.define('task', taskMachine);
      return h;
    };
    const a = mk(bus, 'nr1');
    await a.activate(3, label, await PartitionLog.open(bus, label, 'nr1'));
    const retry = await a.send({ ...at, id: 'task-retry' }, undefined, {
      input: { ...input, id: 'task-retry' },
      key: 'agent-a:limbo',
    });
    expect(retry).toMatchObject({ id: 'task-retry', created: true });
    const other = await a.send({ ...at, id: 'task-other' }, undefined, {
      input: { ...input, id: 'task-other' },
      key: 'agent-a:other',
    });
    expect(other.created).toBe(true);
    await a.deactivate(3, label, 'rebalance');
    // The first attempt's write lands late: created earlier, under the same key.
    const first = createActor(taskMachine, {
      input: { ...input, id: 'task-limbo' } as TaskInput,
    }).start();
    const writer = await PartitionLog.open(bus, label, 'nr-late');
    await writer.append(subjects.actorSnapshot(label, 'task', 'task-limbo'), {
      snapshot: first.getPersistedSnapshot(),
      createdAt: Date.now() - 5000,
      key: 'agent-a:limbo',
    });
    const b = mk(bus2, 'nr2');
    await b.activate(3, label, await PartitionLog.open(bus2, label, 'nr2'));
    expect(b.localSummary()).toEqual([{ partition: label, actors: 2 }]);
    expect(await b.read({ ...at, id: 'task-retry' })).toMatchObject({ status: 'active' });
    // Deleted from the log, so no later replay meets it either.
    await vi.waitFor(async () => expect(await b.read({ ...at, id: 'task-limbo' })).toBeUndefined());
    const again = await b.send({ ...at, id: 'task-retry-2' }, undefined, {
      input: { ...input, id: 'task-retry-2' },
      key: 'agent-a:limbo',
    });
    expect(again).toMatchObject({ id: 'task-retry', created: false });
    await b.deactivate(3, label, 'shutdown');
  });

  it('lets a change nobody awaits linger and merges it with the next write', async () => {
    const label = partitionLabel(1, P);
    const h = new ActorHost({ bus, nodeId: 'nl', partitions: P, log });
    h.define('task', taskMachine);
    await h.activate(1, label, await PartitionLog.open(bus, label, 'nl'));
    const addr = { kind: 'task', id: 'task-linger', partition: 1 };
    await h.send(addr, undefined, { input: { ...input, id: 'task-linger' } });
    const lastSeq = async () => (await bus.jsm.streams.info('HUB_P01')).state.last_seq;
    const before = await lastSeq();
    // Lingering: answered at once, nothing written yet.
    const started = await h.send(addr, { type: 'task.start', at: 2 }, undefined, {
      lingerMs: 5000,
    });
    expect(started.view.value).toBe('working');
    expect(await lastSeq()).toBe(before);
    // An awaited change ends the wait: both changes go out in one write.
    const done = await h.send(addr, {
      type: 'task.respond',
      at: 3,
      by: 'agent-b',
      state: 'completed',
    });
    expect(done.view.value).toBe('completed');
    expect(await lastSeq()).toBe(before + 1);
    // Without a follow-up, a lingering change is written when the wait ends.
    const addr2 = { kind: 'task', id: 'task-linger-2', partition: 1 };
    await h.send(addr2, undefined, { input: { ...input, id: 'task-linger-2' } });
    await h.send(addr2, { type: 'task.start', at: 2 }, undefined, { lingerMs: 100 });
    await vi.waitFor(async () => {
      const stored = await bus.jsm.streams.getMessage('HUB_P01', {
        last_by_subj: subjects.actorSnapshot(label, 'task', 'task-linger-2'),
      });
      expect(stored?.json<{ snapshot: { value: string } }>().snapshot.value).toBe('working');
    });
    await h.deactivate(1, label, 'shutdown');
  });

  it('restores actors stored before the compact record (the XState persisted snapshot)', async () => {
    const label = partitionLabel(1, P);
    const writer = await PartitionLog.open(bus, label, 'nold');
    const legacy = (id: string, events: TaskEvent[]) => {
      const a = createActor(taskMachine, { input: { ...input, id } as TaskInput }).start();
      for (const e of events) a.send(e);
      return { snapshot: a.getPersistedSnapshot(), createdAt: Date.now(), key: `old:${id}` };
    };
    await writer.append(
      subjects.actorSnapshot(label, 'task', 'task-old-1'),
      legacy('task-old-1', [{ type: 'task.start', at: 2 }])
    );
    await writer.append(
      subjects.actorSnapshot(label, 'task', 'task-old-2'),
      legacy('task-old-2', [{ type: 'task.fail', at: 2, error: 'gone' }])
    );
    const h = new ActorHost({ bus: bus2, nodeId: 'nnew', partitions: P, log });
    h.define('task', taskMachine);
    await h.activate(1, label, await PartitionLog.open(bus2, label, 'nnew'));
    const one = { kind: 'task', id: 'task-old-1', partition: 1 };
    expect(await h.read(one)).toMatchObject({ value: 'working', status: 'active' });
    expect(await h.read({ ...one, id: 'task-old-2' })).toMatchObject({
      value: 'failed',
      status: 'done',
    });
    // Its spawn key still counts, and it goes on from where it was, now stored compact.
    const again = await h.send({ ...one, id: 'task-old-9' }, undefined, {
      input: { ...input, id: 'task-old-9' },
      key: 'old:task-old-1',
    });
    expect(again).toMatchObject({ id: 'task-old-1', created: false });
    const done = await h.send(one, {
      type: 'task.respond',
      at: 3,
      by: 'agent-b',
      state: 'completed',
    });
    expect(done.view).toMatchObject({ value: 'completed', status: 'done' });
    const last = await bus.jsm.streams.getMessage('HUB_P01', {
      last_by_subj: subjects.actorSnapshot(label, 'task', 'task-old-1'),
    });
    const rec = last?.json<{ snapshot: object; key: string }>();
    expect(rec).toMatchObject({
      snapshot: { value: 'completed', status: 'done' },
      key: 'old:task-old-1',
    });
    expect(Object.keys(rec!.snapshot).sort()).toEqual(['context', 'status', 'value']);
    await h.deactivate(1, label, 'shutdown');
  });

  it('keeps one stored snapshot per actor: superseded ones are deleted, leftovers at the next replay', async () => {
    const label = partitionLabel(0, P);
    const filter = subjects.actorSnapshot(label, 'task', 'task-compact');
    const stored = async () =>
      Object.values(
        (await bus.jsm.streams.info('HUB_P00', { subjects_filter: filter })).state.subjects ?? {}
      ).reduce((a, b) => a + b, 0);
    const until = async (want: number) => {
      for (let i = 0; i < 100 && (await stored()) !== want; i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      return stored();
    };
    const addr = { kind: 'task', id: 'task-compact', partition: 0 };
    const mk = (nodeBus: Bus, nodeId: string) => {
      const h = new ActorHost({ bus: nodeBus, nodeId, partitions: P, log });
      h.define('task', taskMachine);
      return h;
    };

    // A node that dies before its background deletes run: every snapshot it wrote stays.
    const a = mk(bus, 'nc1');
    const logA = await PartitionLog.open(bus, label, 'nc1');
    logA.deleteLater = () => undefined;
    await a.activate(0, label, logA);
    await a.send(addr, undefined, { input: { ...input, id: 'task-compact' } });
    await a.send(addr, { type: 'task.start', at: 2 });
    expect(await stored()).toBe(2);
    await a.deactivate(0, label, 'lock_lost');

    // The next owner restores the newest and deletes the one it superseded.
    const b = mk(bus2, 'nc2');
    await b.activate(0, label, await PartitionLog.open(bus2, label, 'nc2'));
    expect((await b.read(addr))?.value).toBe('working');
    expect(await until(1)).toBe(1);

    // Later writes replace it as they go: still one, and it is the newest.
    await b.send(addr, { type: 'task.respond', at: 3, by: 'agent-b', state: 'completed' });
    expect(await until(1)).toBe(1);
    const last = await bus.jsm.streams.getMessage('HUB_P00', { last_by_subj: filter });
    expect(last?.json<{ snapshot: { value: string } }>().snapshot.value).toBe('completed');
    await b.deactivate(0, label, 'shutdown');
  });

  it('answers unavailable when nobody owns the partition', async () => {
    const h = new ActorHost({ bus, nodeId: 'n9', partitions: P, log, handoverWaitMs: 300 });
    h.define('task', taskMachine);
    await expect(
      h.send({ kind: 'task', id: 'x', partition: 0 }, { type: 'task.start', at: 1 })
    ).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
  });
});
