// The actor host: runs actors (each kind defined by an XState machine, stepped as a light actor;
// see hosted-actor.ts) inside the partitions this node owns, restores them from the partition log
// on activation, persists every state change, and routes events to the owner of an actor's
// partition wherever it runs (locally, or by a NATS request to the owner).
import type { AnyStateMachine, EventObject } from 'xstate';
import type { Subscription } from '@nats-io/nats-core';
import { DeliverPolicy } from '@nats-io/jetstream';
import {
  decodeJson,
  encodeJson,
  idleGuard,
  isNoMessage,
  partitionLabel,
  streams,
  subjects,
  type Bus,
} from '../bus/index.js';
import type { HandoverReason, PartitionHandler, PartitionLog } from '../cluster/index.js';
import { HubError, UnavailableError, ensureHubError, toWire } from '../errors/index.js';
import type {
  ActorInspection,
  InspectFilter,
  InspectionEvent,
  MachineRegistry,
} from '../inspect/index.js';
import { throttledLog, type Logger, type ThrottledLog } from '../log/index.js';
import type { HubMetrics } from '../metrics/index.js';
import { callOwner, respondOwner, type OwnerReply } from './owner-rpc.js';
import { ActorStore, type Persisted } from './actor-store.js';
import { ActorLogHolder, readArchived } from './actor-log-holder.js';
import { fromRecord, type StoredActor } from './actor-record.js';
import { actorKind, type ActorKind } from './hosted-actor.js';

export interface ActorAddress {
  kind: string;
  id: string;
  partition: number;
}

/** What callers see of an actor: its state value, status and context (all JSON). */
export interface ActorView {
  value: unknown;
  status: string;
  context: unknown;
}

export interface SpawnOptions {
  input: unknown;
  /** Spawn at most once per key within the idempotency window; a repeat returns the first actor. */
  key?: string;
}

export interface SendResult {
  /** The actor's id: the one asked for, or the earlier actor's when the spawn key was seen. */
  id: string;
  view: ActorView;
  /** The event moved the actor (false: ignored in its current state, or a repeated spawn). */
  changed: boolean;
  created: boolean;
}

/** Called on the owner after a state of an actor of this kind is durable. */
export type DurableHook = (addr: ActorAddress, snapshot: ActorView) => void;

/**
 * Called on the owner after a write of an actor was refused and the actor was put back to its last
 * durable state (`snapshot`): the change that could not be stored is gone, `error` says why.
 */
export type RefusedHook = (addr: ActorAddress, snapshot: ActorView, error: HubError) => void;

export interface ActorHostOptions {
  bus: Bus;
  nodeId: string;
  partitions: number;
  log: Logger;
  metrics?: HubMetrics;
  registry?: MachineRegistry;
  /** Live inspection (/debug/inspect): told of spawns, events and transitions while watched. */
  inspection?: ActorInspection;
  /** How long a caller keeps retrying while a partition changes owner. */
  handoverWaitMs?: number;
  requestTimeoutMs?: number;
  /** How long a spawn key is remembered (decisions.md §7: 2 minutes). */
  idempotencyWindowMs?: number;
  now?: () => number;
}

interface PartitionRuntime {
  partition: number;
  label: string;
  store: ActorStore;
  actors: Map<string, Persisted>;
  /** spawn key → actor id, in insertion (= time) order so expiry prunes from the front. */
  keys: Map<string, { id: string; at: number }>;
  sub: Subscription;
}

type Request = {
  op: 'send';
  kind: string;
  id: string;
  event?: EventObject;
  spawn?: SpawnOptions;
  /** Answer before the change is durable; write it within this many ms (merged with later ones). */
  lingerMs?: number;
};
type Reply = OwnerReply<SendResult | null>;

/** A log replay that receives nothing for this long fails the activation (retried later). */
const REPLAY_IDLE_MS = 10_000;
/**
 * Refused writes in a row after which an actor is given up (it leaves memory; the log keeps its
 * last durable state, restored on the next activation): a change a refusal hook makes that is
 * refused in turn must not loop.
 */
