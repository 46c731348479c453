// A transition table compiled from an XState machine when its kind is defined, so that the hot
// path steps an actor with a map look-up, its guards and its assign actions, instead of an XState
// actor's macrostep (getAllStateNodes, microstep) and persisted-snapshot walk (persistContext).
// The machine stays the definition: the table is built from its state nodes and runs the
// machine's own guard and assign implementations, with XState v5's semantics for what it accepts.
// A machine that needs more than that (invoke, delayed `after` events, eventless `always`,
// entry/exit actions, any action other than assign, built-in guards such as and/or/stateIn,
// wildcard event descriptors, parallel or history states, nested final states) is not compiled:
// `compileMachine` says why, and the host runs that kind as a full XState actor.
import type { AnyStateMachine, EventObject, StateValue } from 'xstate';

export type ActorStatus = 'active' | 'done' | 'error';

/** An actor's state as the host and its callers see it (and as it is stored): all JSON. */
export interface ActorState {
  readonly value: StateValue;
  readonly status: ActorStatus;
  readonly context: unknown;
}

type Context = Record<string, unknown>;
type Step = (context: Context, event: EventObject) => Context;
type Check = (context: Context, event: EventObject) => boolean;

interface Candidate {
  guard: Check | undefined;
  actions: Step[];
  /** Undefined: a targetless transition (the state stays, its actions still run). */
  target: Leaf | undefined;
}

/** An atomic or final state node: where a non-parallel machine's configuration rests. */
export interface Leaf {
  readonly value: StateValue;
  readonly final: boolean;
  /** Event type → the transitions to try, the leaf's own first, then each ancestor's, in order. */
  readonly on: Map<string, Candidate[]>;
}

// The parts of XState's StateNode and TransitionDefinition the compiler reads.
interface NodeLike {
  key: string;
  type: string;
  parent?: NodeLike;
  states: Record<string, NodeLike>;
  config: { after?: unknown };
  entry: readonly unknown[];
  exit: readonly unknown[];
  invoke: readonly unknown[];
  always?: readonly unknown[];
  initial?: { target: readonly NodeLike[]; actions: readonly unknown[] };
  transitions: Map<string, readonly TransitionLike[]>;
}
interface TransitionLike {
  target?: readonly NodeLike[];
  guard?: unknown;
  actions: readonly unknown[];
}
type Fn = (args: unknown, params: unknown) => unknown;
type ParamsOf = unknown;

class NotCompilable extends Error {}

/** The result of a step that changed the actor (undefined: the event changed nothing). */
export interface Stepped {
  leaf: Leaf;
  context: Context;
}

export class LightMachine {
  private readonly leaves = new Map<string, Leaf>();

  private constructor(
    private readonly machine: AnyStateMachine,
    private readonly initialLeaf: Leaf
  ) {}

  static compile(machine: AnyStateMachine): LightMachine | { reason: string } {
    try {
      const root = machine.root as unknown as NodeLike;
      const byNode = new Map<NodeLike, Leaf>();
      const nodes: NodeLike[] = [];
      collect(root, nodes);
      for (const n of nodes) check(n, root);
      for (const n of nodes) {
        if (n.type === 'atomic' || n.type === 'final') {
          byNode.set(n, {
            value: valueOf(n),
            final: n.type === 'final',
            on: new Map(),
          });
        }
      }
      const leafOf = (n: NodeLike): Leaf => byNode.get(descend(n))!;
      for (const [n, leaf] of byNode) {
        const chain: NodeLike[] = [];
        for (let s: NodeLike | undefined = n; s; s = s.parent) chain.push(s);
        for (const s of chain) {
          for (const [type, ts] of s.transitions) {
            const list = leaf.on.get(type) ?? [];
            for (const t of ts) list.push(compileTransition(machine, t, leafOf));
            leaf.on.set(type, list);
          }
        }
      }
      const lm = new LightMachine(machine, leafOf(root));
      for (const [n, leaf] of byNode) lm.leaves.set(pathKey(n), leaf);
      return lm;
    } catch (err) {
      if (err instanceof NotCompilable) return { reason: err.message };
      throw err;
    }
  }

  /** The initial leaf and context, as `createActor(machine, { input })` starts. */
  initial(input: unknown): Stepped {
    const factory = (this.machine.config as { context?: unknown }).context;
    const context =
      typeof factory === 'function'
        ? { ...((factory as Fn)({ input, spawn: noSpawn, self: undefined }, undefined) as Context) }
        : ((factory ?? {}) as Context);
    return { leaf: this.initialLeaf, context };
  }

  /** The leaf a stored state value names (throws for a state the machine does not have). */
  leafOf(value: StateValue): Leaf {
    const leaf = this.leaves.get(valueKey(value));
    if (!leaf) throw new Error(`machine ${this.machine.id} has no state ${JSON.stringify(value)}`);
    return leaf;
  }

  /**
   * The first enabled transition for the event (the leaf's, then its ancestors'), with its assign
   * actions applied in order. Undefined when none is enabled: as in XState, nothing changes.
   */
  step(leaf: Leaf, context: Context, event: EventObject): Stepped | undefined {
    const candidates = leaf.on.get(event.type);
    if (candidates === undefined) return undefined;
    for (const c of candidates) {
      if (c.guard !== undefined && !c.guard(context, event)) continue;
      const target = c.target ?? leaf;
      // A transition that neither moves nor assigns leaves XState's snapshot as it was.
      if (target === leaf && c.actions.length === 0) return undefined;
      let next = context;
      for (const a of c.actions) next = a(next, event);
      return { leaf: target, context: next };
    }
    return undefined;
  }
}

function collect(n: NodeLike, out: NodeLike[]): void {
  out.push(n);
  for (const child of Object.values(n.states ?? {})) collect(child, out);
}

