// What every wire codec derives the same way from the model (decisions.md §1 "one internal task
// model; codecs at the edge"): ISO timestamps, the status text as an agent message, stream ends.
import { HubError } from '../errors/index.js';
import { TerminalStates } from './model.js';
import { isJsonMime } from './part-input.js';
import type { Artifact, Message, Task, TaskStateName, TaskStatus } from './model.js';

export function isoTime(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

/**
 * The model keeps a status text; the wire wants a Message. Its id is derived from the task and
 * the status time, so every read of the same status shows the same message.
 */
export function statusMessage(
  task: Pick<Task, 'id' | 'contextId'>,
  status: TaskStatus
): Message | undefined {
  if (status.message === undefined) return undefined;
  return {
    role: 'agent',
    parts: [{ kind: 'text', text: status.message }],
    messageId: `status-${task.id}-${status.timestamp}`,
    contextId: task.contextId,
    taskId: task.id,
  };
}

/** The artifact an event refers to, for its name and media type. */
export function artifactOf(
  task: Pick<Task, 'artifacts'>,
  artifactId: string
): Artifact | undefined {
  return task.artifacts.find((a) => a.artifactId === artifactId);
}

/**
 * A state after which no more events come: the terminal ones. v0.3 marks its status event with
 * `final: true` (as a2a-js's own v0.3 translation does); v1.0 just closes the stream (decisions.md §1).
 */
export function isStreamFinal(state: TaskStateName): boolean {
  return TerminalStates.has(state);
}

/** Which parts of a task an encoder writes (GetTask historyLength, ListTasks includeArtifacts). */
export interface TaskView {
  /** 0: no messages; n: the last n; absent: all. */
  historyLength?: number;
  /** Default true. */
  includeArtifacts?: boolean;
}

/** One page of ListTasks (A2A 1.0 ListTasksResponse fields). */
export interface TaskPage {
  nextPageToken: string;
  pageSize: number;
  totalSize: number;
}

/** Exhaustiveness check for switches over model unions (style B3). */
export function assertNever(x: never): never {
  throw new HubError('INTERNAL', `unexpected value: ${JSON.stringify(x)}`);
}

/** A data part's content as a JSON value when its media type is JSON, else the string itself. */
export function jsonContent(mimeType: string, data: string): unknown {
  if (!isJsonMime(mimeType)) return data;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}
