// A machine drawn from its definition: nested states, guards, delays, machine-wide events, finals.
import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { machineGraph } from './graph.js';

const door = createMachine({
  id: 'door',
  initial: 'closed',
  on: { 'door.inspect': {}, 'door.reset': { target: '.closed' } },
  states: {
    closed: { on: { 'door.open': { target: 'open', guard: 'hasKey' } } },
    open: {
      initial: 'swinging',
      states: { swinging: { after: { settle: 'still' } }, still: {} },
      on: { 'door.close': 'closed', 'door.break': 'broken' },
    },
    broken: { type: 'final' },
  },
});

describe('machineGraph', () => {
  it('writes Mermaid: the nested state, guarded and delayed edges, events of every state', () => {
    const g = machineGraph(door, 'mermaid');
    expect(g.split('\n')[0]).toBe('stateDiagram-v2');
    expect(g).toContain('  [*] --> door_closed\n');
    expect(g).toMatch(/state "open" as door_open \{\n\s+\[\*\] --> door_open_swinging/);
    expect(g).toContain('door_closed --> door_open : door.open [hasKey]');
    expect(g).toContain('door_open_swinging --> door_open_still : after settle');
    expect(g).toContain('door_broken --> [*]');
    expect(g).toMatch(/note right of door_closed : in any state .*door\.reset/);
    expect(g).not.toMatch(/^\s+door --> /m);
  });

  it('writes DOT with final states double-ringed and the initial state marked', () => {
    const g = machineGraph(door, 'dot');
    expect(g).toMatch(/^digraph "door" \{/);
    expect(g).toContain('"door.broken" [label="broken", peripheries=2];');
    expect(g).toContain('"door.open" -> "door.broken" [label="door.break"];');
    expect(g).toContain('__start -> "door.closed";');
    expect(g.trimEnd().endsWith('}')).toBe(true);
  });
});
