// The actor host: runs actors (each kind defined by an XState machine, stepped as a light actor;
// see hosted-actor.ts) inside the partitions this node owns, restores them from the partition log
// on activation (actor-activation.ts, actor-restore.ts), serves their events (actor-requests.ts),
// persists every state change, undoes one that cannot be stored (actor-refusal.ts), and routes
// events to the owner of an actor's partition wherever it runs (locally, or by a NATS request to
// the owner).
import type { AnyStateMachine, EventObject } from 'xstate';
import type { Subscription } from '@nats-io/nats-core';
import {
  decodeJson,
  encodeJson,
  isNoMessage,
  partitionLabel,
  streams,
  subjects,
} from '../bus/index.js';
import type { HandoverReason, PartitionHandler, PartitionLog } from '../cluster/index.js';
import { HubError, UnavailableError, fromWire } from '../errors/index.js';
import type { InspectFilter, InspectionEvent } from '../inspect/index.js';
import { throttledLog } from '../log/index.js';
import { callOwner, respondOwner } from './owner-rpc.js';
import type { Persisted } from './actor-store.js';
import { readArchived } from './actor-log-holder.js';
import { fromRecord, type StoredActor } from './actor-record.js';
import { ActorKinds } from './actor-kinds.js';
import { activatePartition } from './actor-activation.js';
import { serveRequest } from './actor-requests.js';
import { actorKey, type HostContext, type PartitionRuntime } from './partition-actors.js';
import type {
  ActorAddress,
  ActorHostOptions,
  ActorReply,
  ActorRequest,
  ActorView,
  DurableHook,
  RefusedHook,
  SendResult,
  SpawnOptions,
} from './actor-types.js';

export class ActorHost implements PartitionHandler {
  /** Every snapshot this host writes is covered by its ActorLogHolder: its logs may be compacted. */
  readonly holdsLogRecords = true;
  private readonly kinds: ActorKinds;
  private readonly ctx: HostContext;
  private readonly parts = new Map<number, PartitionRuntime>();
  private lookupSub: Subscription | undefined;

  constructor(private readonly o: ActorHostOptions) {
    this.kinds = new ActorKinds(o.log, o.registry);
    this.ctx = {
      o,
      kinds: this.kinds,
      throttled: throttledLog(o.log),
      now: o.now ?? Date.now,
      windowMs: o.idempotencyWindowMs ?? 120_000,
    };
  }

  /**
   * A kind's machine is compiled to a transition table here (light actors); one the table cannot
   * run (invoke, delays, actions other than assign...) runs as a full XState actor.
   */
  define(kind: string, machine: AnyStateMachine): void {
    this.kinds.define(kind, machine);
  }

  onDurable(kind: string, hook: DurableHook): void {
    this.kinds.onDurable(kind, hook);
  }

  /** Called for every stored actor of this kind read while a partition activates (live or finished). */
  onRestored(kind: string, hook: DurableHook): void {
    this.kinds.onRestored(kind, hook);
  }

  /** Called when a change of an actor of this kind could not be stored and was undone. */
  onRefused(kind: string, hook: RefusedHook): void {
    this.kinds.onRefused(kind, hook);
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

  /** This node's id (membership, the partition locks). */
  get nodeId(): string {
    return this.o.nodeId;
  }

  // ---- PartitionHandler -------------------------------------------------------------------

  async activate(partition: number, label: string, log: PartitionLog): Promise<void> {
    const part = await activatePartition(this.ctx, partition, label, log);
    // Requests are served only once the partition's actors are restored.
    const sub = this.o.bus.nc.subscribe(subjects.partitionRequest(label, 'actor'), {
      callback: (_err, msg) => {
        void this.serve(decodeJson<ActorRequest>(msg.data), partition).then((r) =>
          respondOwner(this.o.bus, msg, r)
        );
      },
    });
    this.parts.set(partition, Object.assign(part, { sub }));
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
   * `ownerOnly`: applied here, once, or refused (UNAVAILABLE) when this node does not own the
   * partition or its log refuses the write (fenced): never routed to another owner, so success
   * means this node owned the actor when the change became durable.
   */
  async send<E extends EventObject>(
    addr: ActorAddress,
    event: E | undefined,
    spawn?: SpawnOptions,
    opts: { lingerMs?: number; ownerOnly?: boolean } = {}
  ): Promise<SendResult> {
    const req: ActorRequest = { op: 'send', kind: addr.kind, id: addr.id };
    if (event) req.event = event;
    if (spawn) req.spawn = spawn;
    if (opts.lingerMs) req.lingerMs = opts.lingerMs;
    const r = opts.ownerOnly
      ? await this.serveHere(addr.partition, req)
      : await this.route(addr.partition, req);
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
    const local = this.parts.get(addr.partition)?.actors.get(actorKey(addr.kind, addr.id));
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

  private route(partition: number, req: ActorRequest): Promise<SendResult | null> {
    return callOwner<SendResult | null>(this.o, partition, 'actor', req, () =>
      this.parts.has(partition) ? this.serve(req, partition) : undefined
    );
  }

  private async serveHere(partition: number, req: ActorRequest): Promise<SendResult | null> {
    if (!this.parts.has(partition)) {
      throw new UnavailableError(`partition ${partition} is not owned by this node`);
    }
    const r = await this.serve(req, partition);
    if (r.ok) return r.result;
    throw fromWire(r.error);
  }

  private serve(req: ActorRequest, partition: number): Promise<ActorReply> {
    return serveRequest(this.ctx, this.parts.get(partition), req, this);
  }

  /** The kinds this host runs (for /debug/inspect's `kind`). */
  kindNames(): string[] {
    return this.kinds.names();
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
