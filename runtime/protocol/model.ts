// The hub's one internal model of messages, parts, artifacts and tasks. Every wire dialect (hub,
// A2A v1.0, A2A v0.3, WebSocket frames) is a codec over these shapes (decisions.md §1). The hub
// dialect is closest to it: parts carry `kind`, roles are user/agent, states are lowercase.

export const TaskStates = [
  'submitted',
  'working',
  'input-required',
  'completed',
  'failed',
  'canceled',
  'rejected',
] as const;
export type TaskStateName = (typeof TaskStates)[number];

export const TerminalStates: ReadonlySet<TaskStateName> = new Set([
  'completed',
  'failed',
  'canceled',
  'rejected',
]);

export type Role = 'user' | 'agent';

export type Part =
  | { kind: 'text'; text: string; metadata?: Record<string, unknown> }
  | {
      kind: 'file';
      mimeType: string;
      name?: string;
      /** base64 */
      data?: string;
      uri?: string;
      metadata?: Record<string, unknown>;
    }
  | { kind: 'data'; mimeType: string; data: string; metadata?: Record<string, unknown> };

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
  events: TaskEventRecord[];
  rev: number;
}
