import { describe, expect, it, vi } from 'vitest';
import { initialTransition, transition, type AnyEventObject } from 'xstate';
import { queueMachine } from './queue.machine.js';
import {
  QueueActor,
  initialQueueContext,
  stepQueue,
  valueOf,
  type QueueLeaf,
  type QueueStepEvent,
} from './queue-actor.js';
import type { DeliverHeadOutput, QueueInput, QueueTransport } from './queue.events.js';

type Snap = ReturnType<typeof initialTransition<typeof queueMachine>>[0];
type Action = { type: string; params?: unknown };

function leafOf(value: unknown): QueueLeaf {
  if (value === 'idle' || value === 'waiting') return value;
  return (value as { draining: 'delivering' | 'pacing' }).draining;
}

/** What an XState step started: a delivery, and the delays it scheduled (by name). */
function effectsOf(actions: Action[]) {
  const delays = actions
    .filter(
      (a) => a.type === 'xstate.raise' && (a.params as { delay?: number }).delay !== undefined
    )
    .map((a) => (a.params as { event: { type: string } }).event.type.split('.')[2]!)
    .sort();
  return { delivers: actions.some((a) => a.type === 'xstate.spawnChild'), delays };
}

/** The same, as the light actor's host would start them for an entered leaf. */
function expectedEffects(leaf: QueueLeaf, transport: QueueTransport, entered: boolean) {
  if (!entered) return { delivers: false, delays: [] as string[] };
  if (leaf === 'delivering') return { delivers: true, delays: [] };
  if (leaf === 'pacing') return { delivers: false, delays: ['drainInterval'] };
  // XState schedules both of waiting's delays; the host only the one whose guard can hold.
  if (leaf === 'waiting')
    return { delivers: false, delays: ['busyRetryInterval', 'retryInterval'] };
  return { delivers: false, delays: [] };
}

/** The XState event for a light-actor event, in the state XState is in. */
function toXState(s: Snap, e: QueueStepEvent): AnyEventObject {
  const child = Object.keys(s.children)[0] ?? 'none';
  switch (e.type) {
    case 'deliver.done':
      return { type: `xstate.done.actor.${child}`, output: e.output };
    case 'deliver.error':
      return { type: `xstate.error.actor.${child}`, error: e.error };
    case 'after.drainInterval':
      return { type: 'xstate.after.drainInterval.queue.draining.pacing' };
    case 'after.retryInterval':
      return { type: 'xstate.after.retryInterval.queue.waiting' };
    case 'after.busyRetryInterval':
      return { type: 'xstate.after.busyRetryInterval.queue.waiting' };
    case 'recipient.online':
    case 'recipient.offline':
    case 'queue.enqueued':
    case 'queue.resume':
    case 'queue.expired':
    case 'queue.purged':
      return e;
    default: {
      const never: never = e;
      return never;
    }
  }
}

const outputs: DeliverHeadOutput[] = [
  { outcome: 'delivered', seq: 7, tookMs: 12, expired: 1 },
  { outcome: 'delivered', seq: 9 },
  { outcome: 'empty' },
  { outcome: 'empty', expired: 2 },
  { outcome: 'busy', reason: 'recipient busy' },
  { outcome: 'offline', reason: 'recipient offline' },
  { outcome: 'offline' },
];

/** Events a host can send in a leaf (a delivery's outcome only while delivering, a delay only in its state). */
function eventsFor(leaf: QueueLeaf): QueueStepEvent[] {
  const always: QueueStepEvent[] = [
    { type: 'recipient.online' },
    { type: 'recipient.offline' },
    { type: 'queue.enqueued', seq: 3 },
    { type: 'queue.resume' },
    { type: 'queue.expired', count: 2 },
    { type: 'queue.purged', count: 1 },
  ];
  if (leaf === 'delivering') {
    return [
      ...always,
      ...outputs.map((output) => ({ type: 'deliver.done' as const, output })),
      { type: 'deliver.error', error: new Error('log broke') },
    ];
  }
  if (leaf === 'pacing') return [...always, { type: 'after.drainInterval' }];
  if (leaf === 'waiting') {
    return [...always, { type: 'after.retryInterval' }, { type: 'after.busyRetryInterval' }];
  }
  return always;
}