const MAX_REFUSALS_IN_A_ROW = 8;
const key = (kind: string, id: string) => `${kind}:${id}`;

export class ActorHost implements PartitionHandler {
  /** Every snapshot this host writes is covered by its ActorLogHolder: its logs may be compacted. */
  readonly holdsLogRecords = true;
  private readonly kinds = new Map<string, ActorKind>();
  private readonly hooks = new Map<string, DurableHook[]>();
  private readonly restoredHooks = new Map<string, DurableHook[]>();
  private readonly refusedHooks = new Map<string, RefusedHook[]>();
  private readonly throttled: ThrottledLog;
  private readonly parts = new Map<number, PartitionRuntime>();
  private lookupSub: Subscription | undefined;
  private readonly now: () => number;
  private readonly windowMs: number;

  constructor(private readonly o: ActorHostOptions) {
    this.now = o.now ?? Date.now;
    this.windowMs = o.idempotencyWindowMs ?? 120_000;
    this.throttled = throttledLog(o.log);
  }

  /**
   * A kind's machine is compiled to a transition table here (light actors); one the table cannot
   * run (invoke, delays, actions other than assign...) runs as a full XState actor.
   */
  define(kind: string, machine: AnyStateMachine): void {
    const k = actorKind(machine);
    if (k.fullBecause !== undefined) {
      this.o.log.info({ kind, reason: k.fullBecause }, 'actor kind runs as a full XState actor');
    }
    this.kinds.set(kind, k);
    this.o.registry?.register(machine);
  }

  onDurable(kind: string, hook: DurableHook): void {
    this.hooks.set(kind, [...(this.hooks.get(kind) ?? []), hook]);
  }

  /** Called for every stored actor of this kind read while a partition activates (live or finished). */
  onRestored(kind: string, hook: DurableHook): void {
    this.restoredHooks.set(kind, [...(this.restoredHooks.get(kind) ?? []), hook]);
  }

  /** Called when a change of an actor of this kind could not be stored and was undone. */
  onRefused(kind: string, hook: RefusedHook): void {
    this.refusedHooks.set(kind, [...(this.refusedHooks.get(kind) ?? []), hook]);
  }

  /** Listen for debug look-ups of actors held here. */
  start(): void {
    this.lookupSub = this.o.bus.nc.subscribe(subjects.actorLookup, {
      callback: (_err, msg) => {
        const { systemId } = decodeJson<{ systemId: string }>(msg.data);
        const hit = this.localBySystemId(systemId);
        if (hit) msg.respond(encodeJson({ snapshot: debugRecord(hit) }));
      },
    });
  }

  stop(): void {
    this.lookupSub?.unsubscribe();
  }

  owns(partition: number): boolean {
    return this.parts.has(partition);
  }

  // ---- PartitionHandler -------------------------------------------------------------------

  async activate(partition: number, label: string, log: PartitionLog): Promise<void> {
    const actors = new Map<string, Persisted>();
    const store = new ActorStore(log, label, {
      durable: (p, snapshot) => this.fireHooks(partition, p, snapshot),
      done: (p) => {
        // A finished actor stays in the log (readable, and its spawn key still counts) but leaves
        // memory; compaction later copies its final forward or to the archive.
        if (p.storedSeq !== undefined) {
          holder.finished(subjects.actorSnapshot(label, p.kind, p.id), p.storedSeq);
        }
        actors.delete(key(p.kind, p.id));
        p.actor.stop();
        this.o.metrics?.actorsActive.dec({ kind: p.kind });
      },
      refused: (p, err) => this.refused(partition, store, holder, actors, keys, p, err),
    });
    const holder = new ActorLogHolder({
      bus: this.o.bus,
      log,
      label,
      live: () => actors.values(),
      rewrite: (p) => store.rewrite(p),
      windowMs: this.windowMs,
      now: this.now,
      idleMs: REPLAY_IDLE_MS,
      logger: this.o.log,
      ...(this.o.metrics ? { metrics: this.o.metrics } : {}),
    });
    log.addHolder(holder);
    const keys = new Map<string, { id: string; at: number }>();
    await this.restore(partition, label, store, holder, actors, keys);
    const rt: PartitionRuntime = { partition, label, store, actors, keys, sub: undefined as never };
    rt.sub = this.o.bus.nc.subscribe(subjects.partitionRequest(label, 'actor'), {
      callback: (_err, msg) => {
        void this.serve(decodeJson<Request>(msg.data), partition).then((r) =>
          respondOwner(this.o.bus, msg, r)
        );
      },
    });
    this.parts.set(partition, rt);
  }

