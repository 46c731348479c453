// The kinds of actor a host runs and the hooks registered for each. Activation, restore, refusal
// and the host's own requests look kinds up and call hooks here, so each kind of hook has one way
// of being called (durable and refusal hooks are guarded; restore hooks are not, see below).
import type { AnyStateMachine } from 'xstate';
import type { HubError } from '../errors/index.js';
import type { MachineRegistry } from '../inspect/index.js';
import type { Logger } from '../log/index.js';
import { actorKind, type ActorKind } from './hosted-actor.js';
import type { ActorView, DurableHook, RefusedHook } from './actor-types.js';

export class ActorKinds {
  private readonly kinds = new Map<string, ActorKind>();
  private readonly durableHooks = new Map<string, DurableHook[]>();
  private readonly restoredHooks = new Map<string, DurableHook[]>();
  private readonly refusedHooks = new Map<string, RefusedHook[]>();

  constructor(
    private readonly log: Logger,
    private readonly registry: MachineRegistry | undefined
  ) {}

  /**
   * A kind's machine is compiled to a transition table here (light actors); one the table cannot
   * run (invoke, delays, actions other than assign...) runs as a full XState actor.
   */
  define(kind: string, machine: AnyStateMachine): void {
    const k = actorKind(machine);
    if (k.fullBecause !== undefined) {
      this.log.info({ kind, reason: k.fullBecause }, 'actor kind runs as a full XState actor');
    }
    this.kinds.set(kind, k);
    this.registry?.register(machine);
  }

  get(kind: string): ActorKind | undefined {
    return this.kinds.get(kind);
  }

  names(): string[] {
    return [...this.kinds.keys()];
  }

  onDurable(kind: string, hook: DurableHook): void {
    this.durableHooks.set(kind, [...(this.durableHooks.get(kind) ?? []), hook]);
  }

  onRestored(kind: string, hook: DurableHook): void {
    this.restoredHooks.set(kind, [...(this.restoredHooks.get(kind) ?? []), hook]);
  }

  onRefused(kind: string, hook: RefusedHook): void {
    this.refusedHooks.set(kind, [...(this.refusedHooks.get(kind) ?? []), hook]);
  }

  /**
   * Runs on every durable write (the hot path): the address is built only when the kind has
   * hooks, and a failing hook is logged so the write's other hooks and waiters still run.
   */
  fireDurable(
    partition: number,
    kind: string,
    id: string,
    state: ActorView,
    contextJson?: string
  ): void {
    const hooks = this.durableHooks.get(kind);
    if (!hooks) return;
    const addr = { kind, id, partition };
    for (const h of hooks) {
      try {
        h(addr, state, contextJson);
      } catch (err) {
        this.log.error({ err, kind, id }, 'durable hook failed');
      }
    }
  }

  /**
   * Not guarded: a restore hook that throws fails the partition's activation (retried later), as
   * it always has; the hooks rebuild indexes from the restored actors and must see them all.
   */
  fireRestored(partition: number, kind: string, id: string, state: ActorView): void {
    const hooks = this.restoredHooks.get(kind);
    if (!hooks) return;
    const addr = { kind, id, partition };
    for (const h of hooks) h(addr, state);
  }

  /** A failing refusal hook is logged: the actor is already back at its durable state. */
  fireRefused(partition: number, kind: string, id: string, state: ActorView, err: HubError): void {
    const hooks = this.refusedHooks.get(kind);
    if (!hooks) return;
    const addr = { kind, id, partition };
    for (const h of hooks) {
      try {
        h(addr, state, err);
      } catch (e) {
        this.log.error({ err: e, kind, id }, 'refusal hook failed');
      }
    }
  }
}
