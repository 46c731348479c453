// A2A v0.3 on the wire (decisions.md §1): `kind` on tasks, messages, parts and stream events, file
// parts as {file:{bytes|uri, mimeType, name}}, data parts as objects, lowercase states, `final`.
// Checked against @a2a-js/sdk 1.3's v0.3 compat types and translators.
import { applyHistoryLength } from './history.js';
import type {
  Artifact,
  Message,
  Part,
  Task,
  TaskEventRecord,
  TaskStateName,
  TaskStatus,
} from './model.js';
import { DATA_PART_COMPAT_FLAG, isPlainObject } from './part-input.js';
import {
  artifactOf,
  assertNever,
  jsonContent,
  isStreamFinal,
  isoTime,
  statusMessage,
  type TaskView,
} from './codec-common.js';

type Metadata = Record<string, unknown>;

export type V03Part =
  | { kind: 'text'; text: string; metadata?: Metadata }
  | {
      kind: 'file';
      file:
        | { bytes: string; mimeType?: string; name?: string }
        | { uri: string; mimeType?: string; name?: string };
      metadata?: Metadata;
    }
  | { kind: 'data'; data: Metadata; metadata?: Metadata };

export interface V03Message {
  kind: 'message';
  messageId: string;
  role: 'user' | 'agent';
  parts: V03Part[];
  contextId?: string;
  taskId?: string;
  metadata?: Metadata;
}

export interface V03TaskStatus {
  state: TaskStateName;
  timestamp: string;
  message?: V03Message;
}

export interface V03Artifact {
  artifactId: string;
  name?: string;
  parts: V03Part[];
}

export interface V03Task {
  kind: 'task';
  id: string;
  contextId: string;
  status: V03TaskStatus;
  artifacts: V03Artifact[];
  history: V03Message[];
}

export interface V03TaskStatusUpdateEvent {
  kind: 'status-update';
  taskId: string;
  contextId: string;
  status: V03TaskStatus;
  /** The last event of this stream: the task reached a terminal state. */
  final: boolean;
}

export interface V03TaskArtifactUpdateEvent {
  kind: 'artifact-update';
  taskId: string;
  contextId: string;
  artifact: V03Artifact;
  append: boolean;
  lastChunk: boolean;
}

export type V03StreamEvent =
  V03Task | V03Message | V03TaskStatusUpdateEvent | V03TaskArtifactUpdateEvent;

export function encodePartV03(part: Part): V03Part {
  const metadata = part.metadata ? { metadata: part.metadata } : {};
  switch (part.kind) {
    case 'text':
      return { kind: 'text', text: part.text, ...metadata };
    case 'file': {
      const about = {
        mimeType: part.mimeType,
        ...(part.name !== undefined ? { name: part.name } : {}),
      };
      const file =
        part.data !== undefined
          ? { bytes: part.data, ...about }
          : { uri: part.uri ?? '', ...about };
      return { kind: 'file', file, ...metadata };
    }
    case 'data': {
      const value = jsonContent(part.mimeType, part.data);
      if (isPlainObject(value)) return { kind: 'data', data: value, ...metadata };
      // Not an object (CSV text, a JSON array …): a2a-js's wrapping, which its clients unwrap.
      return {
        kind: 'data',
        data: { value },
        metadata: { ...part.metadata, [DATA_PART_COMPAT_FLAG]: true },
      };
    }
    default:
      return assertNever(part);
  }
}

export function encodeMessageV03(m: Message): V03Message {
  return {
    kind: 'message',
    messageId: m.messageId,
    role: m.role,
    parts: m.parts.map(encodePartV03),
    ...(m.contextId !== undefined ? { contextId: m.contextId } : {}),
    ...(m.taskId !== undefined ? { taskId: m.taskId } : {}),
    ...(m.metadata !== undefined ? { metadata: m.metadata } : {}),
  };
}

export function encodeStatusV03(
  task: Pick<Task, 'id' | 'contextId'>,
  s: TaskStatus
): V03TaskStatus {
  const message = statusMessage(task, s);
  return {
    state: s.state,
    timestamp: isoTime(s.timestamp),
    ...(message ? { message: encodeMessageV03(message) } : {}),
  };
}

export function encodeArtifactV03(a: Pick<Artifact, 'artifactId' | 'name' | 'parts'>): V03Artifact {
  return {
    artifactId: a.artifactId,
    ...(a.name !== undefined ? { name: a.name } : {}),
    parts: a.parts.map(encodePartV03),
  };
}

/** The Task of message/send, tasks/get and tasks/cancel (message/send is not wrapped in v0.3). */
export function encodeTaskV03(task: Task, view: TaskView = {}): V03Task {
  return {
    kind: 'task',
    id: task.id,
    contextId: task.contextId,
    status: encodeStatusV03(task, task.status),
    artifacts: view.includeArtifacts === false ? [] : task.artifacts.map(encodeArtifactV03),
    history: applyHistoryLength(task.messages, view.historyLength).map(encodeMessageV03),
  };
}

/** One recorded change of `task` as an SSE event result. */
export function encodeStreamEventV03(task: Task, event: TaskEventRecord): V03StreamEvent {
  const ids = { taskId: task.id, contextId: task.contextId };
  switch (event.type) {
    case 'status':
      return {
        kind: 'status-update',
        ...ids,
        status: encodeStatusV03(task, event.status),
        final: isStreamFinal(event.status.state),
      };
    case 'artifact': {
      const name = artifactOf(task, event.artifactId)?.name;
      return {
        kind: 'artifact-update',
        ...ids,
        artifact: encodeArtifactV03({ artifactId: event.artifactId, name, parts: event.parts }),
        append: event.append,
        lastChunk: event.lastChunk,
      };
    }
    case 'message':
      return encodeMessageV03(event.message);
    default:
      return assertNever(event);
  }
}
