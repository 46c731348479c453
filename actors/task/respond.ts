// The parties' later word on a task: the sender's cancel, the recipient's reply (task/respond or a
// WebSocket task_response frame), and replies too large to store, which fail the task with the
// reason so its sender is not left waiting.
import { encodedSizeOver, recordLimits } from '../../runtime/bus/index.js';
import { HubError, UnavailableError } from '../../runtime/errors/index.js';
import type { ActorAddress, ActorView } from '../../runtime/host/index.js';
import { TerminalStates, type Task, type TaskRespondParams } from '../../runtime/protocol/index.js';
import type { Principal } from '../../infra/db/index.js';
import { START_LINGER_MS } from './attempt.js';
import type { EventsReport } from './events-report.js';
import {
  REPLY_TOO_LARGE,
  TASK_RECORD_SLACK,
  canSee,
  notFound,
  requireAgent,
  type AgentPrincipal,
  type TaskCore,
} from './task-core.js';
import type { TaskEvent } from './task.events.js';

/** An answer to a task whose partition is changing hands waits: about 10 s in all. */
const RESPOND_TRIES = 8;
const RESPOND_RETRY_FIRST_MS = 100;
const RESPOND_RETRY_MAX_MS = 2_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

export class TaskResponder {
  constructor(
    private readonly core: TaskCore,
    private readonly report: EventsReport
  ) {}

  async cancel(principal: Principal, taskId: string): Promise<Task> {
    const { o } = this.core;
    const addr = this.core.address(taskId);
    const task = await this.core.readVisible(principal, addr);
    if (TerminalStates.has(task.status.state)) {
      throw new HubError('TASK_NOT_CANCELABLE', `task is already ${task.status.state}`, {
        data: { taskId, state: task.status.state },
      });
    }
    if (principal.kind !== 'agent' || principal.agentId !== task.senderId) {
      throw new HubError('TASK_NOT_CANCELABLE', 'only the sender of a task may cancel it', {
        data: { taskId },
      });
    }
    // Purge first, so the drain cannot hand the recipient a message of a task being canceled.
    if (
      o.queues &&
      (task.status.state === 'submitted' ||
        o.queues.hasBacklog(task.recipientId, task.recipientTenantId))
    ) {
      await o.queues.purgeTask(task.recipientTenantId, task.recipientId, taskId);
    }
    const r = await o.host.send(addr, {
      type: 'task.cancel',
      at: this.core.now(),
      by: principal.agentId,
      reason: 'canceled by the sender',
    } satisfies TaskEvent);
    const after = r.view.context as Task;
    if (after.status.state !== 'canceled') {
      throw new HubError('TASK_NOT_CANCELABLE', `task is already ${after.status.state}`);
    }
    return after;
  }

  /**
   * The recipient's acknowledgement of a pushed message. Not awaited and never written alone if
   * avoidable: it lingers to merge with the task's `working` write or its answer.
   */
  received(principal: Principal, taskId: string): void {
    if (principal.kind !== 'agent') return;
    const addr = this.core.address(taskId);
    const event: TaskEvent = { type: 'task.received', at: this.core.now(), by: principal.agentId };
    this.core.o.host
      .send(addr, event, undefined, { lingerMs: START_LINGER_MS })
      .catch(() => undefined);
  }

