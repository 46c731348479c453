// What the partition log holds for one actor: `{snapshot, createdAt, key?}`, as before, so every
// reader of the snapshot subject (the task service's live updates, tools) reads it unchanged. A
// light actor's snapshot is compact: only its state value, status and context, `{value, status,
// context}`, taken from its state as is (no getPersistedSnapshot walk). A kind run as a full
// XState actor stores its persisted snapshot there (with its children and history), as older
// logs do for every kind; both restore.
import type { StateValue } from 'xstate';
import { encodeJson, encodeText } from '../bus/index.js';
import type { RestorePoint } from './hosted-actor.js';
import type { ActorStatus } from './light-machine.js';

export interface StoredActor {
  snapshot: { value: StateValue; status: ActorStatus; context: unknown; children?: unknown };
  createdAt: number;
  /** The spawn's idempotency key; rebuilt into the partition's key index on activation. */
  key?: string;
}

export interface DecodedRecord {
  point: RestorePoint;
  createdAt: number;
  key: string | undefined;
}

export function toRecord(
  point: RestorePoint,
  createdAt: number,
  key: string | undefined
): StoredActor {
  const snapshot = (point.snapshot as StoredActor['snapshot'] | undefined) ?? point.state;
  const r: StoredActor = { snapshot, createdAt };
  if (key !== undefined) r.key = key;
  return r;
}

/**
 * The record's bytes as written, and the JSON of the snapshot's context within them. A compact
 * snapshot is written around its context's own JSON, byte for byte what JSON.stringify of the
 * record gives, so that whoever indexes the context after the write (the task index) reuses
 * that text instead of encoding the same object again.
 */
export function encodeRecord(
  point: RestorePoint,
  createdAt: number,
  key: string | undefined
): { data: Uint8Array; contextJson: string | undefined } {
  const record = toRecord(point, createdAt, key);
  const s = record.snapshot;
  const contextJson =
    point.snapshot === undefined && typeof s.context === 'object' && s.context !== null
      ? JSON.stringify(s.context)
      : undefined;
  if (contextJson === undefined || s.value === undefined || s.status === undefined) {
    return { data: encodeJson(record), contextJson: undefined };
  }
  const text =
    `{"snapshot":{"value":${JSON.stringify(s.value)},"status":${JSON.stringify(s.status)},` +
    `"context":${contextJson}},"createdAt":${JSON.stringify(createdAt)}` +
    (key === undefined ? '}' : `,"key":${JSON.stringify(key)}}`);
  return { data: encodeText(text), contextJson };
}

export function fromRecord(r: StoredActor): DecodedRecord {
  const s = r.snapshot;
  const state = { value: s.value, status: s.status, context: s.context };
  // Only XState's own persisted snapshot holds children: one a full actor can resume from as is.
  const point: RestorePoint = s.children !== undefined ? { state, snapshot: s } : { state };
  return { point, createdAt: r.createdAt, key: r.key };
}
