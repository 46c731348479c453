// Task and context ids (decisions.md §7: `task-<uuid>`, `ctx-<uuid>`). A task lives in its
// sender's partition, and the first four hex digits of its UUID (random bits in a v4 UUID) carry
// that partition number, so any node finds a task's owner from its id alone.
import { randomUUID } from 'node:crypto';
import { partitionOf } from '../../runtime/cluster/index.js';

const TASK_ID = /^task-([0-9a-f]{4})[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function newTaskId(partition: number): string {
  return `task-${partition.toString(16).padStart(4, '0')}${randomUUID().slice(4)}`;
}

/** The partition a task id names, or undefined when the id is not one of ours. */
export function taskPartition(taskId: string, partitions: number): number | undefined {
  const m = TASK_ID.exec(taskId);
  if (!m) return undefined;
  const p = parseInt(m[1]!, 16);
  return p < partitions ? p : undefined;
}

export function taskPartitionForSender(senderId: string, partitions: number): number {
  return partitionOf(senderId, partitions);
}

export const newContextId = () => `ctx-${randomUUID()}`;
export const newMessageId = () => `msg-${randomUUID()}`;
export const newArtifactId = () => `art-${randomUUID()}`;
