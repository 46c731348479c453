// Events the task actor accepts. Every event carries `at` (epoch ms) from the caller so the
// machine stays pure and tests control time; `by` names the agent that caused it.
import type { Artifact, Message, TaskStateName } from '../../runtime/protocol/index.js';

export type RespondState = Exclude<TaskStateName, 'submitted' | 'canceled'>;

export type TaskEvent =
  /** Delivered. `node`: the node holding the recipient's WebSocket (its answer comes that way). */
  | { type: 'task.start'; at: number; node?: string }
  /**
   * `node` is about to call the HTTP agent with the undelivered message and gives the call up by
   * `until`: durable before the call, so a node that takes the delivery over waits for its answer.
   */
  | { type: 'task.calling'; at: number; node: string; until: number }
  /** The undelivered message went to the recipient's queue; the queue's drain delivers it. */
  | { type: 'task.queued'; at: number }
  /**
   * The socket a message was pushed to died with its node before the answer: deliver again. With
   * `messageId` (the socket itself closed): only while that message is the task's latest and the
   * agent neither answered nor acknowledged it.
   */
  | { type: 'task.redeliver'; at: number; messageId?: string }
  /** The recipient acknowledged the pushed message (WebSocket `received` frame). */
  | { type: 'task.received'; at: number; by: string }
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
  /** Created by the recipient's queue for a message it holds: nothing for the owner to deliver. */
  queued?: boolean;
}
