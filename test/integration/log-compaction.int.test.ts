// Bulk compaction of a partition's log against a real nats-server: many snapshot writes, then a
// compaction that copies forward what is needed (live actors, recent finals), archives old finals,
// and purges the rest with one unfiltered purge; never a delete request. A takeover afterwards
// restores the same actors; a stale owner's compaction purges nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import type { Subscription } from '@nats-io/nats-core';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import {
  connectBus,
  isNoMessage,
  partitionLabel,
  provision,
  streams,
  subjects,
  type Bus,
} from '../../runtime/bus/index.js';
import { PartitionLog } from '../../runtime/cluster/index.js';
import { ActorHost } from '../../runtime/host/index.js';
import { silentLogger as log } from '../../runtime/log/index.js';
import { createMetrics, type HubMetrics } from '../../runtime/metrics/index.js';

const P = 2;
const WINDOW_MS = 1500;
/** The hosts' clock: the wall clock moved on by `skew`, so a test passes the window at once. */
let skew = 0;
const clock = () => Date.now() + skew;
let nats: NatsServerHandle;
let bus: Bus;
let bus2: Bus;
let deletes = 0;
let deleteSub: Subscription;

const counterMachine = setup({
  types: {
    context: {} as { n: number },
    events: {} as { type: 'inc' } | { type: 'finish' },
    input: {} as { n: number },
  },
  actions: { bump: assign({ n: ({ context }) => context.n + 1 }) },
}).createMachine({
  id: 'counter',
  context: ({ input }) => ({ n: input.n }),
  initial: 'counting',
  states: {
    counting: { on: { inc: { actions: 'bump' }, finish: 'finished' } },
    finished: { type: 'final' },
  },
});

beforeAll(async () => {
  nats = await startNatsServer();
  bus = await connectBus({ servers: [nats.url], name: 'c1', replicas: 1, log });
  bus2 = await connectBus({ servers: [nats.url], name: 'c2', replicas: 1, log });
  await provision(bus, { partitions: P, replicas: 1, nodeTtlMs: 3000 });
  // Every delete-by-sequence request any client sends, whatever the stream.
  deleteSub = bus2.nc.subscribe('$JS.API.STREAM.MSG.DELETE.>', {
    callback: () => void deletes++,
  });
});

afterAll(async () => {
  deleteSub?.unsubscribe();
  await bus?.close();
  await bus2?.close();
  await nats?.close();
});

function host(b: Bus, nodeId: string, metrics?: HubMetrics): ActorHost {
  const h = new ActorHost({
    bus: b,
    nodeId,
    partitions: P,
    log,
    idempotencyWindowMs: WINDOW_MS,
    now: clock,
    ...(metrics ? { metrics } : {}),
  });
  h.define('counter', counterMachine);
  return h;
}

async function openLog(b: Bus, label: string, nodeId: string, metrics?: HubMetrics) {
  return PartitionLog.open(b, label, nodeId, {
    compaction: { minRecords: 300, factor: 4 },
    log,
    ...(metrics ? { metrics } : {}),
  });
}

const streamState = async (label: string) =>
  (await bus.jsm.streams.info(streams.partition(label))).state;

async function lastInLog(label: string, id: string): Promise<unknown> {
  try {
    const m = await bus.jsm.streams.getMessage(streams.partition(label), {
      last_by_subj: subjects.actorSnapshot(label, 'counter', id),
    });
    return m?.json<{ snapshot: { context: unknown } }>().snapshot.context;
  } catch (err) {
    if (isNoMessage(err)) return undefined;
    throw err;
  }
}

async function archived(id: string): Promise<unknown> {
  try {
    const m = await bus.jsm.streams.getMessage(streams.archive, {
      last_by_subj: subjects.archivedActor('counter', id),
    });
    return m?.json<{ snapshot: { context: unknown } }>().snapshot.context;
  } catch (err) {
    if (isNoMessage(err)) return undefined;
    throw err;
  }
}

