import { describe, expect, it } from 'vitest';
import { createSuspectLane } from './suspect-lane.js';

/** A task the test finishes by hand. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('createSuspectLane', () => {
  it('runs at most `concurrency` at once, the rest in order, and refuses beyond maxWaiting', async () => {
    const lane = createSuspectLane({ concurrency: 2, maxWaiting: 2 });
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    let running = 0;
    let peak = 0;
    const runs = gates.map((g, i) =>
      lane.run(async () => {
        started.push(i);
        peak = Math.max(peak, ++running);
        await g.promise;
        running--;
        return i;
      })
    );
    // The fifth finds two running and two waiting: refused without running.
    expect(await runs[4]).toEqual({ ran: false });
    expect(started).toEqual([0, 1]);
    gates[1]!.resolve();
    expect(await runs[1]).toEqual({ ran: true, value: 1 });
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.resolve();
    expect(await Promise.all(runs.slice(0, 4))).toEqual(
      [0, 1, 2, 3].map((value) => ({ ran: true, value }))
    );
    expect(started).toEqual([0, 1, 2, 3]);
    expect(peak).toBe(2);
    // Every slot was given back: two run at once again.
    const again = [deferred(), deferred()];
    let now = 0;
    const more = again.map((g) => lane.run(async () => (now++, await g.promise)));
    await Promise.resolve();
    expect(now).toBe(2);
    for (const g of again) g.resolve();
    await Promise.all(more);
  });

  it('gives the slot back when the look-up throws', async () => {
    const lane = createSuspectLane({ concurrency: 1, maxWaiting: 0 });
    await expect(lane.run(() => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await lane.run(() => Promise.resolve(7))).toEqual({ ran: true, value: 7 });
  });
});
