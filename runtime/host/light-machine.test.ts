import { describe, expect, it } from 'vitest';
import {
  and,
  assign,
  createActor,
  createMachine,
  fromPromise,
  setup,
  type AnyStateMachine,
  type EventObject,
} from 'xstate';
import { actorKind } from './hosted-actor.js';
import { fromRecord, toRecord, type StoredActor } from './actor-record.js';

// A machine with what the table compiles beyond the task machine: nested states, transitions on
// ancestors and on the root, compound targets entered at their initial leaf, `#id` targets,
// targetless and action-less transitions, reenter, params (static and computed), object and
// function assigns, inline guards and assigns.
type Ev =
  | { type: 'go' }
  | { type: 'in'; n: number }
  | { type: 'deep' }
  | { type: 'back' }
  | { type: 'again' }
  | { type: 'noop' }
  | { type: 'reset' }
  | { type: 'stop' };
const nested = setup({
  types: { context: {} as { n: number; log: string[]; last?: string }, events: {} as Ev },
  guards: {
    over: ({ context }, params: { limit: number }) => context.n > params.limit,
    even: ({ event }) => event.type === 'in' && event.n % 2 === 0,
  },
  actions: {
    add: assign({ n: ({ context, event }) => context.n + (event.type === 'in' ? event.n : 1) }),
    note: assign(({ context }, params: { tag: string }) => ({ log: [...context.log, params.tag] })),
    clear: assign({ last: undefined }),
  },
}).createMachine({
  id: 'nested',
  context: { n: 0, log: [] },
  initial: 'off',
  on: {
    reset: { target: '.off', actions: assign({ n: 0 }) },
    noop: {},
  },
  states: {
    off: {
      on: {
        go: 'on',
        in: [
          { guard: 'even', actions: 'add' },
          { actions: { type: 'note', params: { tag: 'odd' } } },
        ],
      },
    },
    on: {
      initial: 'a',
      on: {
        in: [
          {
            guard: { type: 'over', params: { limit: 10 } },
            target: '#nested.done',
            actions: ['add', 'clear'],
          },
          { actions: 'add' },
        ],
        back: 'off',
        again: { target: 'on', reenter: true },
      },
      states: {
        a: {
          on: {
            deep: 'b',
            go: { target: 'a' },
            in: {
              guard: ({ event }) => event.type === 'in' && event.n === 7,
              actions: [
                {
                  type: 'note',
                  params: ({ context }: { context: { n: number } }) => ({
                    tag: `seven@${context.n}`,
                  }),
                },
                assign({ last: 'seven' }),
              ],
            },
          },
        },
        b: {
          initial: 'x',
          states: { x: { on: { deep: 'y' } }, y: { on: { deep: '#nested.on' } } },
        },
      },
    },
    done: { type: 'final' },
  },
});

const EVENTS: Ev[] = [
  { type: 'go' },
  { type: 'in', n: 1 },
  { type: 'in', n: 2 },
  { type: 'in', n: 7 },
  { type: 'deep' },
  { type: 'back' },
  { type: 'again' },
  { type: 'noop' },
  { type: 'reset' },
  { type: 'stop' },
];

function lockstep(machine: AnyStateMachine, input: unknown, events: EventObject[]): void {
  const kind = actorKind(machine);
  expect(kind.fullBecause).toBeUndefined();
  let light = kind.spawn(input, 'k:1');
  const full = createActor(machine, { input }).start();
  for (const e of events) {
    if (full.getSnapshot().status !== 'active') break;
    const before: unknown = full.getSnapshot();
    full.send(e);
    const s = full.getSnapshot() as { value: unknown; status: string; context: unknown };
    expect(light.send(e), `${e.type}`).toBe(s !== before);
    expect(light.state).toEqual({ value: s.value, status: s.status, context: s.context });
    const stored = JSON.parse(JSON.stringify(toRecord(light.persisted(), 1, undefined)));
    light = kind.restore(fromRecord(stored as StoredActor).point, 'k:1');
  }
}

