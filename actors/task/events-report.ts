// Account events about messages (decisions.md §9): message.sent, .delivered, .received and
// .failed, stored in HUB_EVENTS for webhook delivery without holding up the caller.
import { randomUUID } from 'node:crypto';
import {
  publishEvent,
  type HubEventData,
  type HubEventName,
  type PublishEventInput,
} from '../../runtime/bus/index.js';
import type { ActorAddress } from '../../runtime/host/index.js';
import type { Task } from '../../runtime/protocol/index.js';
import { NO_ENDPOINT, type DeliveryOutcome } from '../agent/delivery.js';
import type { TaskCore } from './task-core.js';

/** Publish retries of an account event: 250 ms doubling, about a minute in all. */
const EVENT_RETRIES = 8;

export interface FailedMessage {
  taskId: string;
  contextId: string;
  from: string;
  to: string;
  error: string;
}

export class EventsReport {
  constructor(private readonly core: TaskCore) {}

  /** Fail the task with `error` and tell the sender's account (message.failed). */
  async failAndReport(addr: ActorAddress, task: Task, error: string): Promise<Task> {
    const after = await this.core.event(addr, {
      type: 'task.fail',
      at: this.core.now(),
      error: error || NO_ENDPOINT,
    });
    this.reportFailed(task.senderTenantId, {
      taskId: task.id,
      contextId: task.contextId,
      from: task.senderId,
      to: task.recipientId,
      error,
    });
    return after;
  }

  /** message.failed for the sender's account (decisions.md §9); never fails the caller. */
  reportFailed(tenantId: string, data: FailedMessage): void {
    this.record({ tenantId, event: 'message.failed', data, id: randomUUID() });
  }

  /**
   * message.sent (sender's account) or message.received (recipient's account), fire and forget.
   * The event id is derived from the task, so a repeated publish of the same fact is stored once.
   */
  reportMessage(event: 'message.sent' | 'message.received', task: Task): void {
    const tenantId = event === 'message.sent' ? task.senderTenantId : task.recipientTenantId;
    const data = {
      taskId: task.id,
      contextId: task.contextId,
      from: task.senderId,
      to: task.recipientId,
    };
    const id = `${event}:${task.id}:${task.messages.length}`;
    this.record({ tenantId, event, data, id });
  }

  /** After an attempt reached the recipient: message.delivered (sender), .received (recipient). */
  reportDelivered(
    task: Task,
    deliveryMethod: HubEventData['message.delivered']['deliveryMethod'],
    outcome: DeliveryOutcome
  ): DeliveryOutcome {
    if (outcome.kind === 'pushed' || outcome.kind === 'answered') {
      const data = {
        taskId: task.id,
        contextId: task.contextId,
        from: task.senderId,
        to: task.recipientId,
        deliveryMethod,
      };
      this.record({
        tenantId: task.senderTenantId,
        event: 'message.delivered',
        data,
        id: `message.delivered:${task.id}:${task.messages.length}`,
      });
      this.reportMessage('message.received', task);
    }
    return outcome;
  }

  /**
   * Stores an account event without holding up the caller, if a webhook of the tenant subscribes
   * to it (message.failed always: the bus carries every failure).
   */
  private record<E extends HubEventName>(input: PublishEventInput<E>): void {
    const interest = this.core.o.eventInterest;
    if (!interest || input.event === 'message.failed') return this.store(input);
    interest.wants(input.tenantId, input.event).then(
      (wanted) => wanted && this.store(input),
      (err: unknown) =>
        this.core.o.log.warn({ err, event: input.event }, 'account event not stored')
    );
  }

  /**
   * A publish that fails (the events stream has no leader for a moment after a NATS server died)
   * is retried with the same id, so it is stored once, for about a minute (within the stream's
   * two-minute duplicate window).
   */
  private store<E extends HubEventName>(input: PublishEventInput<E>, tries = 0): void {
    publishEvent(this.core.o.bus, input).catch((err: unknown) => {
      if (tries >= EVENT_RETRIES) {
        this.core.o.log.warn({ err, event: input.event, id: input.id }, 'account event not stored');
        return;
      }
      setTimeout(() => this.store(input, tries + 1), 250 * 2 ** tries).unref();
    });
  }
}
