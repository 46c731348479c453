// The hub's one internal model of messages, parts, artifacts and tasks. Every wire dialect (hub,
// A2A v1.0, A2A v0.3, WebSocket frames) is a codec over these shapes (decisions.md §1). The hub
// dialect is closest to it: parts carry `kind`, roles are user/agent, states are lowercase.

import type { Part, TaskState } from '../../sdk/contract/index.js';

// Task states and parts are the contract the SDK ships (sdk/contract): one copy for both sides.
export { TaskStates, TerminalStates, type Part } from '../../sdk/contract/index.js';
export type TaskStateName = TaskState;

export type Role = 'user' | 'agent';

export interface Message {
  role: Role;
  parts: Part[];
  messageId: string;
  contextId?: string;
  taskId?: string;
  metadata?: Record<string, unknown>;
}

export interface Artifact {
  artifactId: string;
  name?: string;
  mimeType?: string;
  parts: Part[];
}

export interface TaskStatus {
  state: TaskStateName;
  /** epoch ms */
  timestamp: number;
  message?: string;
}

/** One entry per observable change, numbered: the SSE event id and the resume point. */
export type TaskEventRecord =
  | { rev: number; type: 'status'; status: TaskStatus }
  | {
      rev: number;
      type: 'artifact';
      artifactId: string;
      append: boolean;
      lastChunk: boolean;
      parts: Part[];
    }
  | { rev: number; type: 'message'; message: Message };

export interface Task {
  id: string;
  contextId: string;
  senderId: string;
  recipientId: string;
  senderTenantId: string;
  recipientTenantId: string;
  createdAt: number;
  status: TaskStatus;
  messages: Message[];
  artifacts: Artifact[];
  /**
   * The recipient's own id for this task, when it is a standard A2A server (it owns its task ids):
   * a continuation is sent with it so the server resumes its task instead of starting a new one.
   */
  remoteTaskId?: string;
  /** What the sender asked for (acceptedOutputModes, historyLength, x-ttl …), kept for delivery. */
  configuration?: Record<string, unknown>;
  /**
   * Hub-internal, never encoded for clients. `pending`: the latest sender message still has to be
   * delivered, and the task's owner does it (also after a crash or a partition move); `queued`: it
   * waits in the recipient's queue instead. Absent once delivered.
   */
  delivery?: 'pending' | 'queued';
  /** Hub-internal: the node holding the WebSocket the latest message was pushed to, until answered. */
  deliveredVia?: string;
  /**
   * Hub-internal: the recipient acknowledged the latest pushed message (a WebSocket `received`
   * frame), so a node loss does not push it again.
   */
  received?: true;
  /**
   * Hub-internal: `node` is calling the HTTP agent with the latest message and writes its answer;
   * it gives the call up by `until` (epoch ms). Another node that would deliver the message (a new
   * owner after a move, the recipient's queue) waits for that answer first. Cleared with delivery.
   */
  calling?: { node: string; until: number };
  events: TaskEventRecord[];
  rev: number;
}
