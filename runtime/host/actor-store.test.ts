import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, assign } from 'xstate';
import type { PartitionLog } from '../cluster/index.js';
import { ActorStore, type Persisted } from './actor-store.js';

const counter = createMachine({
  types: {} as { context: { n: number }; events: { type: 'inc' } | { type: 'stop' } },
  context: { n: 0 },
  initial: 'on',
  states: {
    on: {
      on: { inc: { actions: assign({ n: ({ context }) => context.n + 1 }) }, stop: 'off' },
    },
    off: { type: 'final' },
  },
});

/** A log that records appends (sequences 1, 2, …) and purges; purges fail while `failPurges`. */
function fakeLog() {
  let seq = 0;
  const appends: Array<{ subject: string; seq: number }> = [];
  const purges: Array<{ subject: string; below: number }> = [];
  const state = { failPurges: 0 };
  const log = {
    append: (subject: string) => {
      const s = ++seq;
      appends.push({ subject, seq: s });
      return Promise.resolve(s);
    },
    purgeBelow: (subject: string, below: number) => {
      purges.push({ subject, below });
      if (state.failPurges > 0) {
        state.failPurges--;
        return Promise.reject(new Error('purge timed out'));
      }
      return Promise.resolve();
    },
  } as unknown as PartitionLog;
  return { log, appends, purges, state };
}

const noHooks = { durable: () => undefined, done: () => undefined };

async function settle(p: Persisted, store: ActorStore) {
  await store.durable(p);
}

describe('ActorStore', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('writes a new actor without a purge and purges superseded snapshots after the delay', async () => {
    const f = fakeLog();
    const store = new ActorStore(f.log, '00', noHooks);
    const actor = createActor(counter);
    actor.start();
    const p = store.track('c', 'one', actor, { createdAt: 1, alreadyDurable: false });
    await settle(p, store);
    await vi.advanceTimersByTimeAsync(2000);
    expect(f.appends).toHaveLength(1);
    expect(f.purges).toEqual([]);

    actor.send({ type: 'inc' });
    await settle(p, store);
    actor.send({ type: 'inc' });
    await settle(p, store);
    expect(f.purges).toEqual([]); // not on the write path
    await vi.advanceTimersByTimeAsync(2000);
    // Both rewrites merged into one purge below the newest snapshot.
    expect(f.purges).toEqual([{ subject: 'hubd.00.s.c.one', below: 3 }]);
  });

  it('purges behind the first write of a restored actor (the log holds its older snapshot)', async () => {
    const f = fakeLog();
    const store = new ActorStore(f.log, '00', noHooks);
    const actor = createActor(counter);
    actor.start();
    const p = store.track('c', 'two', actor, { createdAt: 1, alreadyDurable: true });
    actor.send({ type: 'inc' });
    await settle(p, store);
    await vi.advanceTimersByTimeAsync(2000);
    expect(f.purges).toEqual([{ subject: 'hubd.00.s.c.two', below: 1 }]);
  });

  it('tries a failed purge again, a bounded number of times, and stops once closed', async () => {
    const f = fakeLog();
    const store = new ActorStore(f.log, '00', noHooks);
    const actor = createActor(counter);
    actor.start();
    const p = store.track('c', 'three', actor, { createdAt: 1, alreadyDurable: true });
    f.state.failPurges = 10;
    actor.send({ type: 'inc' });
    await settle(p, store);
    await vi.advanceTimersByTimeAsync(5000);
    expect(f.purges).toHaveLength(3);

    store.close();
    actor.send({ type: 'inc' });
    await settle(p, store);
    await vi.advanceTimersByTimeAsync(5000);
    expect(f.purges).toHaveLength(3);
  });
});
