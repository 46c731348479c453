import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import { cleanupMachine, msUntilNextRun } from './cleanup.machine.js';

const settle = () => new Promise<void>((r) => setImmediate(r));
const HOUR = 3_600_000;

describe('msUntilNextRun', () => {
  const day = Date.UTC(2026, 10, 21);
  it('waits until the configured minute of the same day when it is still ahead', () => {
    expect(msUntilNextRun(day + 1 * HOUR, 3 * 60)).toBe(2 * HOUR);
  });
  it('rolls over to the next day once the minute has passed (or is now)', () => {
    expect(msUntilNextRun(day + 5 * HOUR, 3 * 60)).toBe(22 * HOUR);
    expect(msUntilNextRun(day, 0)).toBe(24 * HOUR);
  });
});

describe('cleanup machine', () => {
  function start(startAt: number, minute: number) {
    const clock = new SimulatedClock();
    clock.set(startAt);
    const runs: number[] = [];
    const machine = cleanupMachine.provide({
      actors: {
        runCleanup: fromPromise<number>(() => {
          runs.push(clock.now());
          return Promise.resolve(3);
        }),
      },
      delays: { untilNextRun: () => msUntilNextRun(clock.now(), minute) },
    });
    const actor = createActor(machine, { clock }).start();
    return { clock, runs, actor };
  }

  async function advance(clock: SimulatedClock, ms: number, step = HOUR) {
    for (let t = 0; t < ms; t += step) {
      clock.increment(Math.min(step, ms - t));
      await settle();
    }
  }

  it('runs daily at 00:00 UTC by default, and only then', async () => {
    const t0 = Date.UTC(2026, 10, 21, 13, 0);
    const { clock, runs, actor } = start(t0, 0);
    await advance(clock, 10 * HOUR);
    expect(runs).toEqual([]);
    await advance(clock, 2 * HOUR);
    expect(runs).toEqual([Date.UTC(2026, 10, 22)]);
    await advance(clock, 24 * HOUR);
    expect(runs).toEqual([Date.UTC(2026, 10, 22), Date.UTC(2026, 10, 23)]);
    expect(actor.getSnapshot().context).toMatchObject({ runs: 2, lastRemoved: 3 });
    actor.stop();
  });

  it('runs at a configured time of day', async () => {
    const t0 = Date.UTC(2026, 10, 21, 1, 0);
    const { clock, runs, actor } = start(t0, 3 * 60 + 30);
    await advance(clock, 3 * HOUR, 30 * 60_000);
    expect(runs).toEqual([Date.UTC(2026, 10, 21, 3, 30)]);
    actor.stop();
  });

  it('runs at once on cleanup.now and keeps the daily schedule', async () => {
    const t0 = Date.UTC(2026, 10, 21, 22, 0);
    const { clock, runs, actor } = start(t0, 0);
    actor.send({ type: 'cleanup.now' });
    await settle();
    expect(runs).toEqual([t0]);
    await advance(clock, 2 * HOUR);
    expect(runs).toEqual([t0, Date.UTC(2026, 10, 22)]);
    actor.stop();
  });

  it('records a failed run and tries again the next day', async () => {
    const clock = new SimulatedClock();
    clock.set(Date.UTC(2026, 10, 21, 23, 0));
    let calls = 0;
    const machine = cleanupMachine.provide({
      actors: {
        runCleanup: fromPromise<number>(() => {
          calls++;
          return Promise.reject(new Error('log unavailable'));
        }),
      },
      delays: { untilNextRun: () => msUntilNextRun(clock.now(), 0) },
    });
    const actor = createActor(machine, { clock }).start();
    await advance(clock, 2 * HOUR);
    expect(actor.getSnapshot().context.lastError).toBe('log unavailable');
    expect(actor.getSnapshot().value).toBe('scheduled');
    await advance(clock, 24 * HOUR);
    expect(calls).toBe(2);
    actor.stop();
  });
});
