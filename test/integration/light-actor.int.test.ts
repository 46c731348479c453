// The light actor against XState's own actor, on the hub's real machines: the same random event
// sequences go to `createActor(machine)` and to the host's light actor, and after every step both
// hold the same state value, status and context, and agree on whether the event changed anything.
// Every few steps both are stored and restored (XState from its persisted snapshot, the light
// actor from its compact record) and go on from there. No server: it lives here because it joins
// runtime/host and actors/, which only test/ may.
import { describe, expect, it } from 'vitest';
import { createActor, type AnyActorRef, type AnyStateMachine, type EventObject } from 'xstate';
import {
  cleanupMachine,
  queueMachine,
  taskMachine,
  type QueueEvent,
  type TaskEvent,
  type TaskInput,
} from '../../actors/index.js';
import { agentWorkerMachine } from '../../agents/kit/index.js';
import { actorKind, type HostedActor } from '../../runtime/host/hosted-actor.js';
import { fromRecord, toRecord, type StoredActor } from '../../runtime/host/actor-record.js';

/** A small seeded generator (mulberry32): the same sequences on every run. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
    chance: (p: number) => next() < p,
  };
}
type Rng = ReturnType<typeof rng>;

const SENDER = 'agent-a';
const RECIPIENT = 'agent-b';
const taskInput = (r: Rng, i: number): TaskInput => ({
  id: `task-${i}`,
  contextId: `ctx-${i}`,
  senderId: SENDER,
  recipientId: RECIPIENT,
  senderTenantId: 't1',
  recipientTenantId: 't2',
  message: { role: 'user', messageId: `m-${i}`, parts: [{ kind: 'text', text: 'hi' }] },
  at: 1000 + i,
  ...(r.chance(0.3) ? { queued: true } : {}),
  ...(r.chance(0.2) ? { configuration: { blocking: r.chance(0.5) } } : {}),
});

function taskEvent(r: Rng, at: number): TaskEvent {
  const by = () => r.pick([SENDER, RECIPIENT, RECIPIENT, 'agent-x']);
  const message = () => ({
    role: r.pick(['user', 'agent'] as const),
    messageId: `m-${at}`,
    parts: [{ kind: 'text' as const, text: `t${at}` }],
  });
  switch (
    r.pick([
      'start',
      'queued',
      'redeliver',
      'respond',
      'respond',
      'input',
      'cancel',
      'expire',
      'fail',
    ])
  ) {
    case 'start':
      return { type: 'task.start', at, ...(r.chance(0.5) ? { node: r.pick(['n1', 'n2']) } : {}) };
    case 'queued':
      return { type: 'task.queued', at };
    case 'redeliver':
      return { type: 'task.redeliver', at };
    case 'respond':
      return {
        type: 'task.respond',
        at,
        by: by(),
        state: r.pick([
          'working',
          'working',
          'completed',
          'failed',
          'rejected',
          'input-required',
        ] as const),
        ...(r.chance(0.6) ? { message: message() } : {}),
        ...(r.chance(0.3) ? { statusText: `s${at}` } : {}),
        ...(r.chance(0.4)
          ? {
              artifact: {
                artifactId: r.pick(['a1', 'a2']),
                parts: [{ kind: 'text' as const, text: `p${at}` }],
              },
            }
          : {}),
        ...(r.chance(0.3) ? { lastChunk: r.chance(0.5) } : {}),
        ...(r.chance(0.2) ? { remoteTaskId: `remote-${at}` } : {}),
      };
    case 'input':
      return { type: 'task.input', at, by: by(), message: message() };
    case 'cancel':
      return { type: 'task.cancel', at, by: by(), ...(r.chance(0.5) ? { reason: 'bye' } : {}) };
    case 'expire':
      return { type: 'task.expire', at };
    default:
      return { type: 'task.fail', at, error: `e${at}` };
  }
}

const plain = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

function sameState(light: HostedActor, full: AnyActorRef): void {
  const s = full.getSnapshot() as { value: unknown; status: string; context: unknown };
  expect(light.state.value).toEqual(s.value);
  expect(light.state.status).toBe(s.status);
  expect(light.state.context).toEqual(s.context);
  // As stored: the JSON both would write.
  expect(plain(light.state.context)).toEqual(plain(s.context));
}

/** Drives both actors through `steps` events; returns how many changed the state. */
function race(
  machine: AnyStateMachine,
  input: unknown,
  steps: number,
  event: (at: number) => EventObject,
  r: Rng
): { changes: number; done: boolean } {
  const kind = actorKind(machine);
  expect(kind.fullBecause).toBeUndefined();
  let light = kind.spawn(input, 'x:1');
  let full = createActor(machine, { input }).start();
  sameState(light, full);
  let changes = 0;
  for (let i = 0; i < steps; i++) {
    if (full.getSnapshot().status !== 'active') break;
    const e = event(2000 + i);
    const before: unknown = full.getSnapshot();
    full.send(e);
    const fullChanged = full.getSnapshot() !== before;
    expect(light.send(e)).toBe(fullChanged);
    sameState(light, full);
    if (fullChanged) changes++;
    if (r.chance(0.2)) {
      // Stored and restored, each the way it is written to the log.
      const persisted = plain(full.getPersistedSnapshot());
      full.stop();
      full = createActor(machine, { snapshot: persisted as never }).start();
      const record = plain(toRecord(light.persisted(), 1, 'key')) as StoredActor;
      // Compact: the state alone, not XState's persisted snapshot (children, history...).
      expect(Object.keys(record.snapshot).sort()).toEqual(['context', 'status', 'value']);
      light = kind.restore(fromRecord(record).point, 'x:1');
      sameState(light, full);
    }
  }
  return { changes, done: full.getSnapshot().status === 'done' };
}