function check(n: NodeLike, root: NodeLike): void {
  const where = n === root ? 'the root' : `state ${pathKey(n)}`;
  if (n.type === 'parallel' || n.type === 'history') {
    throw new NotCompilable(`${where} is a ${n.type} state`);
  }
  if (n.invoke.length > 0) throw new NotCompilable(`${where} invokes an actor`);
  if (n.config.after !== undefined) throw new NotCompilable(`${where} has delayed transitions`);
  if (n.always !== undefined && n.always.length > 0) {
    throw new NotCompilable(`${where} has eventless transitions`);
  }
  if (n.entry.length > 0 || n.exit.length > 0) {
    throw new NotCompilable(`${where} has entry or exit actions`);
  }
  if (n.initial !== undefined && n.initial.actions.length > 0) {
    throw new NotCompilable(`${where} has initial actions`);
  }
  if (n.type === 'final' && n.parent !== root) {
    throw new NotCompilable(`${where} is a final state inside a compound state`);
  }
  for (const [type, ts] of n.transitions) {
    if (type.includes('*') || type.startsWith('xstate.')) {
      throw new NotCompilable(`${where} answers the event descriptor ${type}`);
    }
    for (const t of ts) {
      if (t.target !== undefined && t.target.length > 1) {
        throw new NotCompilable(`${where} has a transition with several targets`);
      }
    }
  }
}

/** A compound node's initial descendants down to a leaf (no history: the rest is rejected). */
function descend(n: NodeLike): NodeLike {
  let s = n;
  while (s.type === 'compound') s = s.initial!.target[0]!;
  return s;
}

function pathOf(n: NodeLike): string[] {
  const path: string[] = [];
  for (let s: NodeLike | undefined = n; s?.parent; s = s.parent) path.unshift(s.key);
  return path;
}

function pathKey(n: NodeLike): string {
  return pathOf(n).join('.');
}

/** XState's value for a leaf: its key at the top level, `{ parent: child }` below. */
function valueOf(n: NodeLike): StateValue {
  const path = pathOf(n);
  let v: StateValue = path[path.length - 1]!;
  for (let i = path.length - 2; i >= 0; i--) v = Object.freeze({ [path[i]!]: v });
  return v;
}

function valueKey(value: StateValue): string {
  const parts: string[] = [];
  let v: unknown = value;
  while (typeof v === 'object' && v !== null) {
    const keys = Object.keys(v);
    if (keys.length !== 1) return '';
    parts.push(keys[0]!);
    v = (v as Record<string, unknown>)[keys[0]!];
  }
  if (typeof v !== 'string') return '';
  parts.push(v);
  return parts.join('.');
}

function compileTransition(
  machine: AnyStateMachine,
  t: TransitionLike,
  leafOf: (n: NodeLike) => Leaf
): Candidate {
  const target = t.target?.[0];
  return {
    guard: t.guard === undefined ? undefined : compileGuard(machine, t.guard),
    actions: t.actions.map((a) => compileAction(machine, a)),
    target: target === undefined ? undefined : leafOf(target),
  };
}

/** Name, implementation and params of a guard or action reference, as XState resolves them. */
function resolve(
  impls: Record<string, unknown>,
  ref: unknown
): { name: string; fn: unknown; params: ParamsOf } {
  if (typeof ref === 'function') {
    return { name: (ref as { name?: string }).name || '(inline)', fn: ref, params: undefined };
  }
  if (typeof ref === 'string') return { name: ref, fn: impls[ref], params: undefined };
  const o = ref as { type: string; params?: unknown };
  return { name: o.type, fn: impls[o.type], params: 'params' in o ? o.params : undefined };
}

type ParamsFn = (args: { context: Context; event: EventObject }) => unknown;

function compileGuard(machine: AnyStateMachine, ref: unknown): Check {
  const { name, fn, params } = resolve(machine.implementations.guards, ref);
  if (typeof fn !== 'function' || 'check' in fn) {
    throw new NotCompilable(`guard ${name} is not a plain guard function`);
  }
  const g = fn as Fn;
  if (typeof params === 'function') {
    const p = params as ParamsFn;
    return (context, event) => Boolean(g({ context, event }, p({ context, event })));
  }
  return (context, event) => Boolean(g({ context, event }, params));
}

function compileAction(machine: AnyStateMachine, ref: unknown): Step {
  const { name, fn, params } = resolve(machine.implementations.actions, ref);
  const assignment = (fn as { type?: string; assignment?: unknown } | undefined)?.assignment;
  if (
    typeof fn !== 'function' ||
    (fn as { type?: string }).type !== 'xstate.assign' ||
    assignment === undefined
  ) {
    throw new NotCompilable(`action ${name} is not an assign action`);
  }
  const paramsOf: (context: Context, event: EventObject) => unknown =
    typeof params === 'function'
      ? (context, event) => (params as ParamsFn)({ context, event })
      : () => params;
  // What XState's resolveAssign does: the partial update merged into a copy of the context.
  if (typeof assignment === 'function') {
    const f = assignment as Fn;
    return (context, event) => {
      const args = { context, event, spawn: noSpawn, self: undefined, system: undefined };
      return Object.assign({}, context, f(args, paramsOf(context, event)));
    };
  }
  const entries = Object.entries(assignment as Record<string, unknown>);
  return (context, event) => {
    const args = { context, event, spawn: noSpawn, self: undefined, system: undefined };
    const p = paramsOf(context, event);
    const partial: Context = {};
    for (const [k, v] of entries) partial[k] = typeof v === 'function' ? (v as Fn)(args, p) : v;
    return Object.assign({}, context, partial);
  };
}

function noSpawn(): never {
  throw new Error('a light actor cannot spawn child actors');
}