  async deactivate(partition: number, _label: string, reason: HandoverReason): Promise<void> {
    const rt = this.parts.get(partition);
    if (!rt) return;
    this.parts.delete(partition);
    // Stop taking requests first: callers retry and reach the next owner.
    rt.sub.unsubscribe();
    if (reason !== 'fenced' && reason !== 'lock_lost') {
      await Promise.allSettled([...rt.actors.values()].map((p) => rt.store.durable(p)));
    }
    for (const p of rt.actors.values()) {
      p.actor.stop();
      this.o.metrics?.actorsActive.dec({ kind: p.kind });
    }
    rt.actors.clear();
  }

  // ---- API for any node ---------------------------------------------------------------------

  /**
   * Deliver an event to an actor, spawning it from `spawn.input` when it does not exist yet, and
   * resolve once the resulting state is durable. Without `spawn`, a missing actor is NOT_FOUND.
   */
  async send<E extends EventObject>(
    addr: ActorAddress,
    event: E | undefined,
    spawn?: SpawnOptions,
    opts: { lingerMs?: number } = {}
  ): Promise<SendResult> {
    const req: Request = { op: 'send', kind: addr.kind, id: addr.id };
    if (event) req.event = event;
    if (spawn) req.spawn = spawn;
    if (opts.lingerMs) req.lingerMs = opts.lingerMs;
    const r = await this.route(addr.partition, req);
    if (!r) throw new HubError('NOT_FOUND', `no live ${addr.kind} actor ${addr.id}`);
    return r;
  }

  /**
   * The actor's latest durable state, live or finished, read from the log (the stream leader
   * answers, so a state acknowledged to any caller is visible here), else from the archive, where
   * compaction moves the finals of actors that finished a while ago.
   */
  async read(addr: ActorAddress): Promise<ActorView | undefined> {
    const label = partitionLabel(addr.partition, this.o.partitions);
    const local = this.parts.get(addr.partition)?.actors.get(key(addr.kind, addr.id));
    if (local) return local.actor.state;
    try {
      const data =
        (await this.lastInLog(label, addr)) ?? (await readArchived(this.o.bus, addr.kind, addr.id));
      if (!data) return undefined;
      return fromRecord(decodeJson<StoredActor>(data)).point.state;
    } catch (err) {
      if (isNoMessage(err)) return undefined;
      throw new UnavailableError('cannot read the actor log', err);
    }
  }

  private async lastInLog(label: string, addr: ActorAddress): Promise<Uint8Array | null> {
    try {
      const m = await this.o.bus.jsm.streams.getMessage(streams.partition(label), {
        last_by_subj: subjects.actorSnapshot(label, addr.kind, addr.id),
      });
      return m ? m.data : null;
    } catch (err) {
      if (isNoMessage(err)) return null;
      throw err;
    }
  }

  /** A live actor's record anywhere in the cluster, for /debug. */
  async lookup(systemId: string): Promise<unknown> {
    const local = this.localBySystemId(systemId);
    if (local) return debugRecord(local);
    try {
      const msg = await this.o.bus.nc.request(subjects.actorLookup, encodeJson({ systemId }), {
        timeout: 1000,
      });
      return decodeJson<{ snapshot: unknown }>(msg.data).snapshot;
    } catch {
      return undefined;
    }
  }