  /** The recipient's reply (task/respond, or a WebSocket task_response frame). */
  async respond(principal: Principal, p: TaskRespondParams): Promise<Task> {
    const agent = requireAgent(principal);
    const addr = this.core.address(p.taskId);
    const event: TaskEvent = {
      type: 'task.respond',
      at: this.core.now(),
      by: agent.agentId,
      state: p.status.state,
      ...(p.status.message !== undefined ? { statusText: p.status.message } : {}),
      ...(p.artifact ? { artifact: p.artifact } : {}),
      lastChunk: p.lastChunk,
    };
    const limits = recordLimits(this.core.o.bus.maxPayload);
    const size = encodedSizeOver(event, limits.active - TASK_RECORD_SLACK);
    if (size !== undefined) await this.refuseLargeReply(principal, addr, size, limits);
    let result;
    for (let tries = 0; ; tries++) {
      try {
        result = await this.core.o.host.send(addr, event);
        break;
      } catch (err) {
        // Refused by the owner's store: the task was failed there with the reason (onRefused).
        if (!(err instanceof HubError) || err.code !== 'NOT_FOUND') throw err;
        // Not live: finished (or never existed). Explain which, to parties only.
        const task = await this.core.readVisible(principal, addr);
        if (TerminalStates.has(task.status.state)) {
          throw new HubError('INVALID_PARAMS', `task is already ${task.status.state}`, {
            data: { field: 'taskId', state: task.status.state },
          });
        }
        // Not finished, yet not live where its partition was served: the partition is changing
        // hands (a node woken from a pause still serves it for a moment without the tasks created
        // meanwhile). Refused, the answer was lost and the task stayed `working` for good (the
        // pause fault test: 5 tasks in 6 pauses); it waits for the partition to settle instead.
        if (tries + 1 >= RESPOND_TRIES) {
          throw new UnavailableError(`task ${p.taskId} is moving between nodes; answer again`);
        }
        await sleep(Math.min(RESPOND_RETRY_MAX_MS, RESPOND_RETRY_FIRST_MS * 2 ** tries));
      }
    }
    const task = result.view.context as Task;
    if (!result.changed) {
      if (task.recipientId !== agent.agentId) {
        if (!canSee(principal, task)) throw notFound(p.taskId);
        throw new HubError('FORBIDDEN', 'only the recipient of a task may respond to it', {
          data: { taskId: p.taskId },
        });
      }
      throw new HubError(
        'INVALID_PARAMS',
        `task is ${task.status.state}; the response was not applied`,
        {
          data: { field: 'status.state', state: task.status.state },
        }
      );
    }
    return task;
  }

  /**
   * A reply frame the gateway refused unread for its size (over the body limit): the recipient's
   * task fails with the reason, as for a reply too large to store, so its sender is not left
   * waiting. Anyone else's frame, or a finished task, changes nothing.
   */
  async replyRefused(principal: Principal, taskId: string, reason: string): Promise<void> {
    if (principal.kind !== 'agent') return;
    const addr = this.core.address(taskId);
    const task = await this.core.readVisible(principal, addr);
    if (task.recipientId !== principal.agentId || TerminalStates.has(task.status.state)) return;
    await this.report.failAndReport(addr, task, `${REPLY_TOO_LARGE}: ${reason}`);
  }

  /**
   * Owner side: a change of the task could not be stored and was undone. Back in input-required,
   * the refused change was the sender's continuation: the sender was told, the task still waits.
   * Otherwise the change came from the recipient's reply: the task fails with the reason, so the
   * sender is not left waiting for a reply that can never be stored.
   */
  onRefused(addr: ActorAddress, view: ActorView, err: HubError): void {
    if (view.status !== 'active') return;
    const task = view.context as Task;
    if (task.status.state === 'input-required') return;
    const reason =
      err.code === 'PAYLOAD_TOO_LARGE'
        ? `${REPLY_TOO_LARGE}: ${err.message}`
        : `the task could not be stored: ${err.message}`;
    this.report
      .failAndReport(addr, task, reason)
      .catch((e: unknown) =>
        this.core.o.log.warn(
          { err: e, taskId: task.id },
          'failing a task whose change was refused failed'
        )
      );
  }

  /**
   * A reply larger than any task can store never reaches the owner (nor the bus): the task fails
   * with the reason, so its sender is not left waiting, and the agent is told the limit.
   */
  private async refuseLargeReply(
    principal: Principal,
    addr: ActorAddress,
    size: number,
    limits: { active: number; maxPayload: number }
  ): Promise<never> {
    const text =
      `the reply of ${size} bytes exceeds the ${limits.active} bytes a task can store ` +
      `(NATS max_payload ${limits.maxPayload} bytes)`;
    const task = await this.core.readVisible(principal, addr);
    if (task.recipientId === (principal as AgentPrincipal).agentId) {
      if (!TerminalStates.has(task.status.state)) {
        await this.report.failAndReport(addr, task, `${REPLY_TOO_LARGE}: ${text}`);
      }
    }
    throw new HubError('PAYLOAD_TOO_LARGE', `Reply too large: ${text}`, {
      data: { size, limit: limits.active, maxPayload: limits.maxPayload },
    });
  }
}
