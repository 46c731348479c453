// Accepting work (spec "States and transitions", decisions.md §8): a new task or a continuation,
// the checks made before anything is stored, the queue for an offline recipient, and the blocking
// caller's wait.
import { encodedSizeOver, recordLimits } from '../../runtime/bus/index.js';
import { HubError, InvalidParamsError, UnavailableError } from '../../runtime/errors/index.js';
import {
  TerminalStates,
  assertAcceptsOutputModes,
  type DeclaresOutputModes,
  type Message,
  type SendRequest,
  type Task,
} from '../../runtime/protocol/index.js';
import type { Principal } from '../../infra/db/index.js';
import { isVisibleTo, type AgentRecord } from '../agent/directory.js';
import { NO_ENDPOINT } from '../agent/delivery.js';
import type { EventsReport } from './events-report.js';
import { newContextId, newTaskId, taskPartitionForSender } from './ids.js';
import { effectiveTtlSeconds, queueTransport, type TaskSpawn } from './queue-handoff.js';
import {
  SETTLED,
  TASK_RECORD_SLACK,
  requireAgent,
  type AgentPrincipal,
  type TaskCore,
} from './task-core.js';
import type { TaskEvent, TaskInput } from './task.events.js';
import { taskMessageLimit } from './task.limits.js';
import type { TaskWatch } from './watch.js';

export class TaskAcceptor {
  constructor(
    private readonly core: TaskCore,
    private readonly report: EventsReport,
    private readonly watch: TaskWatch,
    /** Whether the pair has a delivery under way on this node (TaskDelivery's lane). */
    private readonly laneBusy: (senderId: string, recipientId: string) => boolean = () => false
  ) {}

  async send(principal: Principal, req: SendRequest): Promise<Task> {
    const { o } = this.core;
    const sender = requireAgent(principal);
    // Before anything is created or queued: a message the hub cannot store leaves no trace.
    this.refuseLargeMessage(req.message);
    // Cached per tenant: a Map probe unless this node has not seen the tenant for a while.
    const budget = o.spending?.check(sender.tenantId, sender.agentId);
    if (budget !== undefined) await budget;
    if (req.taskId !== undefined) return this.continueTask(sender, req);

    const recipient = await this.recipientOf(sender, req);
    assertAcceptsOutputModes(cardOf(recipient), req.acceptedOutputModes);
    const offline = this.mustQueue(recipient);
    const partition = taskPartitionForSender(sender.agentId, o.partitions);
    const contextId = req.contextId ?? newContextId();
    // Allocated before the offline check so that a refused send's message.failed and error carry
    // the id the task would have had (receivers key idempotency on taskId); no task is stored.
    const taskId = newTaskId(partition);
    if (offline && req.ttlSeconds === 0) {
      this.report.reportFailed(sender.tenantId, {
        taskId,
        contextId,
        from: sender.agentId,
        to: recipient.id,
        error: `${NO_ENDPOINT} (x-ttl 0: not queued)`,
      });
      throw new HubError('RECIPIENT_OFFLINE', `agent ${recipient.id} is offline and x-ttl is 0`, {
        data: { agentId: recipient.id, taskId, contextId },
      });
    }

    const at = this.core.now();
    const input: TaskInput = {
      id: taskId,
      contextId,
      senderId: sender.agentId,
      recipientId: recipient.id,
      senderTenantId: sender.tenantId,
      recipientTenantId: recipient.tenantId,
      message: { ...req.message, contextId },
      configuration: configurationOf(req),
      at,
    };
    input.message.taskId = input.id;
    const key = `${sender.agentId}:${req.message.messageId}`;
    // The task's owner delivers it once its creation is durable (onDurable); this node answers.
    const addr = { kind: 'task', id: input.id, partition };
    const waiter = req.blocking
      ? this.watch.waitSettled(addr, this.blockingMs(), this.answersBlockingSend)
      : undefined;
    // Not queued at once while an earlier message of the pair is in delivery on this node (the
    // task's owner): that one may be waiting out a push to a node that stopped answering, and
    // queues only when it fails, so this one goes through the pair's lane behind it. (A partitions
    // fault run, seed 374119235, had 13 pairs overtaken so.) On another node the owner's lanes are
    // not known, and the send queues at once as before: docs/OPERATIONS.md "FIFO across a cut".
    const queue =
      offline && !(o.host.owns(partition) && this.laneBusy(sender.agentId, recipient.id));
    try {
      if (queue && o.queues) {
        const queued = await this.sendQueued(input, partition, key, recipient, req);
        this.report.reportMessage('message.sent', queued);
        // The recipient was offline when this send was decided, but the queue's owner may have
        // been activating (after a restart) while it connected: then the drain delivers it now.
        if (!waiter || queued.id !== input.id || this.answersBlockingSend(queued)) return queued;
        return (await waiter.result) ?? (await this.core.get(addr, queued));
      }
      const created = await o.host.send(addr, undefined, { input, key });
      const task = created.view.context as Task;
      // A repeat of a message already accepted: the same task, delivered once (by its owner).
      if (!created.created) return task;
      this.report.reportMessage('message.sent', task);
      if (!waiter || this.answersBlockingSend(task)) return task;
      return (await waiter.result) ?? (await this.core.get(addr, task));
    } finally {
      waiter?.cancel();
    }
  }

