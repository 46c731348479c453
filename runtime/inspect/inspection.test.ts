// ActorInspection: events reach only the watchers whose filter names the actor, in the Stately
// inspector's shape, and nothing is active once the last watcher leaves.
import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { ActorInspection, type InspectionEvent } from './index.js';

const machine = createMachine({ id: 'toggle', initial: 'off', states: { off: {}, on: {} } });
const state = { status: 'active', value: 'on', context: { n: 1 } };

describe('ActorInspection', () => {
  it('sends each watcher the events of the actors its filter names', () => {
    const insp = new ActorInspection(() => 1_700_000_000_000);
    expect(insp.active).toBe(false);
    const byKind: InspectionEvent[] = [];
    const byId: InspectionEvent[] = [];
    const stopKind = insp.watch({ kind: 'task' }, (e) => byKind.push(e));
    insp.watch({ id: 't-2' }, (e) => byId.push(e));
    expect(insp.active).toBe(true);
    insp.actor('task', 't-1', machine, state);
    insp.event('task', 't-2', { type: 'go' });
    insp.snapshot('queue', 't-2', state, { type: 'go' });
    insp.event('queue', 'q-1', { type: 'ignored' });
    expect(byKind.map((e) => [e.type, e.sessionId])).toEqual([
      ['@xstate.actor', 'task:t-1'],
      ['@xstate.event', 'task:t-2'],
    ]);
    expect(byId.map((e) => [e.type, e.sessionId])).toEqual([
      ['@xstate.event', 'task:t-2'],
      ['@xstate.snapshot', 'queue:t-2'],
    ]);
    expect(byKind[0]).toMatchObject({
      name: 'toggle',
      rootId: 'task:t-1',
      createdAt: '1700000000000',
      snapshot: { status: 'active', value: 'on', context: { n: 1 } },
    });
    expect(JSON.parse((byKind[0] as { definition: string }).definition)).toMatchObject({
      id: 'toggle',
      initial: 'off',
    });
    stopKind();
    expect(insp.watches('task', 't-1')).toBe(false);
    expect(insp.watches('task', 't-2')).toBe(true);
  });
});