async function until(what: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const t0 = Date.now();
  while (!(await what())) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function compactions(metrics: HubMetrics, result: string): Promise<number> {
  const m = (await metrics.registry.getMetricsAsJSON()).find(
    (x) => x.name === 'burrow_log_compactions_total'
  );
  return (m?.values ?? [])
    .filter((v) => v.labels.result === result)
    .reduce((a, v) => a + v.value, 0);
}

describe('partition log compaction', () => {
  it('copies forward what is needed, archives old finals, purges the rest without deletes', async () => {
    const label = partitionLabel(0, P);
    const metrics = createMetrics({ defaultMetrics: false });
    const a = host(bus, 'na', metrics);
    const logA = await openLog(bus, label, 'na', metrics);
    await a.activate(0, label, logA);
    logA.startCompaction();
    const at = (id: string) => ({ kind: 'counter', id, partition: 0 });
    const spawn = (id: string, key?: string) =>
      a.send(at(id), undefined, { input: { n: 0 }, ...(key ? { key } : {}) });

    // Finished long ago (beyond the window by the time the log is compacted): archived.
    for (let i = 0; i < 30; i++) {
      await spawn(`old${i}`);
      await a.send(at(`old${i}`), { type: 'inc' });
      await a.send(at(`old${i}`), { type: 'finish' });
    }
    for (let i = 0; i < 20; i++) await spawn(`live${i}`);
    // Time passes beyond the window (on the hosts' clock) before the next finals.
    skew += WINDOW_MS + 200;
    // Finished just now: stays in the log (a new owner rebuilds the spawn keys from it).
    for (let i = 0; i < 10; i++) {
      await spawn(`recent${i}`, `key-${i}`);
      await a.send(at(`recent${i}`), { type: 'finish' });
    }
    expect(await compactions(metrics, 'done')).toBe(0);
    const before = await streamState(label);
    expect(before.first_seq).toBe(1);

    // Churn: many superseded snapshots of the live actors, until the log is compacted.
    const expected = new Map<string, number>();
    for (let round = 0; round < 25; round++) {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => a.send(at(`live${i}`), { type: 'inc' }))
      );
    }
    for (let i = 0; i < 20; i++) expected.set(`live${i}`, 25);
    await until(async () => (await compactions(metrics, 'done')) >= 1);
    await logA.compactionIdle();

    const after = await streamState(label);
    expect(after.first_seq).toBeGreaterThan(before.last_seq);
    // The live actors, the recent finals and the markers are all that is left.
    expect(after.messages).toBeLessThan(100);
    expect(deletes).toBe(0);
    // Old finals: gone from the log, in the archive, and readable through the host.
    for (let i = 0; i < 30; i++) {
      expect(await lastInLog(label, `old${i}`)).toBeUndefined();
      expect(await archived(`old${i}`)).toEqual({ n: 1 });
      expect((await a.read(at(`old${i}`)))?.status).toBe('done');
    }
    // Recent finals: still in the log.
    for (let i = 0; i < 10; i++) expect(await lastInLog(label, `recent${i}`)).toEqual({ n: 0 });
    // Live actors: their newest state is in the log.
    for (const [id, n] of expected) expect(await lastInLog(label, id)).toEqual({ n });

    // A takeover restores the same actors from what the compaction left.
    await a.deactivate(0, label, 'lock_lost');
    logA.close();
    const b = host(bus2, 'nb');
    const logB = await openLog(bus2, label, 'nb');
    await b.activate(0, label, logB);
    expect(b.localSummary()).toEqual([{ partition: label, actors: 20 }]);
    for (const [id, n] of expected) {
      const v = await b.read(at(id));
      expect(v).toMatchObject({ status: 'active', context: { n } });
    }
    // The spawn keys of the recent finals came back with them: a repeat returns the first actor.
    const repeat = await b.send(at('another'), undefined, { input: { n: 9 }, key: 'key-3' });
    expect(repeat).toMatchObject({ id: 'recent3', created: false });
    expect((await b.read(at('old7')))?.context).toEqual({ n: 1 });
    const next = await b.send(at('live5'), { type: 'inc' });
    expect(next.view.context).toEqual({ n: 26 });
    await b.deactivate(0, label, 'shutdown');
    logB.close();
    expect(deletes).toBe(0);
  });

  it('a stale owner compacting after a takeover purges nothing', async () => {
    const label = partitionLabel(1, P);
    const metrics = createMetrics({ defaultMetrics: false });
    const a = host(bus, 'sa', metrics);
    const logA = await openLog(bus, label, 'sa', metrics);
    await a.activate(1, label, logA);
    const at = (id: string) => ({ kind: 'counter', id, partition: 1 });
    for (let i = 0; i < 10; i++) await a.send(at(`s${i}`), undefined, { input: { n: 0 } });
    for (let round = 0; round < 35; round++) {
      await Promise.all(Array.from({ length: 10 }, (_, i) => a.send(at(`s${i}`), { type: 'inc' })));
    }
    // Another node takes the partition over (A does not know yet: its lock expired while paused).
    const b = host(bus2, 'sb');
    const logB = await openLog(bus2, label, 'sb');
    await b.activate(1, label, logB);
    const before = await streamState(label);
    // A wakes up and compacts: its first copy is fenced, so nothing is purged.
    logA.startCompaction();
    await logA.compactIfDue();
    expect(await compactions(metrics, 'aborted')).toBe(1);
    expect(await compactions(metrics, 'done')).toBe(0);
    // (Pipelined copies after the fenced one may still land: the k-th expects A's tail + k. They
    // are the same states, and B's next write is fenced in turn; what matters is that no purge ran.)
    const after = await streamState(label);
    expect(after.first_seq).toBe(before.first_seq);
    expect(after.messages).toBeGreaterThanOrEqual(before.messages);
    for (let i = 0; i < 10; i++) expect(await lastInLog(label, `s${i}`)).toEqual({ n: 35 });
    await a.deactivate(1, label, 'fenced');
    await b.deactivate(1, label, 'shutdown');
    logA.close();
    logB.close();
    expect(deletes).toBe(0);
  });
});
