// The hub dialect on the wire (decisions.md §1; spec "Task", "Message", "Part", "Artifact"): parts
// with `kind` and `mimeType`, roles user/agent, lowercase states, the Task's messages also as history,
// and the status message as plain text (decisions.md §11).
import { applyHistoryLength } from './history.js';
import type {
  Artifact,
  Message,
  Part,
  Role,
  Task,
  TaskEventRecord,
  TaskStateName,
  TaskStatus,
} from './model.js';
import { artifactOf, assertNever, isoTime, type TaskPage, type TaskView } from './codec-common.js';

/** Hub parts are the model parts (the model was shaped after the hub dialect). */
export type HubPart = Part;

export interface HubMessage {
  kind: 'message';
  role: Role;
  parts: HubPart[];
  messageId: string;
  contextId?: string;
  taskId?: string;
  metadata?: Record<string, unknown>;
}

export interface HubTaskStatus {
  state: TaskStateName;
  /** ISO 8601 UTC */
  timestamp: string;
  /**
   * The status text. A string, not a Message: the published hub clients (TypeScript, Python, Go)
   * declare it so, and the Python one rejects a whole ListTasks page over an object here.
   */
  message?: string;
}

export interface HubArtifact {
  artifactId: string;
  /** The spec's Artifact names its id `id`; both are written. */
  id: string;
  name?: string;
  mimeType?: string;
  parts: HubPart[];
}

export interface HubTask {
  kind: 'task';
  id: string;
  contextId: string;
  status: HubTaskStatus;
  messages: HubMessage[];
  /** The same list as `messages` (A2A clients read `history`). */
  history: HubMessage[];
  artifacts: HubArtifact[];
  /** `agentId` is the recipient's canonical id (spec: aliases never appear in task records). */
  metadata: { agentId: string };
}

export interface HubListTasksResult extends TaskPage {
  tasks: HubTask[];
}

export interface HubStatusUpdate {
  taskId: string;
  contextId: string;
  status: HubTaskStatus;
  /** The last event of this stream (a terminal state, or input-required). */
  final: boolean;
}

export interface HubArtifactUpdate {
  taskId: string;
  contextId: string;
  artifact: HubArtifact;
  append: boolean;
  lastChunk: boolean;
}

/**
 * One SSE event's `result` on POST /a2a (decisions.md §11): a wrapper holding exactly one of
 * these keys, as A2A 1.0 streams do, because the hub clients read only those keys; the contents
 * are hub-dialect.
 */
export type HubStreamResponse =
  | { task: HubTask }
  | { message: HubMessage }
  | { statusUpdate: HubStatusUpdate }
  | { artifactUpdate: HubArtifactUpdate };

export function encodePartHub(part: Part): HubPart {
  return { ...part };
}

export function encodeMessageHub(m: Message): HubMessage {
  return {
    kind: 'message',
    role: m.role,
    parts: m.parts.map(encodePartHub),
    messageId: m.messageId,
    ...(m.contextId !== undefined ? { contextId: m.contextId } : {}),
    ...(m.taskId !== undefined ? { taskId: m.taskId } : {}),
    ...(m.metadata !== undefined ? { metadata: m.metadata } : {}),
  };
}

export function encodeStatusHub(s: TaskStatus): HubTaskStatus {
  return {
    state: s.state,
    timestamp: isoTime(s.timestamp),
    ...(s.message !== undefined ? { message: s.message } : {}),
  };
}

export function encodeArtifactHub(a: Artifact): HubArtifact {
  return {
    artifactId: a.artifactId,
    id: a.artifactId,
    ...(a.name !== undefined ? { name: a.name } : {}),
    ...(a.mimeType !== undefined ? { mimeType: a.mimeType } : {}),
    parts: a.parts.map(encodePartHub),
  };
}

/** The Task as SendMessage, GetTask, CancelTask and task_update frames carry it. */
export function encodeTaskHub(task: Task, view: TaskView = {}): HubTask {
  const messages = applyHistoryLength(task.messages, view.historyLength).map(encodeMessageHub);
  return {
    kind: 'task',
    id: task.id,
    contextId: task.contextId,
    status: encodeStatusHub(task.status),
    messages,
    history: messages,
    artifacts: view.includeArtifacts === false ? [] : task.artifacts.map(encodeArtifactHub),
    metadata: { agentId: task.recipientId },
  };
}

export function encodeListTasksHub(
  tasks: readonly Task[],
  page: TaskPage,
  view: TaskView = {}
): HubListTasksResult {
  return { tasks: tasks.map((t) => encodeTaskHub(t, view)), ...page };
}

/** The first event of a stream: the task as it stands. */
export function encodeStreamTaskHub(task: Task, view: TaskView = {}): HubStreamResponse {
  return { task: encodeTaskHub(task, view) };
}

/** One recorded change of `task`; `final` marks the event after which the stream ends. */
export function encodeStreamEventHub(
  task: Task,
  event: TaskEventRecord,
  final: boolean
): HubStreamResponse {
  const ids = { taskId: task.id, contextId: task.contextId };
  switch (event.type) {
    case 'status':
      return { statusUpdate: { ...ids, status: encodeStatusHub(event.status), final } };
    case 'artifact': {
      const known = artifactOf(task, event.artifactId);
      const artifact = encodeArtifactHub({
        artifactId: event.artifactId,
        ...(known?.name !== undefined ? { name: known.name } : {}),
        ...(known?.mimeType !== undefined ? { mimeType: known.mimeType } : {}),
        parts: event.parts,
      });
      return {
        artifactUpdate: { ...ids, artifact, append: event.append, lastChunk: event.lastChunk },
      };
    }
    case 'message':
      return { message: encodeMessageHub(event.message) };
    default:
      return assertNever(event);
  }
}