  /**
   * A blocking SendMessage returns once the task settles, or once its message went to the queue of
   * a recipient that is not connected. A connected recipient's queue drains to it now (a send that
   * raced its connect, or one that waits behind messages queued just before), so the caller keeps
   * waiting rather than being told `submitted` by an agent that is there.
   */
  private readonly answersBlockingSend = (t: Task): boolean =>
    SETTLED.has(t.status.state) ||
    (t.delivery === 'queued' && !this.core.o.presence.isOnline(t.recipientId));

  private blockingMs(): number {
    return this.core.o.blockingTimeoutMs ?? 60_000;
  }

  private async continueTask(sender: AgentPrincipal, req: SendRequest): Promise<Task> {
    const taskId = req.taskId!;
    const addr = this.core.address(taskId);
    const current = await this.core.readVisible(sender, addr);
    if (current.senderId !== sender.agentId) {
      throw new InvalidParamsError(
        'configuration.taskId',
        'only the sender of a task may continue it'
      );
    }
    if (TerminalStates.has(current.status.state)) {
      throw new InvalidParamsError('configuration.taskId', `task is ${current.status.state}`);
    }
    if (current.status.state !== 'input-required') {
      throw new InvalidParamsError(
        'configuration.taskId',
        `task is ${current.status.state}, not waiting for input`
      );
    }
    const message: Message = { ...req.message, contextId: current.contextId, taskId };
    this.refuseGrowth(current, message);
    const waiter = req.blocking
      ? this.watch.waitSettled(addr, this.blockingMs(), this.answersBlockingSend)
      : undefined;
    try {
      const r = await this.core.o.host.send(addr, {
        type: 'task.input',
        at: this.core.now(),
        by: sender.agentId,
        message,
      } satisfies TaskEvent);
      const task = r.view.context as Task;
      if (r.changed) this.report.reportMessage('message.sent', task);
      if (!waiter || this.answersBlockingSend(task)) return task;
      return (await waiter.result) ?? (await this.core.get(addr, task));
    } finally {
      waiter?.cancel();
    }
  }

  /**
   * A message larger than a task can hold along with a reply as large (actors/task/task.limits.ts)
   * is refused up front: NATS max_payload bounds every record the hub writes.
   */
  private refuseLargeMessage(message: Message): void {
    const limits = recordLimits(this.core.o.bus.maxPayload);
    const limit = taskMessageLimit(limits.active);
    const size = encodedSizeOver(message, limit);
    if (size === undefined) return;
    throw new HubError(
      'PAYLOAD_TOO_LARGE',
      `Message of ${size} bytes exceeds the ${limit} bytes this hub accepts per message: NATS ` +
        `max_payload (${limits.maxPayload} bytes) must hold the task with the message and a ` +
        `reply as large`,
      { data: { field: 'message', size, limit, maxPayload: limits.maxPayload } }
    );
  }

