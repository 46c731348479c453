// Events the task actor accepts. Every event carries `at` (epoch ms) from the caller so the
// machine stays pure and tests control time; `by` names the agent that caused it.
import type { Artifact, Message, TaskStateName } from '../../runtime/protocol/index.js';

export type RespondState = Exclude<TaskStateName, 'submitted' | 'canceled'>;

export type TaskEvent =
  | { type: 'task.start'; at: number }
  | {
      type: 'task.respond';
      at: number;
      by: string;
      state: RespondState;
      message?: Message;
      statusText?: string;
      artifact?: Artifact;
      /** false: more chunks of this artifact follow (its parts are appended). */
      lastChunk?: boolean;
      /** The recipient's own task id (a standard A2A server), kept for continuations. */
      remoteTaskId?: string;
    }
  | { type: 'task.input'; at: number; by: string; message: Message }
  | { type: 'task.cancel'; at: number; by: string; reason?: string }
  | { type: 'task.expire'; at: number }
  | { type: 'task.fail'; at: number; error: string };

export interface TaskInput {
  id: string;
  contextId: string;
  senderId: string;
  recipientId: string;
  senderTenantId: string;
  recipientTenantId: string;
  message: Message;
  configuration?: Record<string, unknown>;
  at: number;
}
