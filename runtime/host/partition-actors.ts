// What a host holds of one partition it owns, and what the files that activate, restore and undo
// its actors need of the host. Activation builds a PartitionActors; the host adds the subscription
// that serves requests (PartitionRuntime) once the restore is done, so no request meets a
// half-restored partition.
import type { Subscription } from '@nats-io/nats-core';
import type { ThrottledLog } from '../log/index.js';
import type { ActorKinds } from './actor-kinds.js';
import type { ActorLogHolder } from './actor-log-holder.js';
import type { ActorStore, Persisted } from './actor-store.js';
import type { ActorHostOptions } from './actor-types.js';

/** spawn key → actor id, in insertion (= time) order so expiry prunes from the front. */
export type SpawnKeys = Map<string, { id: string; at: number }>;

export interface PartitionActors {
  partition: number;
  label: string;
  store: ActorStore;
  holder: ActorLogHolder;
  /** Live actors by actorKey(kind, id). */
  actors: Map<string, Persisted>;
  keys: SpawnKeys;
}

export interface PartitionRuntime extends PartitionActors {
  sub: Subscription;
}

/** The host's parts that activation, restore and refusal use. */
export interface HostContext {
  readonly o: ActorHostOptions;
  readonly kinds: ActorKinds;
  readonly throttled: ThrottledLog;
  readonly now: () => number;
  /** How long a spawn key is remembered. */
  readonly windowMs: number;
}

/** An actor's key in a partition's map, and its XState system id. */
export const actorKey = (kind: string, id: string): string => `${kind}:${id}`;
