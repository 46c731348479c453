// The per-recipient queue actor on the drain path, stepped without an XState interpreter. An
// interpreted actor (or even xstate's pure transition(), which builds a child actor ref for every
// invoke) cost about 220 µs per delivery, a third of the drain. queue.machine.ts stays the
// definition (printed, exported, inspected); stepQueue() is that machine as a switch, and
// queue-actor.test.ts checks the two agree on every state, event and guard outcome.
import type { QueueContext } from './queue.machine.js';
import type {
  DeliverHeadInput,
  DeliverHeadOutput,
  QueueEvent,
  QueueInput,
} from './queue.events.js';

/** The machine's leaf states (delivering and pacing are children of draining). */
export type QueueLeaf = 'idle' | 'delivering' | 'pacing' | 'waiting';

/** The machine's state value for a leaf, as XState prints it. */
export type QueueStateValue = 'idle' | 'waiting' | { draining: 'delivering' | 'pacing' };

/** Events of the machine plus the ones its invoke and delays produce. */
export type QueueStepEvent =
  | QueueEvent
  | { type: 'deliver.done'; output: DeliverHeadOutput }
  | { type: 'deliver.error'; error: unknown }
  | { type: 'after.drainInterval' }
  | { type: 'after.retryInterval' }
  | { type: 'after.busyRetryInterval' };

export interface QueueStep {
  leaf: QueueLeaf;
  context: QueueContext;
  /** The leaf was (re-)entered: start what it runs (the delivery, its timers). */
  entered: boolean;
}

export function initialQueueContext(input: QueueInput): QueueContext {
  return {
    recipientId: input.recipientId,
    transport: input.transport,
    online: input.online ?? input.transport === 'http',
    delivered: 0,
    failed: 0,
    expired: 0,
    purged: 0,
    lastSeq: null,
    lastError: null,
    lastTookMs: 0,
    wokenMeanwhile: false,
  };
}

export function valueOf(leaf: QueueLeaf): QueueStateValue {
  return leaf === 'delivering' || leaf === 'pacing' ? { draining: leaf } : leaf;
}

const stay = (leaf: QueueLeaf, context: QueueContext): QueueStep => ({
  leaf,
  context,
  entered: false,
});
const enter = (leaf: QueueLeaf, context: QueueContext): QueueStep => ({
  leaf,
  context,
  entered: true,
});
/** Entering `delivering` runs its entry action clearWoken. */
const deliver = (c: QueueContext): QueueStep =>
  enter('delivering', { ...c, wokenMeanwhile: false });

