// Serving one request to an actor on the owner of its partition: find the actor, or spawn it
// (once per spawn key within the idempotency window), deliver the event, and answer once the
// resulting state is durable (or at once, when the caller lets the write linger).
import { HubError, UnavailableError, ensureHubError, toWire } from '../errors/index.js';
import type { Persisted } from './actor-store.js';
import type {
  ActorAddress,
  ActorReply,
  ActorRequest,
  ActorView,
  SpawnOptions,
} from './actor-types.js';
import { actorKey, type HostContext, type PartitionActors } from './partition-actors.js';

/** Where a repeated spawn reads the first actor when it has left memory (the log, the archive). */
export interface ActorReader {
  read(addr: ActorAddress): Promise<ActorView | undefined>;
}

export async function serveRequest(
  ctx: HostContext,
  rt: PartitionActors | undefined,
  req: ActorRequest,
  host: ActorReader
): Promise<ActorReply> {
  try {
    if (!rt) throw new UnavailableError('partition moved');
    let id = req.id;
    let p = rt.actors.get(actorKey(req.kind, id));
    let created = false;
    if (!p && req.spawn) {
      const seen = req.spawn.key !== undefined ? seenKey(ctx, rt, req.spawn.key) : undefined;
      if (seen !== undefined) {
        // A repeat: answer with the first actor, live or finished, and deliver nothing.
        const live = rt.actors.get(actorKey(req.kind, seen));
        const v = live
          ? live.actor.state
          : await host.read({ kind: req.kind, id: seen, partition: rt.partition });
        if (!v) throw new UnavailableError('idempotent repeat of an actor not yet readable');
        if (live) await rt.store.durable(live);
        return { ok: true, result: { id: seen, view: v, changed: false, created: false } };
      }
      p = spawnActor(ctx, rt, req.kind, id, req.spawn);
      created = true;
    }
    if (!p) return { ok: true, result: null };
    id = p.id;
    let changed = created;
    // A finished actor still waiting for its final write ignores events; don't wake xstate's
    // "sent to a stopped actor" warning for a reply that raced the end.
    if (req.event && p.actor.state.status === 'active') {
      if (req.lingerMs) rt.store.linger(p, req.lingerMs);
      const inspection = ctx.o.inspection;
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
    if (e.code === 'INTERNAL') ctx.o.log.error({ err }, 'actor request failed');
    return { ok: false, error: toWire(e) };
  }
}

function spawnActor(
  ctx: HostContext,
  rt: PartitionActors,
  kind: string,
  id: string,
  spawn: SpawnOptions
): Persisted {
  const k = ctx.kinds.get(kind);
  if (!k) throw new HubError('INTERNAL', `no machine for actor kind ${kind}`);
  const at = ctx.now();
  // Started before the store subscribes: the start's own state is the one the store writes
  // first, not a second write of the same state.
  const actor = k.spawn(spawn.input, actorKey(kind, id));
  if (ctx.o.inspection?.active) ctx.o.inspection.actor(kind, id, k.machine, actor.state);
  const p = rt.store.track(kind, id, actor, {
    createdAt: at,
    ...(spawn.key !== undefined ? { key: spawn.key } : {}),
    alreadyDurable: false,
  });
  rt.actors.set(actorKey(kind, id), p);
  if (spawn.key !== undefined) rt.keys.set(spawn.key, { id, at });
  ctx.o.metrics?.actorsActive.inc({ kind });
  return p;
}

/** The actor id a spawn key named within the window, pruning expired keys on the way. */
function seenKey(ctx: HostContext, rt: PartitionActors, k: string): string | undefined {
  const cutoff = ctx.now() - ctx.windowMs;
  for (const [oldKey, v] of rt.keys) {
    if (v.at >= cutoff) break;
    rt.keys.delete(oldKey);
  }
  return rt.keys.get(k)?.id;
}

/** The kinds this host runs (for /debug/inspect's `kind`). */