  /**
   * A continuation adds its message to the task twice (messages and events): the history so far
   * must leave room for it, or the task could never be stored again.
   */
  private refuseGrowth(task: Task, message: Message): void {
    const limits = recordLimits(this.core.o.bus.maxPayload);
    const adds = 2 * Buffer.byteLength(JSON.stringify(message));
    const room = limits.active - TASK_RECORD_SLACK - adds;
    const size = encodedSizeOver(task, room);
    if (size === undefined) return;
    throw new HubError(
      'PAYLOAD_TOO_LARGE',
      `Task ${task.id} holds ${size} bytes; this message would add ${adds} and a task may take at ` +
        `most ${limits.active} bytes (NATS max_payload ${limits.maxPayload} bytes): start a new task`,
      {
        data: {
          field: 'message',
          size: size + adds,
          limit: limits.active,
          maxPayload: limits.maxPayload,
        },
      }
    );
  }

  private async recipientOf(sender: AgentPrincipal, req: SendRequest): Promise<AgentRecord> {
    const { o } = this.core;
    let target = req.agentId;
    if (target === undefined && req.contextId !== undefined && o.contextPeer) {
      target = await o.contextPeer(req.contextId, sender.agentId);
    }
    if (target === undefined) {
      throw new InvalidParamsError(
        'configuration.agentId',
        'required (the target agent id or alias)'
      );
    }
    const agent = await o.directory.resolve(target, sender.tenantId);
    // A private agent of another organization gets the very answer of an unknown id: a FORBIDDEN
    // here would tell a stranger that it exists (issue 18). An access grant its owner approved
    // (issue 28) lets exactly that pair through; the lookup happens only on this rare path.
    // An unknown id is asked about too, so it takes as long as a hidden agent (issue 18).
    const reachable =
      (agent !== null && isVisibleTo(agent, sender.tenantId)) ||
      (o.accessGranted !== undefined &&
        (await o.accessGranted(sender.agentId, agent?.id ?? target)) &&
        agent !== null);
    if (!agent || !reachable) {
      throw new HubError('AGENT_NOT_FOUND', `no agent ${target}`, { data: { agentId: target } });
    }
    return agent;
  }

  /**
   * Should a new message go to the recipient's queue rather than be delivered now? An agent with
   * neither a socket anywhere nor a URL, or any agent whose queue holds messages (FIFO: new ones
   * wait behind them; an HTTP agent then waits for its retry instead of being called again).
   */
  private mustQueue(agent: AgentRecord): boolean {
    const { o } = this.core;
    if (!o.queues || agent.transport === 'official') return false;
    if (o.queues.hasBacklog(agent.id, agent.tenantId)) return true;
    return agent.url === null && !o.presence.isOnline(agent.id);
  }

  /** A new send to a recipient that must queue: the queue admits it, then the task is created. */
  private async sendQueued(
    input: TaskInput,
    partition: number,
    key: string,
    recipient: AgentRecord,
    req: SendRequest
  ): Promise<Task> {
    const r = await this.core.o.queues!.enqueue({
      tenantId: recipient.tenantId,
      recipientId: recipient.id,
      senderId: input.senderId,
      transport: queueTransport(recipient),
      key,
      maxPending: recipient.queueMaxPending,
      expiresAt: input.at + effectiveTtlSeconds(req.ttlSeconds, recipient) * 1000,
      message: input.message,
      taskId: input.id,
      spawn: { partition, input: { ...input, queued: true } } satisfies TaskSpawn,
    });
    if (r.task !== undefined) return r.task as Task;
    const v = await this.core.read(this.core.address(r.taskId));
    if (!v) throw new UnavailableError(`task ${r.taskId} is not readable yet`);
    return v;
  }
}

function cardOf(agent: AgentRecord): DeclaresOutputModes {
  return agent.card ?? {};
}

function configurationOf(req: SendRequest): Record<string, unknown> {
  const c: Record<string, unknown> = {};
  if (req.acceptedOutputModes !== undefined) c.acceptedOutputModes = req.acceptedOutputModes;
  if (req.historyLength !== undefined) c.historyLength = req.historyLength;
  if (req.ttlSeconds !== undefined) c['x-ttl'] = req.ttlSeconds;
  if (req.blocking) c.blocking = true;
  return c;
}
