// Live inspection of hosted actors for /debug/inspect, in the event format the Stately inspector
// reads (@statelyai/inspect's StatelyInspectionEvent: `@xstate.actor` when an actor is seen,
// `@xstate.event` for each event delivered to it, `@xstate.snapshot` for each state it moves to).
// The host runs most kinds as light actors (no XState actor, so no XState inspect callback): it
// reports to this object instead, and only while someone watches (`active`), so an unwatched hub
// pays one property read per event.
import { randomUUID } from 'node:crypto';
import type { AnyStateMachine, EventObject } from 'xstate';

/** Which actors a watcher sees: every actor of `kind`, or the one actor `kind`:`id`. */
export interface InspectFilter {
  readonly kind?: string;
  readonly id?: string;
}

interface BaseEvent {
  /** The actor: its system id `<kind>:<id>`, stable across restarts and nodes. */
  sessionId: string;
  /** Hosted actors are roots: their own session. */
  rootId: string;
  /** epoch ms, as a string (the inspector's format) */
  createdAt: string;
  id: string;
  _version: string;
}

export interface InspectedSnapshot {
  status: string;
  value: unknown;
  context: unknown;
}

export type InspectionEvent =
  | (BaseEvent & {
      type: '@xstate.actor';
      name: string;
      definition: string | undefined;
      parentId: undefined;
      snapshot: InspectedSnapshot;
    })
  | (BaseEvent & { type: '@xstate.event'; event: EventObject; sourceId: undefined })
  | (BaseEvent & { type: '@xstate.snapshot'; event: EventObject; snapshot: InspectedSnapshot });

/** The @statelyai/inspect protocol version these events follow. */
export const INSPECT_PROTOCOL_VERSION = '0.4.0';

interface Watcher {
  filter: InspectFilter;
  send(event: InspectionEvent): void;
}

export class ActorInspection {
  readonly #watchers = new Set<Watcher>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** True while at least one watcher is connected: the host reports nothing otherwise. */
  get active(): boolean {
    return this.#watchers.size > 0;
  }

  /** Sends matching events to `send` until the returned function is called. */
  watch(filter: InspectFilter, send: (event: InspectionEvent) => void): () => void {
    const w: Watcher = { filter, send };
    this.#watchers.add(w);
    return () => this.#watchers.delete(w);
  }

  /** An actor came into view (spawned). */
  actor(kind: string, id: string, machine: AnyStateMachine, state: InspectedSnapshot): void {
    this.#emit(kind, id, (base) => actorEvent(base, machine, state));
  }

  /** The `@xstate.actor` event for an actor, for one watcher (a watch that begins late). */
  actorEventOf(
    kind: string,
    id: string,
    machine: AnyStateMachine,
    state: InspectedSnapshot
  ): InspectionEvent {
    return actorEvent(this.#base(kind, id), machine, state);
  }

  /** An event is delivered to the actor (whether or not its state accepts it). */
  event(kind: string, id: string, event: EventObject): void {
    this.#emit(kind, id, (base) => ({
      ...base,
      type: '@xstate.event',
      event,
      sourceId: undefined,
    }));
  }

  /** The actor moved to `state` because of `event`. */
  snapshot(kind: string, id: string, state: InspectedSnapshot, event: EventObject): void {
    this.#emit(kind, id, (base) => ({
      ...base,
      type: '@xstate.snapshot',
      event,
      snapshot: snapshotOf(state),
    }));
  }

  /** Whether a watcher wants actor `kind`:`id`. */
  watches(kind: string, id: string): boolean {
    for (const w of this.#watchers) if (matches(w.filter, kind, id)) return true;
    return false;
  }

  #emit(kind: string, id: string, make: (base: BaseEvent) => InspectionEvent): void {
    let event: InspectionEvent | undefined;
    for (const w of this.#watchers) {
      if (!matches(w.filter, kind, id)) continue;
      event ??= make(this.#base(kind, id));
      w.send(event);
    }
  }

  #base(kind: string, id: string): BaseEvent {
    const sessionId = `${kind}:${id}`;
    return {
      sessionId,
      rootId: sessionId,
      createdAt: String(this.#now()),
      id: randomUUID(),
      _version: INSPECT_PROTOCOL_VERSION,
    };
  }
}

function actorEvent(
  base: BaseEvent,
  machine: AnyStateMachine,
  state: InspectedSnapshot
): InspectionEvent {
  return {
    ...base,
    type: '@xstate.actor',
    name: machine.id,
    definition: definitionOf(machine),
    parentId: undefined,
    snapshot: snapshotOf(state),
  };
}

function matches(f: InspectFilter, kind: string, id: string): boolean {
  return (f.kind === undefined || f.kind === kind) && (f.id === undefined || f.id === id);
}

/** What the inspector draws: XState's snapshot fields, plain JSON. */
function snapshotOf(s: InspectedSnapshot): InspectedSnapshot & Record<string, unknown> {
  return {
    status: s.status,
    value: s.value,
    context: s.context,
    children: {},
    historyValue: {},
    tags: [],
  };
}

const definitions = new WeakMap<AnyStateMachine, string>();

/** The machine's config as JSON, implementations named by their function names (the inspector's way). */
function definitionOf(machine: AnyStateMachine): string {
  let d = definitions.get(machine);
  if (d === undefined) {
    d = JSON.stringify(machine.config, (_key, value: unknown) =>
      typeof value === 'function' ? { type: (value as { name: string }).name } : value
    );
    definitions.set(machine, d);
  }
  return d;
}
