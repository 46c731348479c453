// The actors the host runs. A kind whose machine compiles to a transition table (light-machine.ts)
// runs as a LightActor: a compact record (state value, context, status) stepped by the table, and
// stored as is. Any other kind runs as a full XState actor, stored as its persisted snapshot.
import { createActor, type AnyActorRef, type AnyStateMachine, type EventObject } from 'xstate';
import { LightMachine, type ActorState, type Leaf } from './light-machine.js';

/** What an actor's stored record restores: its state, and a full actor's persisted snapshot. */
export interface RestorePoint {
  state: ActorState;
  /** Only for a kind run as a full XState actor (its children, history...). */
  snapshot?: unknown;
}

export interface HostedActor {
  /** The current state; a new object after every change, so it can be kept as is. */
  readonly state: ActorState;
  /** Delivers an event; true when it changed the actor (an event its state ignores changes nothing). */
  send(event: EventObject): boolean;
  /** One listener, told after every change (the store). */
  subscribe(onChange: () => void): void;
  stop(): void;
  /** What the log is to hold for the current state. */
  persisted(): RestorePoint;
}

export interface ActorKind {
  readonly machine: AnyStateMachine;
  /** Why the kind runs as a full XState actor (undefined: it runs light). */
  readonly fullBecause: string | undefined;
  spawn(input: unknown, systemId: string): HostedActor;
  restore(point: RestorePoint, systemId: string): HostedActor;
}

export function actorKind(machine: AnyStateMachine): ActorKind {
  const compiled = LightMachine.compile(machine);
  if (compiled instanceof LightMachine) {
    return {
      machine,
      fullBecause: undefined,
      spawn: (input) => {
        const { leaf, context } = compiled.initial(input);
        return new LightActor(compiled, leaf, stateOf(leaf, context));
      },
      restore: (point) => {
        const leaf = compiled.leafOf(point.state.value);
        return new LightActor(compiled, leaf, point.state);
      },
    };
  }
  return {
    machine,
    fullBecause: compiled.reason,
    spawn: (input, systemId) => new FullActor(createActor(machine, { input, systemId }).start()),
    restore: (point, systemId) => {
      // A record written while the kind ran light holds no XState snapshot: resolve one.
      const snapshot =
        point.snapshot ??
        machine.resolveState({ value: point.state.value, context: point.state.context });
      return new FullActor(createActor(machine, { snapshot: snapshot as never, systemId }).start());
    },
  };
}

function stateOf(leaf: Leaf, context: unknown): ActorState {
  return { value: leaf.value, status: leaf.final ? 'done' : 'active', context };
}

export class LightActor implements HostedActor {
  private listener: (() => void) | undefined;
  private stopped = false;

  constructor(
    private readonly machine: LightMachine,
    private leaf: Leaf,
    public state: ActorState
  ) {}

  send(event: EventObject): boolean {
    if (this.stopped || this.state.status !== 'active') return false;
    let next;
    try {
      next = this.machine.step(this.leaf, this.state.context as Record<string, unknown>, event);
    } catch {
      // As an XState actor whose guard or action throws: it stops in the error status.
      this.state = { ...this.state, status: 'error' };
      this.listener?.();
      return true;
    }
    if (next === undefined) return false;
    this.leaf = next.leaf;
    this.state = stateOf(next.leaf, next.context);
    this.listener?.();
    return true;
  }

  subscribe(onChange: () => void): void {
    this.listener = onChange;
  }

  stop(): void {
    this.stopped = true;
    this.listener = undefined;
  }

  persisted(): RestorePoint {
    return { state: this.state };
  }
}

/** A kind the table cannot run: an XState actor, as before. */
class FullActor implements HostedActor {
  private seen: unknown;
  private view: ActorState | undefined;

  constructor(private readonly actor: AnyActorRef) {}

  get state(): ActorState {
    const s = this.actor.getSnapshot() as ActorState;
    if (s !== this.seen || this.view === undefined) {
      this.seen = s;
      this.view = { value: s.value, status: s.status, context: s.context };
    }
    return this.view;
  }

  send(event: EventObject): boolean {
    const before: unknown = this.actor.getSnapshot();
    this.actor.send(event);
    return this.actor.getSnapshot() !== before;
  }

  subscribe(onChange: () => void): void {
    this.actor.subscribe({ next: onChange, error: onChange });
  }

  stop(): void {
    this.actor.stop();
  }

  persisted(): RestorePoint {
    const snapshot: unknown = this.actor.getPersistedSnapshot();
    const s = snapshot as ActorState;
    return { state: { value: s.value, status: s.status, context: s.context }, snapshot };
  }
}
