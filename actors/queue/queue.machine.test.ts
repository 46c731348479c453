import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import { queueMachine } from './queue.machine.js';
import type { DeliverHeadInput, DeliverHeadOutput, QueueInput } from './queue.events.js';

const ws: QueueInput = { recipientId: 'agent-r', transport: 'websocket' };
const http: QueueInput = { recipientId: 'agent-h', transport: 'http' };

/** Lets promise settlements and the transitions they cause run. */
const settle = () => new Promise<void>((r) => setImmediate(r));

/**
 * A fake recipient behind deliverHead: `queue` holds seqs; `mode` decides what an attempt reports.
 * Every attempt is recorded with the simulated time it started at.
 */
function fakeRecipient(clock: SimulatedClock, count: number) {
  const state = {
    queue: Array.from({ length: count }, (_, i) => i + 1),
    mode: 'ok' as 'ok' | 'busy' | 'offline' | 'throw',
    attempts: [] as Array<{ at: number; outcome: string }>,
    delivered: [] as Array<{ seq: number; at: number }>,
  };
  const deliverHead = fromPromise<DeliverHeadOutput, DeliverHeadInput>(async () => {
    const at = clock.now();
    if (state.mode === 'throw') {
      state.attempts.push({ at, outcome: 'error' });
      throw new Error('endpoint exploded');
    }
    if (state.mode !== 'ok') {
      state.attempts.push({ at, outcome: state.mode });
      return { outcome: state.mode, reason: `recipient ${state.mode}` };
    }
    const seq = state.queue.shift();
    state.attempts.push({ at, outcome: seq === undefined ? 'empty' : 'delivered' });
    if (seq === undefined) return { outcome: 'empty' };
    state.delivered.push({ seq, at });
    return Promise.resolve({ outcome: 'delivered', seq });
  });
  return { state, machine: queueMachine.provide({ actors: { deliverHead } }) };
}

/** Advances simulated time in small steps, letting promises settle in between. */
async function advance(clock: SimulatedClock, ms: number, step = 10): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    clock.increment(Math.min(step, ms - t));
    await settle();
  }
}