describe('light machine (transition table)', () => {
  it('steps a nested machine as XState does, event by event (random sequences)', () => {
    let seed = 1;
    const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < 300; i++) {
      const events = Array.from({ length: 30 }, () => EVENTS[Math.floor(rand() * EVENTS.length)]!);
      lockstep(nested, undefined, events);
    }
  });

  it('an event the state does not answer, or a transition that neither moves nor assigns, changes nothing', () => {
    const a = actorKind(nested).spawn(undefined, 'k');
    const s = a.state;
    expect(a.send({ type: 'deep' })).toBe(false);
    expect(a.send({ type: 'noop' })).toBe(false);
    expect(a.state).toBe(s);
    expect(a.send({ type: 'go' })).toBe(true);
    expect(a.state.value).toEqual({ on: 'a' });
    const on = a.state;
    expect(a.send({ type: 'go' })).toBe(false);
    expect(a.state).toBe(on);
  });

  it('reaches a final state: status done, and events are ignored after', () => {
    const a = actorKind(nested).spawn(undefined, 'k');
    a.send({ type: 'go' });
    a.send({ type: 'in', n: 11 } as EventObject);
    expect(a.send({ type: 'in', n: 1 } as EventObject)).toBe(true);
    expect(a.state).toMatchObject({ value: 'done', status: 'done', context: { n: 12 } });
    expect(a.send({ type: 'reset' })).toBe(false);
  });

  it('tells the listener after each change, and only then', () => {
    const a = actorKind(nested).spawn(undefined, 'k');
    let told = 0;
    a.subscribe(() => told++);
    a.send({ type: 'deep' });
    a.send({ type: 'go' });
    a.send({ type: 'in', n: 3 } as EventObject);
    expect(told).toBe(2);
    a.stop();
    expect(a.send({ type: 'back' })).toBe(false);
  });

  it('an action that throws leaves the actor in the error status, as XState does', () => {
    const m = createMachine({
      context: { n: 0 },
      on: {
        boom: {
          actions: assign(() => {
            throw new Error('boom');
          }),
        },
      },
    });
    const a = actorKind(m).spawn(undefined, 'k');
    const full = createActor(m).start();
    full.subscribe({ error: () => {} });
    full.send({ type: 'boom' });
    expect(a.send({ type: 'boom' })).toBe(true);
    expect(a.state.status).toBe(full.getSnapshot().status);
    expect(a.send({ type: 'boom' })).toBe(false);
  });

  it('the record holds the compact state (value, status, context), creation time and key', () => {
    const a = actorKind(nested).spawn(undefined, 'k');
    a.send({ type: 'go' });
    expect(toRecord(a.persisted(), 42, 'key-1')).toEqual({
      snapshot: { value: { on: 'a' }, status: 'active', context: { n: 0, log: [] } },
      createdAt: 42,
      key: 'key-1',
    });
    expect(toRecord(a.persisted(), 42, undefined)).not.toHaveProperty('key');
  });

  it('does not compile what it cannot run, and says why', () => {
    const why = (m: AnyStateMachine) => actorKind(m).fullBecause;
    expect(why(createMachine({ initial: 'a', states: { a: { entry: () => {} } } }))).toMatch(
      /entry or exit/
    );
    expect(
      why(createMachine({ initial: 'a', states: { a: { after: { 10: 'b' } }, b: {} } }))
    ).toMatch(/delayed/);
    expect(
      why(
        createMachine({
          initial: 'a',
          states: { a: { invoke: { src: fromPromise(() => Promise.resolve(1)) } } },
        })
      )
    ).toMatch(/invokes/);
    expect(why(createMachine({ initial: 'a', states: { a: { always: 'b' }, b: {} } }))).toMatch(
      /eventless/
    );
    expect(why(createMachine({ type: 'parallel', states: { a: {}, b: {} } }))).toMatch(/parallel/);
    expect(why(createMachine({ on: { '*': {} } }))).toMatch(/descriptor/);
    expect(why(createMachine({ on: { e: { actions: () => {} } } }))).toMatch(/not an assign/);
    expect(
      why(createMachine({ on: { e: { guard: and([() => true, () => true]), actions: [] } } }))
    ).toMatch(/not a plain guard/);
    expect(
      why(
        createMachine({
          initial: 'a',
          states: { a: { initial: 'x', states: { x: { type: 'final' } } } },
        })
      )
    ).toMatch(/final state inside/);
  });

  it('a kind it cannot compile still runs, as a full XState actor stored as its snapshot', () => {
    const m = createMachine({
      initial: 'a',
      context: { n: 1 },
      states: { a: { entry: assign({ n: 2 }), on: { e: 'b' } }, b: { entry: () => {} } },
    });
    const kind = actorKind(m);
    const a = kind.spawn(undefined, 'k:9');
    expect(a.state).toEqual({ value: 'a', status: 'active', context: { n: 2 } });
    expect(a.send({ type: 'e' })).toBe(true);
    const stored = JSON.parse(JSON.stringify(toRecord(a.persisted(), 3, undefined)));
    expect(stored).toMatchObject({ snapshot: { value: 'b', children: {} }, createdAt: 3 });
    const back = kind.restore(fromRecord(stored as StoredActor).point, 'k:9b');
    expect(back.state.value).toBe('b');
    a.stop();
    back.stop();
  });
});