  localSummary(): Array<{ partition: string; actors: number }> {
    return [...this.parts.values()].map((rt) => ({ partition: rt.label, actors: rt.actors.size }));
  }

  // ---- internals ----------------------------------------------------------------------------

  private fireHooks(partition: number, p: Persisted, state: ActorView): void {
    const hooks = this.hooks.get(p.kind);
    if (!hooks) return;
    const addr = { kind: p.kind, id: p.id, partition };
    for (const h of hooks) {
      try {
        h(addr, state);
      } catch (err) {
        this.o.log.error({ err, kind: p.kind, id: p.id }, 'durable hook failed');
      }
    }
  }

  /**
   * A write of `p` was refused. Never stored: it leaves memory (its spawn key too), so nothing
   * exists. Stored before: it is put back to its last durable state and the kind's refusal hooks
   * decide what follows (a task fails with the reason). The partition goes on either way.
   */
  private refused(
    partition: number,
    store: ActorStore,
    holder: ActorLogHolder,
    actors: Map<string, Persisted>,
    keys: Map<string, { id: string; at: number }>,
    p: Persisted,
    err: HubError
  ): void {
    const k = key(p.kind, p.id);
    if (actors.get(k) !== p) return;
    p.actor.stop();
    this.o.metrics?.writesRefused.inc({
      kind: p.kind,
      reason: err.code === 'PAYLOAD_TOO_LARGE' ? 'too_large' : 'unwritable',
    });
    this.throttled.warn(
      `refused:${p.kind}:${err.code}`,
      { err, kind: p.kind, id: p.id, refusals: p.refusals + 1 },
      'actor write refused; the change is undone'
    );
    const kind = this.kinds.get(p.kind);
    if (p.durableSnapshot === undefined || !kind || p.refusals + 1 >= MAX_REFUSALS_IN_A_ROW) {
      actors.delete(k);
      this.o.metrics?.actorsActive.dec({ kind: p.kind });
      if (p.durableSnapshot === undefined) {
        if (p.key !== undefined && keys.get(p.key)?.id === p.id) keys.delete(p.key);
      } else {
        if (p.storedSeq !== undefined) {
          const label = partitionLabel(partition, this.o.partitions);
          holder.keepInLog(subjects.actorSnapshot(label, p.kind, p.id), p.storedSeq);
        }
        this.o.metrics?.retryGiveUps.inc({ loop: 'actor_write' });
        this.o.log.error(
          { kind: p.kind, id: p.id, refusals: p.refusals + 1 },
          'actor given up after repeated refused writes; its last durable state stays in the log'
        );
      }
      return;
    }
    const actor = kind.restore(p.durableSnapshot, k);
    const back = store.track(p.kind, p.id, actor, {
      createdAt: p.createdAt,
      ...(p.key !== undefined ? { key: p.key } : {}),
      alreadyDurable: true,
      ...(p.storedSeq !== undefined ? { storedSeq: p.storedSeq } : {}),
      durableSnapshot: p.durableSnapshot,
      refusals: p.refusals + 1,
    });
    actors.set(k, back);
    const hooks = this.refusedHooks.get(p.kind);
    if (!hooks) return;
    const addr = { kind: p.kind, id: p.id, partition };
    const v = actor.state;
    for (const h of hooks) {
      try {
        h(addr, v, err);
      } catch (e) {
        this.o.log.error({ err: e, kind: p.kind, id: p.id }, 'refusal hook failed');
      }
    }
  }

  private route(partition: number, req: Request): Promise<SendResult | null> {
    return callOwner<SendResult | null>(this.o, partition, 'actor', req, () =>
      this.parts.has(partition) ? this.serve(req, partition) : undefined
    );
  }

