import { describe, expect, it } from 'vitest';
import { createClaimPoller, type ClaimPollerOptions } from './claim-poller.js';

/** A table of due items claimed from the front, and the work items it started, held until released. */
function table(items: number[], maxInFlight: number, batch = 2) {
  const due = [...items];
  const claims: number[] = [];
  const working = new Map<number, () => void>();
  const done: number[] = [];
  const opts: ClaimPollerOptions<number> = {
    claim: (limit) => {
      claims.push(limit);
      return Promise.resolve(due.splice(0, limit));
    },
    start: (item) =>
      new Promise<void>((resolve) =>
        working.set(item, () => {
          working.delete(item);
          done.push(item);
          resolve();
        })
      ),
    room: () => maxInFlight - working.size,
    batch,
    pollMs: 60_000,
    onClaimError: () => undefined,
  };
  return { due, claims, working, done, opts };
}

describe('createClaimPoller', () => {
  it('claims in batches until a short batch, within the room left, and waits for the work on tick', async () => {
    const t = table([1, 2, 3, 4, 5], 10);
    const poller = createClaimPoller(t.opts);
    const ticked = poller.tick();
    await expect.poll(() => t.working.size).toBe(5);
    expect(t.claims).toEqual([2, 2, 2]);
    for (const release of [...t.working.values()]) release();
    expect(await ticked).toBe(5);
    expect(t.done).toEqual([1, 2, 3, 4, 5]);
  });

  it('stops claiming when the node is full', async () => {
    const t = table([1, 2, 3, 4, 5], 3);
    const poller = createClaimPoller(t.opts);
    const ticked = poller.tick();
    await expect.poll(() => t.working.size).toBe(3);
    expect(t.claims).toEqual([2, 1]);
    expect(t.due).toEqual([4, 5]);
    for (const release of [...t.working.values()]) release();
    expect(await ticked).toBe(3);
  });

  it('ignores wake before start; after start a wake during a claim claims again right after', async () => {
    const t = table([], 10);
    let releaseClaim: (() => void) | undefined;
    const gated: ClaimPollerOptions<number> = {
      ...t.opts,
      claim: async (limit) => {
        t.claims.push(limit);
        if (t.claims.length === 1) await new Promise<void>((r) => (releaseClaim = r));
        return t.due.splice(0, limit);
      },
    };
    const poller = createClaimPoller(gated);
    poller.wake();
    expect(t.claims).toEqual([]);
    poller.start();
    poller.wake();
    expect(t.claims).toEqual([2]);
    t.due.push(7);
    poller.wake();
    expect(t.claims).toEqual([2]);
    releaseClaim!();
    await expect.poll(() => t.claims.length).toBe(2);
    expect([...t.working.keys()]).toEqual([7]);
    const stopped = poller.stop();
    expect(poller.stopped).toBe(true);
    let ended = false;
    void stopped.then(() => (ended = true));
    await Promise.resolve();
    expect(ended).toBe(false);
    t.working.get(7)!();
    await stopped;
    poller.wake();
    expect(t.claims).toEqual([2, 2]);
  });

  it('reports a failed claim and claims again on the next wake', async () => {
    const errors: unknown[] = [];
    let fail = true;
    const t = table([1], 10);
    const poller = createClaimPoller({
      ...t.opts,
      claim: (limit) => (fail ? Promise.reject(new Error('db down')) : t.opts.claim(limit)),
      onClaimError: (err) => errors.push(err),
    });
    poller.start();
    poller.wake();
    await expect.poll(() => errors.length).toBe(1);
    fail = false;
    poller.wake();
    await expect.poll(() => t.working.size).toBe(1);
    t.working.get(1)!();
    await poller.stop();
  });
});