/** The machine's recordOutcome action. */
function recordOutcome(c: QueueContext, out: DeliverHeadOutput): QueueContext {
  const expired = c.expired + (out.expired ?? 0);
  switch (out.outcome) {
    case 'delivered':
      return {
        ...c,
        delivered: c.delivered + 1,
        lastSeq: out.seq,
        lastTookMs: out.tookMs ?? 0,
        online: true,
        expired,
      };
    case 'empty':
      return { ...c, expired };
    case 'busy':
      return { ...c, failed: c.failed + 1, lastError: out.reason ?? 'busy', expired };
    case 'offline':
      return {
        ...c,
        failed: c.failed + 1,
        lastError: out.reason ?? 'offline',
        online: false,
        expired,
      };
    default: {
      const never: never = out;
      return never;
    }
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** One step of queueMachine: the same targets, guards and actions, in the same order. */
export function stepQueue(leaf: QueueLeaf, c: QueueContext, e: QueueStepEvent): QueueStep {
  // Root-level handlers (no child handles these events).
  if (e.type === 'queue.expired') return stay(leaf, { ...c, expired: c.expired + e.count });
  if (e.type === 'queue.purged') return stay(leaf, { ...c, purged: c.purged + e.count });
  const isHttp = c.transport === 'http';
  switch (leaf) {
    case 'idle':
      switch (e.type) {
        case 'recipient.online':
          return deliver({ ...c, online: true });
        case 'recipient.offline':
          return isHttp
            ? enter('waiting', { ...c, online: false })
            : stay(leaf, { ...c, online: false });
        case 'queue.enqueued':
          return isHttp || c.online ? deliver(c) : stay(leaf, c);
        case 'queue.resume':
          return c.online ? deliver(c) : stay(leaf, c);
        case 'deliver.done':
        case 'deliver.error':
        case 'after.drainInterval':
        case 'after.retryInterval':
        case 'after.busyRetryInterval':
          return stay(leaf, c);
        default: {
          const never: never = e;
          return never;
        }
      }
    case 'delivering':
    case 'pacing':
      if (leaf === 'delivering') {
        if (e.type === 'recipient.online') {
          return stay(leaf, { ...c, online: true, wokenMeanwhile: true });
        }
        if (e.type === 'deliver.done') {
          const out = e.output;
          if (out.outcome === 'delivered') return enter('pacing', recordOutcome(c, out));
          if (out.outcome === 'empty') return enter('idle', recordOutcome(c, out));
          // The guard reads the context before the actions run.
          if (c.wokenMeanwhile) return deliver({ ...recordOutcome(c, out), online: true });
          if (out.outcome === 'offline' && !isHttp) return enter('idle', recordOutcome(c, out));
          return enter('waiting', recordOutcome(c, out));
        }
        if (e.type === 'deliver.error') {
          return enter('waiting', { ...c, failed: c.failed + 1, lastError: errorText(e.error) });
        }
      } else if (e.type === 'after.drainInterval' || e.type === 'queue.resume') {
        return deliver(c);
      }
      // draining's own handler.
      if (e.type === 'recipient.offline') {
        return enter(isHttp ? 'waiting' : 'idle', { ...c, online: false });
      }
      return stay(leaf, c);
    case 'waiting':
      switch (e.type) {
        case 'after.retryInterval':
          return isHttp ? deliver(c) : stay(leaf, c);
        case 'after.busyRetryInterval':
          return !isHttp && c.online ? deliver(c) : stay(leaf, c);
        case 'recipient.online':
          return deliver({ ...c, online: true });
        case 'recipient.offline':
          return isHttp
            ? stay(leaf, { ...c, online: false })
            : enter('idle', { ...c, online: false });
        case 'queue.resume':
          return enter('waiting', c);
        case 'queue.enqueued':
        case 'deliver.done':
        case 'deliver.error':
        case 'after.drainInterval':
          return stay(leaf, c);
        default: {
          const never: never = e;
          return never;
        }
      }
    default: {
      const never: never = leaf;
      return never;
    }
  }
}

export interface QueueActorHooks {
  deliverHead(input: DeliverHeadInput): Promise<DeliverHeadOutput>;
  /** The machine's delays, in ms. */
  drainInterval(c: QueueContext): number;
  retryInterval: number;
  busyRetryInterval: number;
  /** Called after a step that leaves the actor idle. */
  onIdle(): void;
}

/**
 * A running queue actor: the current leaf and context, the delivery or timer the leaf runs. Each
 * entry bumps `generation`, so the outcome of a delivery, or a timer, of a state left meanwhile is
 * ignored (as XState ignores a stopped child's done event and a canceled delayed event).
 */
export class QueueActor {
  private leaf: QueueLeaf = 'idle';
  private ctx: QueueContext;
  private generation = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    input: QueueInput,
    private readonly hooks: QueueActorHooks
  ) {
    this.ctx = initialQueueContext(input);
  }

  get value(): QueueStateValue {
    return valueOf(this.leaf);
  }

  /** The top-level state: idle, draining or waiting. */
  get state(): 'idle' | 'draining' | 'waiting' {
    return this.leaf === 'delivering' || this.leaf === 'pacing' ? 'draining' : this.leaf;
  }

  get context(): Readonly<QueueContext> {
    return this.ctx;
  }

  send(e: QueueEvent): void {
    this.step(e);
  }

  stop(): void {
    this.stopped = true;
    this.generation++;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private step(e: QueueStepEvent): void {
    if (this.stopped) return;
    const next = stepQueue(this.leaf, this.ctx, e);
    this.ctx = next.context;
    if (next.entered) {
      this.leaf = next.leaf;
      this.generation++;
      clearTimeout(this.timer);
      this.timer = undefined;
      this.run();
    }
    if (this.leaf === 'idle') this.hooks.onIdle();
  }

  /** Starts what the entered leaf runs. */
  private run(): void {
    const gen = this.generation;
    switch (this.leaf) {
      case 'delivering':
        this.hooks
          .deliverHead({ recipientId: this.ctx.recipientId, transport: this.ctx.transport })
          .then(
            (output) => {
              if (gen === this.generation) this.step({ type: 'deliver.done', output });
            },
            (error: unknown) => {
              if (gen === this.generation) this.step({ type: 'deliver.error', error });
            }
          );
        return;
      case 'pacing':
        this.after(gen, this.hooks.drainInterval(this.ctx), 'after.drainInterval');
        return;
      case 'waiting':
        // Only the delay whose guard can hold for this transport is scheduled (the transport
        // never changes); its guard is checked when it fires, as XState does.
        if (this.ctx.transport === 'http') {
          this.after(gen, this.hooks.retryInterval, 'after.retryInterval');
        } else {
          this.after(gen, this.hooks.busyRetryInterval, 'after.busyRetryInterval');
        }
        return;
      case 'idle':
        return;
      default: {
        const never: never = this.leaf;
        return never;
      }
    }
  }

  private after(
    gen: number,
    ms: number,
    type: 'after.drainInterval' | 'after.retryInterval' | 'after.busyRetryInterval'
  ): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (gen === this.generation) this.step({ type });
    }, ms);
  }
}