describe('queue machine', () => {
  it('has a stable definition (a changed graph shows up as a snapshot diff)', () => {
    expect(JSON.parse(JSON.stringify(queueMachine.toJSON()))).toMatchSnapshot();
  });

  it('stays idle while a WebSocket recipient is offline, whatever is enqueued', async () => {
    const clock = new SimulatedClock();
    const { state, machine } = fakeRecipient(clock, 3);
    const a = createActor(machine, { input: ws, clock }).start();
    a.send({ type: 'queue.enqueued', seq: 1 });
    await advance(clock, 10_000, 1_000);
    expect(a.getSnapshot().value).toBe('idle');
    expect(state.attempts).toEqual([]);
  });

  it('drains FIFO at exactly 10 per second once the recipient comes online, then goes idle', async () => {
    const clock = new SimulatedClock();
    const { state, machine } = fakeRecipient(clock, 25);
    const a = createActor(machine, { input: ws, clock }).start();
    a.send({ type: 'recipient.online' });
    await settle();
    expect(a.getSnapshot().matches({ draining: 'pacing' })).toBe(true);
    await advance(clock, 3_000);
    expect(state.delivered.map((d) => d.seq)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    const first = state.delivered[0]!.at;
    const last = state.delivered[24]!.at;
    expect(last - first).toBeGreaterThanOrEqual(2_400);
    expect(last - first).toBeLessThanOrEqual(2_500);
    // No two deliveries closer than 100 ms: never faster than 10/s in any window.
    for (let i = 1; i < 25; i++) {
      expect(state.delivered[i]!.at - state.delivered[i - 1]!.at).toBeGreaterThanOrEqual(100);
    }
    expect(a.getSnapshot().value).toBe('idle');
    expect(a.getSnapshot().context).toMatchObject({ delivered: 25, lastSeq: 25, failed: 0 });
  });

  it('pauses when a WebSocket recipient goes offline and resumes where it stopped on online', async () => {
    const clock = new SimulatedClock();
    const { state, machine } = fakeRecipient(clock, 10);
    const a = createActor(machine, { input: ws, clock }).start();
    a.send({ type: 'recipient.online' });
    await advance(clock, 350);
    expect(state.delivered).toHaveLength(4);
    a.send({ type: 'recipient.offline' });
    expect(a.getSnapshot().value).toBe('idle');
    await advance(clock, 60_000, 1_000);
    expect(state.delivered).toHaveLength(4);
    a.send({ type: 'recipient.online' });
    await advance(clock, 1_000);
    expect(state.delivered.map((d) => d.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('goes idle when deliverHead finds the socket gone, and waits when it is busy', async () => {
    const clock = new SimulatedClock();
    const { state, machine } = fakeRecipient(clock, 5);
    const a = createActor(machine, { input: ws, clock }).start();
    state.mode = 'offline';
    a.send({ type: 'recipient.online' });
    await settle();
    expect(a.getSnapshot().value).toBe('idle');
    expect(a.getSnapshot().context).toMatchObject({
      online: false,
      lastError: 'recipient offline',
    });

    state.mode = 'busy';
    a.send({ type: 'recipient.online' });
    await settle();
    expect(a.getSnapshot().value).toBe('waiting');
    // A busy socket is tried again after busyRetryInterval (5 s), or at once on recipient.online.
    state.mode = 'ok';
    await advance(clock, 4_900, 100);
    expect(state.delivered).toHaveLength(0);
    await advance(clock, 100, 100);
    expect(state.delivered).toEqual([{ seq: 1, at: 5_000 }]);
    expect(a.getSnapshot().matches('draining')).toBe(true);
  });

  it('retries an HTTP recipient every 5 minutes until the endpoint answers', async () => {
    const clock = new SimulatedClock();
    const { state, machine } = fakeRecipient(clock, 2);
    const a = createActor(machine, { input: http, clock }).start();
    // The direct delivery just failed: the host says so before announcing the queued message.
    a.send({ type: 'recipient.offline' });
    a.send({ type: 'queue.enqueued', seq: 1 });
    expect(a.getSnapshot().value).toBe('waiting');
    state.mode = 'offline';
    await advance(clock, 15 * 60_000 + 1_000, 1_000);
    expect(state.attempts.map((x) => x.at)).toEqual([300_000, 600_000, 900_000]);
    expect(a.getSnapshot().value).toBe('waiting');
    state.mode = 'throw';
    await advance(clock, 5 * 60_000, 1_000);
    expect(a.getSnapshot().context).toMatchObject({ failed: 4, lastError: 'endpoint exploded' });
    state.mode = 'ok';
    await advance(clock, 5 * 60_000 + 500, 100);
    expect(state.delivered.map((d) => [d.seq, d.at])).toEqual([
      [1, 1_500_000],
      [2, 1_500_100],
    ]);
    expect(a.getSnapshot().value).toBe('idle');
    expect(a.getSnapshot().context).toMatchObject({ online: true, delivered: 2, failed: 4 });
  });

  it('delivers at once to an HTTP recipient that is not known to be failing', async () => {
    const clock = new SimulatedClock();
    const { state, machine } = fakeRecipient(clock, 1);
    const a = createActor(machine, { input: http, clock }).start();
    a.send({ type: 'queue.enqueued', seq: 1 });
    await settle();
    expect(state.delivered).toEqual([{ seq: 1, at: 0 }]);
  });

  it('counts expired and purged messages reported by the index', () => {
    const a = createActor(queueMachine, { input: ws }).start();
    a.send({ type: 'queue.expired', count: 3 });
    a.send({ type: 'queue.purged', count: 2 });
    expect(a.getSnapshot().context).toMatchObject({ expired: 3, purged: 2 });
    expect(a.getSnapshot().value).toBe('idle');
  });

  it('fails attempts clearly when the host did not provide deliverHead', async () => {
    const a = createActor(queueMachine, { input: ws, clock: new SimulatedClock() }).start();
    a.send({ type: 'recipient.online' });
    await settle();
    expect(a.getSnapshot().value).toBe('waiting');
    expect(a.getSnapshot().context.lastError).toMatch(/did not provide deliverHead/);
  });

  it('survives a persist/restore round trip (context is plain JSON) and keeps draining', async () => {
    const clock = new SimulatedClock();
    const { state, machine } = fakeRecipient(clock, 6);
    const a = createActor(machine, { input: ws, clock }).start();
    a.send({ type: 'recipient.online' });
    await advance(clock, 250);
    expect(state.delivered).toHaveLength(3);
    const persisted = JSON.parse(JSON.stringify(a.getPersistedSnapshot())) as object;
    a.stop();
    const b = createActor(machine, { snapshot: persisted as never, input: ws, clock }).start();
    expect(b.getSnapshot().value).toEqual(a.getSnapshot().value);
    expect(b.getSnapshot().context).toEqual(a.getSnapshot().context);
    // A persisted snapshot holds no timers: the host resumes a restored actor.
    b.send({ type: 'queue.resume' });
    await advance(clock, 1_000);
    expect(state.delivered.map((d) => d.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(b.getSnapshot().value).toBe('idle');
    expect(b.getSnapshot().context.delivered).toBe(6);
  });

  it('restores a waiting HTTP queue and a mid-delivery snapshot without losing the schedule', async () => {
    const clock = new SimulatedClock();
    const { state, machine } = fakeRecipient(clock, 1);
    const a = createActor(machine, { input: http, clock }).start();
    a.send({ type: 'recipient.offline' });
    const persisted = JSON.parse(JSON.stringify(a.getPersistedSnapshot())) as object;
    a.stop();
    const b = createActor(machine, { snapshot: persisted as never, input: http, clock }).start();
    b.send({ type: 'queue.resume' });
    await advance(clock, 300_000, 1_000);
    expect(state.delivered).toEqual([{ seq: 1, at: 300_000 }]);

    // Persisted while deliverHead was running: the resumed actor asks again, exactly once.
    let release: (v: DeliverHeadOutput) => void = () => {};
    let calls = 0;
    const hanging = queueMachine.provide({
      actors: {
        deliverHead: fromPromise<DeliverHeadOutput, DeliverHeadInput>(() => {
          calls++;
          return new Promise((r) => (release = r));
        }),
      },
    });
    const c = createActor(hanging, { input: ws, clock }).start();
    c.send({ type: 'recipient.online' });
    const mid = JSON.parse(JSON.stringify(c.getPersistedSnapshot())) as object;
    c.stop();
    const d = createActor(hanging, { snapshot: mid as never, input: ws, clock }).start();
    d.send({ type: 'queue.resume' });
    await settle();
    expect(calls).toBe(2);
    release({ outcome: 'empty' });
    await settle();
    expect(d.getSnapshot().value).toBe('idle');
  });

  it.each(['offline', 'busy'] as const)(
    'retries at once when the recipient came online during an attempt that ended %s',
    async (missed) => {
      const clock = new SimulatedClock();
      const attempts: Array<(o: DeliverHeadOutput) => void> = [];
      const deliverHead = fromPromise<DeliverHeadOutput, DeliverHeadInput>(
        () => new Promise((resolve) => attempts.push(resolve))
      );
      const machine = queueMachine.provide({ actors: { deliverHead } });
      const a = createActor(machine, { input: { ...ws, online: true }, clock }).start();
      a.send({ type: 'queue.enqueued', seq: 1 });
      await settle();
      expect(attempts).toHaveLength(1);
      // The attempt looked before the socket existed; the socket's wake-up comes meanwhile.
      a.send({ type: 'recipient.online' });
      attempts[0]!({ outcome: missed, reason: `recipient ${missed}` });
      await settle();
      expect(attempts).toHaveLength(2);
      expect(a.getSnapshot().matches({ draining: 'delivering' })).toBe(true);
      attempts[1]!({ outcome: 'delivered', seq: 1 });
      await settle();
      expect(a.getSnapshot().context).toMatchObject({ delivered: 1, online: true });
      a.stop();
    }
  );
});