  private async serve(req: Request, partition: number): Promise<Reply> {
    try {
      const rt = this.parts.get(partition);
      if (!rt) throw new UnavailableError('partition moved');
      let id = req.id;
      let p = rt.actors.get(key(req.kind, id));
      let created = false;
      if (!p && req.spawn) {
        const seen = req.spawn.key !== undefined ? this.seenKey(rt, req.spawn.key) : undefined;
        if (seen !== undefined) {
          // A repeat: answer with the first actor, live or finished, and deliver nothing.
          const live = rt.actors.get(key(req.kind, seen));
          const v = live
            ? live.actor.state
            : await this.read({ kind: req.kind, id: seen, partition });
          if (!v) throw new UnavailableError('idempotent repeat of an actor not yet readable');
          if (live) await rt.store.durable(live);
          return { ok: true, result: { id: seen, view: v, changed: false, created: false } };
        }
        p = this.spawn(rt, req.kind, id, req.spawn);
        created = true;
      }
      if (!p) return { ok: true, result: null };
      id = p.id;
      let changed = created;
      // A finished actor still waiting for its final write ignores events; don't wake xstate's
      // "sent to a stopped actor" warning for a reply that raced the end.
      if (req.event && p.actor.state.status === 'active') {
        if (req.lingerMs) rt.store.linger(p, req.lingerMs);
        const inspection = this.o.inspection;
        if (inspection?.active) {
          inspection.event(req.kind, id, req.event);
          const moved = p.actor.send(req.event);
          if (moved) inspection.snapshot(req.kind, id, p.actor.state, req.event);
          changed = moved || changed;
        } else {
          changed = p.actor.send(req.event) || changed;
        }
      }
      const v = p.actor.state;
      if (!req.lingerMs || created) await rt.store.durable(p);
      return { ok: true, result: { id, view: v, changed, created } };
    } catch (err) {
      const e = ensureHubError(err);
      if (e.code === 'INTERNAL') this.o.log.error({ err }, 'actor request failed');
      return { ok: false, error: toWire(e) };
    }
  }

  private spawn(rt: PartitionRuntime, kind: string, id: string, spawn: SpawnOptions): Persisted {
    const k = this.kinds.get(kind);
    if (!k) throw new HubError('INTERNAL', `no machine for actor kind ${kind}`);
    const at = this.now();
    // Started before the store subscribes: the start's own state is the one the store writes
    // first, not a second write of the same state.
    const actor = k.spawn(spawn.input, key(kind, id));
    if (this.o.inspection?.active) this.o.inspection.actor(kind, id, k.machine, actor.state);
    const p = rt.store.track(kind, id, actor, {
      createdAt: at,
      ...(spawn.key !== undefined ? { key: spawn.key } : {}),
      alreadyDurable: false,
    });
    rt.actors.set(key(kind, id), p);
    if (spawn.key !== undefined) rt.keys.set(spawn.key, { id, at });
    this.o.metrics?.actorsActive.inc({ kind });
    return p;
  }

  /** The actor id a spawn key named within the window, pruning expired keys on the way. */
  private seenKey(rt: PartitionRuntime, k: string): string | undefined {
    const cutoff = this.now() - this.windowMs;
    for (const [oldKey, v] of rt.keys) {
      if (v.at >= cutoff) break;
      rt.keys.delete(oldKey);
    }
    return rt.keys.get(k)?.id;
  }

  /** The kinds this host runs (for /debug/inspect's `kind`). */
  kindNames(): string[] {
    return [...this.kinds.keys()];
  }

  /**
   * Sends `send` an `@xstate.actor` event for every live actor on this node that `filter` matches,
   * so a watch that begins after an actor started still shows it (in its current state).
   */
  announceLive(filter: InspectFilter, send: (event: InspectionEvent) => void): void {
    const inspection = this.o.inspection;
    if (!inspection) return;
    for (const rt of this.parts.values()) {
      for (const p of rt.actors.values()) {
        if (filter.kind !== undefined && p.kind !== filter.kind) continue;
        if (filter.id !== undefined && p.id !== filter.id) continue;
        const k = this.kinds.get(p.kind);
        if (k) send(inspection.actorEventOf(p.kind, p.id, k.machine, p.actor.state));
      }
    }
  }