describe('light actor ≡ XState actor', () => {
  it('task machine: 2,000 random lives give the same state after every event', () => {
    const r = rng(19);
    let changes = 0;
    let done = 0;
    for (let i = 0; i < 2000; i++) {
      const res = race(taskMachine, taskInput(r, i), 40, (at) => taskEvent(r, at), r);
      changes += res.changes;
      if (res.done) done++;
    }
    // The sequences reach the machine's transitions, not only ignored events.
    expect(changes).toBeGreaterThan(2000);
    expect(done).toBeGreaterThan(1000);
  });

  it('task machine: every final state is reached', () => {
    const r = rng(7);
    const finals = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const kind = actorKind(taskMachine);
      const a = kind.spawn(taskInput(r, i), 't');
      for (let j = 0; j < 40 && a.state.status === 'active'; j++) a.send(taskEvent(r, j));
      if (a.state.status === 'done') finals.add(a.state.value as string);
    }
    expect([...finals].sort()).toEqual(['canceled', 'completed', 'failed', 'rejected']);
  });

  it('reads a record in the older snapshot shape', () => {
    const r = rng(3);
    const input = taskInput(r, 1);
    const full = createActor(taskMachine, { input }).start();
    full.send({ type: 'task.start', at: 2 });
    const legacy = plain({ snapshot: full.getPersistedSnapshot(), createdAt: 5, key: 'k' });
    const decoded = fromRecord(legacy as StoredActor);
    expect(decoded).toMatchObject({ createdAt: 5, key: 'k' });
    const light = actorKind(taskMachine).restore(decoded.point, 't');
    sameState(light, full);
    const e: TaskEvent = { type: 'task.respond', at: 3, by: RECIPIENT, state: 'completed' };
    full.send(e);
    expect(light.send(e)).toBe(true);
    sameState(light, full);
    expect(light.state.status).toBe('done');
  });

  it('queue, cleanup and worker machines invoke actors and wait: they run as full actors', () => {
    expect(actorKind(queueMachine).fullBecause).toMatch(/invokes an actor|delayed/);
    expect(actorKind(cleanupMachine).fullBecause).toMatch(/invokes an actor|delayed/);
    expect(actorKind(agentWorkerMachine).fullBecause).toMatch(/invokes an actor/);
  });

  it('queue machine as a full actor: the host kind steps as createActor does, and restores', () => {
    const r = rng(11);
    const kind = actorKind(queueMachine);
    const events = (): QueueEvent =>
      r.pick<QueueEvent>([
        { type: 'recipient.online' },
        { type: 'recipient.offline' },
        { type: 'queue.enqueued', seq: 1 },
        { type: 'queue.resume' },
        { type: 'queue.expired', count: 2 },
        { type: 'queue.purged', count: 1 },
      ]);
    for (let i = 0; i < 50; i++) {
      const input = { recipientId: `r${i}`, transport: r.pick(['http', 'websocket'] as const) };
      const hosted = kind.spawn(input, `queue:r${i}`);
      const full = createActor(queueMachine, { input }).start();
      for (let j = 0; j < 20; j++) {
        const e = events();
        full.send(e);
        hosted.send(e);
        expect(hosted.state.value).toEqual(full.getSnapshot().value);
        expect(hosted.state.context).toEqual(full.getSnapshot().context);
      }
      const back = kind.restore(
        fromRecord(plain(toRecord(hosted.persisted(), 1, undefined)) as StoredActor).point,
        `queue:r${i}b`
      );
      expect(back.state.value).toEqual(hosted.state.value);
      expect(back.state.context).toEqual(hosted.state.context);
      hosted.stop();
      back.stop();
      full.stop();
    }
  });
});
