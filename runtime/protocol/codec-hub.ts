// The hub dialect on the wire (decisions.md §1; spec "Task", "Message", "Part", "Artifact"): parts
// with `kind` and `mimeType`, roles user/agent, lowercase states, the Task's messages also as history.
import { applyHistoryLength } from './history.js';
import type { Artifact, Message, Part, Role, Task, TaskStateName, TaskStatus } from './model.js';
import { isoTime, statusMessage, type TaskPage, type TaskView } from './codec-common.js';

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
  /** The status text as an agent message with one text part. */
  message?: HubMessage;
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

export function encodeStatusHub(
  task: Pick<Task, 'id' | 'contextId'>,
  s: TaskStatus
): HubTaskStatus {
  const message = statusMessage(task, s);
  return {
    state: s.state,
    timestamp: isoTime(s.timestamp),
    ...(message ? { message: encodeMessageHub(message) } : {}),
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
    status: encodeStatusHub(task, task.status),
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
