// What callers of the actor host see and pass: addresses, views, spawn options, results, hooks
// and the host's options. Kept apart from actor-host.ts so the files that activate, restore and
// undo actors (actor-activation.ts, actor-restore.ts, actor-refusal.ts) share them without
// importing the host itself.
import type { EventObject } from 'xstate';
import type { Bus } from '../bus/index.js';
import type { HubError } from '../errors/index.js';
import type { ActorInspection, MachineRegistry } from '../inspect/index.js';
import type { Logger } from '../log/index.js';
import type { HubMetrics } from '../metrics/index.js';
import type { OwnerReply } from './owner-rpc.js';

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

/**
 * Called on the owner after a state of an actor of this kind is durable; `contextJson`, when
 * given, is the JSON of `snapshot.context` exactly as the log holds it (to reuse, not re-encode).
 */
export type DurableHook = (addr: ActorAddress, snapshot: ActorView, contextJson?: string) => void;

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

/** What the owner of an actor's partition is asked, locally or over NATS. */
export type ActorRequest = {
  op: 'send';
  kind: string;
  id: string;
  event?: EventObject;
  spawn?: SpawnOptions;
  /** Answer before the change is durable; write it within this many ms (merged with later ones). */
  lingerMs?: number;
};
export type ActorReply = OwnerReply<SendResult | null>;