  private localBySystemId(systemId: string): Persisted | undefined {
    for (const rt of this.parts.values()) {
      const p = rt.actors.get(systemId);
      if (p) return p;
    }
    return undefined;
  }

  private async restore(
    partition: number,
    label: string,
    store: ActorStore,
    holder: ActorLogHolder,
    actors: Map<string, Persisted>,
    keys: Map<string, { id: string; at: number }>
  ): Promise<void> {
    const stream = streams.partition(label);
    const filter = subjects.actorSnapshotsAll(label);
    const info = await this.o.bus.jsm.streams.info(stream, { subjects_filter: filter });
    const count = Object.values(info.state.subjects ?? {}).reduce((a, b) => a + b, 0);
    if (count === 0) return;
    // Every stored snapshot, oldest first: superseded ones stay in the log until it is compacted
    // (which bounds them; on a log that is not, the ones met are deleted now), and the newest of
    // each actor wins. (A last-per-subject replay would read less, but in the nats-kill fault test
    // it left live actors out of the restore.)
    const oc = await this.o.bus.js.consumers.get(stream, {
      filter_subjects: filter,
      deliver_policy: DeliverPolicy.All,
    });
    const iter = await oc.consume({ max_messages: Math.min(count, 1000) });
    const guard = idleGuard(iter, REPLAY_IDLE_MS, `snapshot replay of partition ${label}`);
    const newest = new Map<string, { stored: StoredActor; seq: number }>();
    let seen = 0;
    for await (const m of iter) {
      guard.tick();
      seen++;
      // Re-inserted: the map's order is the order of each actor's newest write (a restored task
      // that waits for delivery is delivered in the order it started waiting).
      const older = newest.get(m.subject);
      if (older !== undefined) {
        store.superseded(older.seq);
        newest.delete(m.subject);
      }
      newest.set(m.subject, { stored: m.json<StoredActor>(), seq: m.seq });
      if (seen >= count || m.info.pending === 0) break;
    }
    iter.stop();
    guard.end();
    const cutoff = this.now() - this.windowMs;
    const recentKeys: Array<[string, { id: string; at: number }]> = [];
    for (const [subject, { stored: raw, seq }] of newest) {
      const [, , , kind, id] = subject.split('.');
      const hosted = kind ? this.kinds.get(kind) : undefined;
      if (!kind || !id || !hosted) {
        this.o.log.warn({ subject }, 'snapshot of an unknown actor kind left in place');
        holder.keepInLog(subject, seq);
        continue;
      }
      const stored = fromRecord(raw);
      if (stored.key !== undefined && stored.createdAt >= cutoff) {
        recentKeys.push([stored.key, { id, at: stored.createdAt }]);
      }
      const state = stored.point.state;
      const restored = this.restoredHooks.get(kind);
      if (restored) {
        const addr = { kind, id, partition };
        for (const h of restored) h(addr, state);
      }
      if (state.status === 'active') {
        // Started before the store subscribes: restoring an actor writes nothing.
        const actor = hosted.restore(stored.point, key(kind, id));
        actors.set(
          key(kind, id),
          store.track(kind, id, actor, {
            createdAt: stored.createdAt,
            ...(stored.key !== undefined ? { key: stored.key } : {}),
            alreadyDurable: true,
            storedSeq: seq,
            durableSnapshot: stored.point,
          })
        );
        this.o.metrics?.actorsActive.inc({ kind });
      } else {
        holder.finished(subject, seq);
      }
    }
    // Keep the key index in time order so pruning can stop at the first fresh entry.
    recentKeys.sort((a, b) => a[1].at - b[1].at);
    for (const [k, v] of recentKeys) keys.set(k, v);
  }
}

/** What /debug shows of a live actor: its record's content, with readable names. */
function debugRecord(p: Persisted): unknown {
  const { value, status, context } = p.actor.state;
  return {
    value,
    status,
    context,
    createdAt: p.createdAt,
    ...(p.key !== undefined ? { key: p.key } : {}),
  };
}
