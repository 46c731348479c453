// The bus protocol between the hub and official agents' pools (hub.agent.<id>.invoke): the
// request carries the message and the signed envelope; the reply is the agent's whole answer.
import type { Artifact, Message } from './model.js';
import type { RespondState } from './hub-schema.js';

export interface InvokeRequest {
  taskId: string;
  contextId: string;
  message: Message;
  configuration: Record<string, unknown>;
  'x-hub': unknown;
  /** When the hub sent it (epoch ms), for latency reports. */
  at: number;
}

export interface AgentAnswer {
  state: RespondState;
  message?: Message;
  statusText?: string;
  artifacts: Artifact[];
  /** A standard A2A server's own task id (see Task.remoteTaskId). */
  remoteTaskId?: string;
}

export type InvokeReply = { ok: true; answer: AgentAnswer } | { ok: false; error: string };
