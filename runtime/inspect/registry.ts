// Every XState machine the hub runs, listed once so /debug and machines:export can show them.
import type { AnyStateMachine } from 'xstate';
import { machineGraph, type GraphFormat } from './graph.js';

export class MachineRegistry {
  private readonly machines = new Map<string, AnyStateMachine>();

  register(machine: AnyStateMachine): void {
    const existing = this.machines.get(machine.id);
    if (existing && existing !== machine) {
      throw new Error(`two different machines share the id "${machine.id}"`);
    }
    this.machines.set(machine.id, machine);
  }

  ids(): string[] {
    return [...this.machines.keys()].sort();
  }

  get(id: string): AnyStateMachine | undefined {
    return this.machines.get(id);
  }

  /** The machine's definition as plain JSON (states, transitions, named actions and guards). */
  definition(id: string): unknown {
    const m = this.machines.get(id);
    return m ? JSON.parse(JSON.stringify(m.toJSON())) : undefined;
  }

  /** The machine as a picture's source: Mermaid or Graphviz DOT. */
  graph(id: string, format: GraphFormat): string | undefined {
    const m = this.machines.get(id);
    return m ? machineGraph(m, format) : undefined;
  }
}
