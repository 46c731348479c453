// A2A v1.0 on the wire, ProtoJSON (decisions.md §1): parts with exactly one of text|raw|url|data,
// ROLE_*/TASK_STATE_* enums, SendMessage wrapped as {task}, stream events {task}|{message}|
// {statusUpdate}|{artifactUpdate}. Checked against @a2a-js/sdk 1.3's own fromJSON/toJSON.
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
import {
  artifactOf,
  assertNever,
  jsonContent,
  isoTime,
  statusMessage,
  type TaskPage,
  type TaskView,
} from './codec-common.js';

export const V1TaskStates = {
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  completed: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
  canceled: 'TASK_STATE_CANCELED',
  rejected: 'TASK_STATE_REJECTED',
} as const satisfies Record<TaskStateName, string>;
export type V1TaskState = (typeof V1TaskStates)[TaskStateName];

export type V1Role = 'ROLE_USER' | 'ROLE_AGENT';

interface V1PartCommon {
  mediaType?: string;
  filename?: string;
  metadata?: Record<string, unknown>;
}
/** Exactly one of text, raw (base64), url, data (any JSON value). */
export type V1Part =
  | ({ text: string } & V1PartCommon)
  | ({ raw: string } & V1PartCommon)
  | ({ url: string } & V1PartCommon)
  | ({ data: unknown } & V1PartCommon);

export interface V1Message {
  messageId: string;
  role: V1Role;
  parts: V1Part[];
  contextId?: string;
  taskId?: string;
  metadata?: Record<string, unknown>;
}

export interface V1TaskStatus {
  state: V1TaskState;
  timestamp: string;
  message?: V1Message;
}

export interface V1Artifact {
  artifactId: string;
  name?: string;
  description?: string;
  parts: V1Part[];
}

export interface V1Task {
  id: string;
  contextId: string;
  status: V1TaskStatus;
  artifacts: V1Artifact[];
  history: V1Message[];
  metadata?: Record<string, unknown>;
}

export interface V1TaskStatusUpdateEvent {
  taskId: string;
  contextId: string;
  status: V1TaskStatus;
}

export interface V1TaskArtifactUpdateEvent {
  taskId: string;
  contextId: string;
  artifact: V1Artifact;
  append: boolean;
  lastChunk: boolean;
}

export type V1SendMessageResponse = { task: V1Task } | { message: V1Message };

/** The `result` of one SSE event (no `final` flag: the stream closes at the end state). */
export type V1StreamResponse =
  | { task: V1Task }
  | { message: V1Message }
  | { statusUpdate: V1TaskStatusUpdateEvent }
  | { artifactUpdate: V1TaskArtifactUpdateEvent };

export interface V1ListTasksResponse extends TaskPage {
  tasks: V1Task[];
}

export function encodeStateV1(state: TaskStateName): V1TaskState {
  return V1TaskStates[state];
}

export function encodePartV1(part: Part): V1Part {
  const metadata = part.metadata ? { metadata: part.metadata } : {};
  switch (part.kind) {
    case 'text':
      return { text: part.text, ...metadata };
    case 'file': {
      const filename = part.name !== undefined ? { filename: part.name } : {};
      // The bytes win when a part has both: they are what the sender actually attached.
      const content = part.data !== undefined ? { raw: part.data } : { url: part.uri ?? '' };
      return { ...content, mediaType: part.mimeType, ...filename, ...metadata };
    }
    case 'data':
      return { data: jsonContent(part.mimeType, part.data), mediaType: part.mimeType, ...metadata };
    default:
      return assertNever(part);
  }
}

export function encodeMessageV1(m: Message): V1Message {
  return {
    messageId: m.messageId,
    role: m.role === 'user' ? 'ROLE_USER' : 'ROLE_AGENT',
    parts: m.parts.map(encodePartV1),
    ...(m.contextId !== undefined ? { contextId: m.contextId } : {}),
    ...(m.taskId !== undefined ? { taskId: m.taskId } : {}),
    ...(m.metadata !== undefined ? { metadata: m.metadata } : {}),
  };
}

export function encodeStatusV1(task: Pick<Task, 'id' | 'contextId'>, s: TaskStatus): V1TaskStatus {
  const message = statusMessage(task, s);
  return {
    state: encodeStateV1(s.state),
    timestamp: isoTime(s.timestamp),
    ...(message ? { message: encodeMessageV1(message) } : {}),
  };
}

export function encodeArtifactV1(a: Pick<Artifact, 'artifactId' | 'name' | 'parts'>): V1Artifact {
  return {
    artifactId: a.artifactId,
    ...(a.name !== undefined ? { name: a.name } : {}),
    parts: a.parts.map(encodePartV1),
  };
}

/** The bare Task of GetTask and CancelTask; its message list is `history`. */
export function encodeTaskV1(task: Task, view: TaskView = {}): V1Task {
  return {
    id: task.id,
    contextId: task.contextId,
    status: encodeStatusV1(task, task.status),
    artifacts: view.includeArtifacts === false ? [] : task.artifacts.map(encodeArtifactV1),
    history: applyHistoryLength(task.messages, view.historyLength).map(encodeMessageV1),
  };
}

/** SendMessage's result: the Task, wrapped. */
export function encodeSendResultV1(task: Task, view: TaskView = {}): V1SendMessageResponse {
  return { task: encodeTaskV1(task, view) };
}

/** The first event of a stream (and of SubscribeToTask): the task as it stands. */
export function encodeStreamTaskV1(task: Task, view: TaskView = {}): V1StreamResponse {
  return { task: encodeTaskV1(task, view) };
}

/** One recorded change of `task` as an SSE event result. */
export function encodeStreamEventV1(task: Task, event: TaskEventRecord): V1StreamResponse {
  const ids = { taskId: task.id, contextId: task.contextId };
  switch (event.type) {
    case 'status':
      return { statusUpdate: { ...ids, status: encodeStatusV1(task, event.status) } };
    case 'artifact': {
      const name = artifactOf(task, event.artifactId)?.name;
      const artifact = encodeArtifactV1({ artifactId: event.artifactId, name, parts: event.parts });
      return {
        artifactUpdate: { ...ids, artifact, append: event.append, lastChunk: event.lastChunk },
      };
    }
    case 'message':
      return { message: encodeMessageV1(event.message) };
    default:
      return assertNever(event);
  }
}

export function encodeListTasksV1(
  tasks: readonly Task[],
  page: TaskPage,
  view: TaskView = {}
): V1ListTasksResponse {
  return { tasks: tasks.map((t) => encodeTaskV1(t, view)), ...page };
}
