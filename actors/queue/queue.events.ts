// Events, input and the deliverHead contract of the per-recipient queue actor (interface-spec
// Endpoints rule 6). The zod union is what the mailbox parses bus payloads with before send().
import { z } from 'zod';

export const QueueTransport = z.enum(['websocket', 'http']);
export type QueueTransport = z.infer<typeof QueueTransport>;

export const QueueEvent = z.discriminatedUnion('type', [
  /** WebSocket: the agent connected (after `welcome`) or its socket drained; HTTP: reachable again. */
  z.object({ type: z.literal('recipient.online') }),
  /** WebSocket: the last socket closed; HTTP: a direct delivery just failed (retry later). */
  z.object({ type: z.literal('recipient.offline') }),
  /** A message was durably queued for this recipient. */
  z.object({ type: z.literal('queue.enqueued'), seq: z.number().int().positive() }),
  /**
   * Sent by the host right after restoring the actor: a persisted snapshot holds no timers and no
   * running delivery, so this restarts whichever the state needs.
   */
  z.object({ type: z.literal('queue.resume') }),
  /** The cleanup removed expired messages of this recipient. */
  z.object({ type: z.literal('queue.expired'), count: z.number().int().nonnegative() }),
  /** CancelTask purged messages of this recipient. */
  z.object({ type: z.literal('queue.purged'), count: z.number().int().nonnegative() }),
]);
export type QueueEvent = z.infer<typeof QueueEvent>;

export interface QueueInput {
  recipientId: string;
  transport: QueueTransport;
  /** WebSocket presence when the actor starts; HTTP agents start online (an attempt decides). */
  online?: boolean;
}

export interface DeliverHeadInput {
  recipientId: string;
  transport: QueueTransport;
}

/**
 * What the host's `deliverHead` reports. Contract: it takes the recipient's head from the queue
 * index; an expired head is never delivered: it is removed, its task failed, and the next head is
 * tried (their number goes in `expired`). `delivered`: one message reached the recipient and left
 * the queue. `empty`: nothing (unexpired) is queued. `busy`: the recipient is connected but cannot
 * take a message now. `offline`: no socket (WebSocket) or no answer (HTTP). Throwing counts as a
 * failed attempt and is retried like `busy`.
 */
export type DeliverHeadOutput =
  | { outcome: 'delivered'; seq: number; expired?: number; tookMs?: number }
  | { outcome: 'empty'; expired?: number }
  | { outcome: 'busy'; reason?: string; expired?: number }
  | { outcome: 'offline'; reason?: string; expired?: number };

export type DeliverOutcome = DeliverHeadOutput['outcome'];
