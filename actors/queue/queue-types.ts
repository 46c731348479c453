// What the queues offer the rest of the domain, and what they ask of the task side.
import type { Message } from '../../runtime/protocol/index.js';
import type { QueueEntry } from './queue-index.js';
import type { QueueTransport } from './queue.events.js';

/** What the task side does for the queues (TaskService implements it). */
export interface QueueDelegate {
  /** How a recipient is reached (asked after a takeover; queued messages don't carry it). */
  transportOf(recipientId: string): Promise<QueueTransport>;
  /** Create the task of a new send once the queue admitted its message; the task as it stands. */
  createTask(
    spawn: unknown,
    key: string
  ): Promise<{ taskId: string; task: unknown; created: boolean }>;
  /**
   * Deliver a queued message now. `gone`: its task no longer waits for it (canceled, finished,
   * recipient deleted): drop it.
   */
  deliverQueued(
    entry: QueueEntry,
    /** The stored body's message; undefined when the record read there held none. */
    message: Message | undefined
  ): Promise<'delivered' | 'busy' | 'offline' | 'gone'>;
  /** The message expired before delivery: fail its task and report message.failed. */
  expired(entry: QueueEntry): Promise<void>;
  /** Is the task still `submitted` with its message waiting in a queue (delivery `queued`)? */
  stillQueued(taskId: string): Promise<boolean>;
}

export interface EnqueueRequest {
  /** The recipient's tenant (its queue partition, its 10,000 limit). */
  tenantId: string;
  recipientId: string;
  senderId: string;
  transport: QueueTransport;
  /** `<senderId>:<messageId>`: a repeat within 2 minutes answers with the first task. */
  key: string;
  /** The recipient's queue_max_pending. */
  maxPending: number;
  /** Epoch ms after which the message is never delivered. */
  expiresAt: number;
  message: Message;
  taskId: string;
  /** A new send: the task is created only once the message is admitted (a refusal leaves no trace). */
  spawn?: unknown;
  /** The recipient just failed to answer (HTTP): the first retry waits the retry interval. */
  unreachable?: boolean;
  /**
   * When the hub accepted the message, for one queued only after its delivery was attempted (or
   * waited out a partition's move): it goes before the same sender's messages to this recipient
   * that were accepted after it and queued meanwhile (FIFO per pair).
   */
  acceptedAt?: number;
  /**
   * A recovery sweep's check of an existing queued task (a crash may have come between its
   * creation and its message's append): appended only if the queue holds no message of the task
   * and the task still waits for one.
   */
  ensure?: boolean;
}

export interface EnqueueResult {
  taskId: string;
  /** The task's view after creation (new sends), undefined for an existing task. */
  task?: unknown;
  duplicate: boolean;
}

export interface QueueInspection {
  recipientId: string;
  pending: number;
  queued: number;
  oldestAgeMs: number;
  state: 'idle' | 'draining' | 'waiting' | 'none';
  online: boolean | null;
  delivered: number;
  failed: number;
  expired: number;
  purged: number;
  lastError: string | null;
  head: Array<{
    seq: number;
    taskId: string;
    senderId: string;
    enqueuedAt: number;
    expiresAt: number;
  }>;
}