/** A small deterministic PRNG (the walk must be reproducible). */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

describe('queue actor (the queue machine stepped as a switch)', () => {
  it('agrees with the XState machine on every event of a long random walk', () => {
    const rand = rng(19);
    let compared = 0;
    for (const input of [
      { recipientId: 'agent-w', transport: 'websocket', online: false },
      { recipientId: 'agent-w', transport: 'websocket', online: true },
      { recipientId: 'agent-h', transport: 'http' },
      { recipientId: 'agent-h', transport: 'http', online: false },
    ] satisfies QueueInput[]) {
      let [snap] = initialTransition(queueMachine, input);
      let leaf: QueueLeaf = 'idle';
      let ctx = initialQueueContext(input);
      expect(ctx).toEqual(snap.context);
      for (let i = 0; i < 800; i++) {
        const options = eventsFor(leaf);
        const e = options[Math.floor(rand() * options.length)]!;
        const [next, actions] = transition(queueMachine, snap, toXState(snap, e) as never);
        const step = stepQueue(leaf, ctx, e);
        expect(valueOf(step.leaf), `after ${e.type} in ${leaf}`).toEqual(next.value);
        expect(step.context, `after ${e.type} in ${leaf}`).toEqual(next.context);
        const entered = step.entered;
        expect(effectsOf(actions as Action[]), `effects of ${e.type} in ${leaf}`).toEqual(
          expectedEffects(step.leaf, input.transport, entered)
        );
        snap = next;
        leaf = leafOf(next.value);
        ctx = step.context;
        compared++;
      }
    }
    expect(compared).toBe(3200);
  }, 60_000);

  it('drains at its pacing, ignores a stale delivery, and stops cleanly', async () => {
    const seen: number[] = [];
    let n = 0;
    let idle = 0;
    const a = new QueueActor(
      { recipientId: 'agent-w', transport: 'websocket', online: true },
      {
        deliverHead: () => {
          n++;
          seen.push(performance.now());
          return Promise.resolve(
            n <= 3 ? { outcome: 'delivered', seq: n, tookMs: 0 } : { outcome: 'empty' }
          );
        },
        drainInterval: () => 20,
        retryInterval: 1000,
        busyRetryInterval: 1000,
        onIdle: () => idle++,
      }
    );
    a.send({ type: 'queue.enqueued', seq: 1 });
    expect(a.state).toBe('draining');
    // Waits for the drain to end rather than a fixed time.
    await vi.waitFor(
      () => {
        expect(n).toBe(4);
        expect(a.state).toBe('idle');
      },
      { timeout: 5000, interval: 5 }
    );
    expect(a.context.delivered).toBe(3);
    expect(idle).toBeGreaterThan(0);
    // 20 ms from one delivery's start to the next.
    for (let i = 1; i < 4; i++) expect(seen[i]! - seen[i - 1]!).toBeGreaterThanOrEqual(18);

    // A delivery still running when the actor leaves `delivering` does not move it afterwards.
    let finish!: (o: DeliverHeadOutput) => void;
    const b = new QueueActor(
      { recipientId: 'agent-w', transport: 'websocket', online: true },
      {
        deliverHead: () => new Promise<DeliverHeadOutput>((res) => (finish = res)),
        drainInterval: () => 20,
        retryInterval: 1000,
        busyRetryInterval: 1000,
        onIdle: () => undefined,
      }
    );
    b.send({ type: 'recipient.online' });
    b.send({ type: 'recipient.offline' });
    expect(b.state).toBe('idle');
    finish({ outcome: 'delivered', seq: 1 });
    await new Promise((r) => setTimeout(r, 10));
    expect(b.state).toBe('idle');
    expect(b.context.delivered).toBe(0);
    b.stop();
    b.send({ type: 'recipient.online' });
    expect(b.state).toBe('idle');
  });
});
