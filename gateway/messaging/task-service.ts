// The A2A task operations behind every dialect (spec "States and transitions", decisions.md §8):
// send (new task, continuation, blocking wait), get, cancel, respond (the recipient's reply), and
// the owner-side reaction to every durable change (task events on the bus, task_update frames).
import { randomUUID } from 'node:crypto';
import type { Subscription } from '@nats-io/nats-core';
import {
  decodeJson,
  encodeJson,
  encodedSizeOver,
  partitionLabel,
  recordLimits,
  publishEvent,
  subjects,
  type Bus,
  type HubEventData,
  type HubEventName,
  type PublishEventInput,
} from '../../runtime/bus/index.js';
import { HubError, InvalidParamsError, UnavailableError } from '../../runtime/errors/index.js';
import type { ActorAddress, ActorHost, ActorView } from '../../runtime/host/index.js';
import { throttledLog, type Logger, type ThrottledLog } from '../../runtime/log/index.js';
import type { HubMetrics } from '../../runtime/metrics/index.js';
import type { OutboundGuard } from '../../runtime/net/index.js';
import {
  TerminalStates,
  assertAcceptsOutputModes,
  type DeclaresOutputModes,
  encodeTaskHub,
  type Message,
  type SendRequest,
  type Task,
  type TaskRespondParams,
} from '../../runtime/protocol/index.js';
import type { EnvelopeSigner } from '../../runtime/envelope/index.js';
import {
  taskMessageLimit,
  type QueueEntry,
  type QueueTransport,
  type TaskEvent,
  type TaskInput,
} from '../../actors/index.js';
import type { Principal } from '../../infra/db/index.js';
import { isVisibleTo, type AgentDirectory, type AgentRecord } from './directory.js';
import type { FrameRouter } from './frames.js';
import type { Presence } from './presence.js';
import {
  NO_ENDPOINT,
  cancelAtHttpAgent,
  deliverHttp,
  deliverOfficial,
  deliverWebSocket,
  MessageSendAgents,
  type AgentAnswer,
  type Delivery,
  type DeliveryOutcome,
} from './delivery.js';
import { newContextId, newTaskId, taskPartition, taskPartitionForSender } from './ids.js';
import type { QueueDelegate, QueueService } from './queue-service.js';

export interface TaskServiceOptions {
  host: ActorHost;
  bus: Bus;
  directory: AgentDirectory;
  presence: Presence;
  frames: FrameRouter;
  signer: EnvelopeSigner;
  partitions: number;
  log: Logger;
  blockingTimeoutMs?: number;
  httpTimeoutMs?: number;
  /** Checks every HTTP agent's address before the hub connects (OUTBOUND_ALLOW_PRIVATE). */
  outbound: OutboundGuard;
  officialTimeoutMs?: number;
  /** Offline delivery; without it an unreachable recipient fails the task at once. */
  queues?: QueueService;
  /** Looks up the other party of a conversation (contextId without agentId). */
  contextPeer?: (contextId: string, agentId: string) => Promise<string | undefined>;
  /**
   * Whether a tenant's webhooks subscribe to an event: message.sent/.delivered/.received are
   * stored only then (message.failed always). Without it every event is stored.
   */
  eventInterest?: { wants(tenantId: string, event: string): Promise<boolean> };
  /** Live hub nodes (membership): a push to a socket on any other node is re-delivered. */
  liveNodes?: () => readonly string[];
  /** Counts deliveries whose retries gave up (retryGiveUps, loop delivery). */
  metrics?: HubMetrics;
  now?: () => number;
}

type AgentPrincipal = Extract<Principal, { kind: 'agent' }>;

/** How long the "working" write after a delivery may wait to merge with the reply. */
const START_LINGER_MS = 20;

/** States in which a blocking caller stops waiting. */
export const SETTLED: ReadonlySet<string> = new Set([
  'completed',
  'failed',
  'canceled',
  'rejected',
  'input-required',
]);

/** The failure texts senders see in the task's status message and in message.failed. */
const EXPIRED = 'message expired in the queue before it could be delivered (effective TTL elapsed)';
const BUSY = 'recipient is not keeping up; its WebSocket is backed up';

/** Error codes of a queue that refused a message. */
const QUEUE_REFUSALS = new Set(['QUEUE_FULL', 'SENDER_THROTTLED', 'TENANT_QUEUE_FULL']);

/** Publish retries of an account event: 250 ms doubling, about a minute in all. */
const EVENT_RETRIES = 8;

/** A restored task may still be in its old owner's hands (graceful handover): wait this long. */
const HANDOVER_GRACE_MS = 3000;
/** Retries of a delivery that failed on the hub's side (log or database unavailable). */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 30_000;
/**
 * Attempts of one delivery on this node (about four minutes with the pauses above); past them the
 * task fails with the reason (a new owner after a move starts its own count).
 */
const DELIVERY_MAX_TRIES = 12;

/** The start of the reason a task fails with when the recipient's reply could not be stored. */
const REPLY_TOO_LARGE = 'reply too large to store';

/** Bytes of a task's persisted snapshot around its context (state value, status, xstate fields). */
const TASK_RECORD_SLACK = 1024;

export class TaskService implements QueueDelegate {
  private readonly now: () => number;
  /** Owner side: last state announced per live task, to send task_update only on changes. */
  private readonly announced = new Map<string, string>();
  /** Blocking waiters on this node for tasks this node owns, by task id. */
  private readonly localListeners = new Map<string, Set<(t: Task) => void>>();
  /** Owner side: deliveries running on this node, by `<taskId>#<message count>`. */
  private readonly delivering = new Set<string>();
  /**
   * Owner side: per sender → recipient, the tail of the deliveries in progress. Each waits for the
   * one before it to be pushed or queued, so messages of a pair reach the recipient in order
   * (also when one of them is diverted to the queue).
   */
  private readonly lanes = new Map<string, Promise<void>>();
  /** Owner side: tasks pushed to a WebSocket and not answered yet → the node holding the socket. */
  private readonly pushed = new Map<string, { addr: ActorAddress; node: string }>();
  private readonly throttled: ThrottledLog;
  private readonly messageSend = new MessageSendAgents();

  constructor(private readonly o: TaskServiceOptions) {
    this.now = o.now ?? Date.now;
    this.throttled = throttledLog(o.log);
    o.host.onDurable('task', (addr, view) => this.onDurable(addr, view));
    o.host.onRestored('task', (addr, view) => this.onRestored(addr, view));
    o.host.onRefused('task', (addr, view, err) => this.onRefused(addr, view, err));
    o.queues?.connect(this);
  }

  // ---- send ---------------------------------------------------------------------------------

  async send(principal: Principal, req: SendRequest): Promise<Task> {
    const sender = requireAgent(principal);
    // Before anything is created or queued: a message the hub cannot store leaves no trace.
    this.refuseLargeMessage(req.message);
    if (req.taskId !== undefined) return this.continueTask(sender, req);

    const recipient = await this.recipientOf(sender, req);
    assertAcceptsOutputModes(cardOf(recipient), req.acceptedOutputModes);
    const queue = this.mustQueue(recipient);
    const partition = taskPartitionForSender(sender.agentId, this.o.partitions);
    const contextId = req.contextId ?? newContextId();
    // Allocated before the offline check so that a refused send's message.failed and error carry
    // the id the task would have had (receivers key idempotency on taskId); no task is stored.
    const taskId = newTaskId(partition);
    if (queue && req.ttlSeconds === 0) {
      this.reportFailed(sender.tenantId, {
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

    const at = this.now();
    const configuration = configurationOf(req);
    const input: TaskInput = {
      id: taskId,
      contextId,
      senderId: sender.agentId,
      recipientId: recipient.id,
      senderTenantId: sender.tenantId,
      recipientTenantId: recipient.tenantId,
      message: { ...req.message, contextId },
      configuration,
      at,
    };
    input.message.taskId = input.id;
    const key = `${sender.agentId}:${req.message.messageId}`;
    // The task's owner delivers it once its creation is durable (onDurable); this node answers.
    const addr = { kind: 'task', id: input.id, partition };
    const waiter = req.blocking
      ? this.waitSettled(addr, this.blockingMs(), this.answersBlockingSend)
      : undefined;
    try {
      if (queue && this.o.queues) {
        const queued = await this.sendQueued(input, partition, key, recipient, req);
        this.reportMessage('message.sent', queued);
        // The recipient was offline when this send was decided, but the queue's owner may have
        // been activating (after a restart) while it connected: then the drain delivers it now.
        if (!waiter || queued.id !== input.id || this.answersBlockingSend(queued)) return queued;
        return (await waiter.result) ?? (await this.get(addr, queued));
      }
      const created = await this.o.host.send(addr, undefined, { input, key });
      const task = created.view.context as Task;
      // A repeat of a message already accepted: the same task, delivered once (by its owner).
      if (!created.created) return task;
      this.reportMessage('message.sent', task);
      if (!waiter || this.answersBlockingSend(task)) return task;
      return (await waiter.result) ?? (await this.get(addr, task));
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
    (t.delivery === 'queued' && !this.o.presence.isOnline(t.recipientId));

  private blockingMs(): number {
    return this.o.blockingTimeoutMs ?? 60_000;
  }

  private async continueTask(sender: AgentPrincipal, req: SendRequest): Promise<Task> {
    const taskId = req.taskId!;
    const addr = this.address(taskId);
    const current = await this.readVisible(sender, addr);
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
      ? this.waitSettled(addr, this.blockingMs(), this.answersBlockingSend)
      : undefined;
    try {
      const r = await this.o.host.send(addr, {
        type: 'task.input',
        at: this.now(),
        by: sender.agentId,
        message,
      } satisfies TaskEvent);
      const task = r.view.context as Task;
      if (r.changed) this.reportMessage('message.sent', task);
      if (!waiter || this.answersBlockingSend(task)) return task;
      return (await waiter.result) ?? (await this.get(addr, task));
    } finally {
      waiter?.cancel();
    }
  }

  /**
   * A message larger than a task can hold along with a reply as large (actors/task/task.limits.ts)
   * is refused up front: NATS max_payload bounds every record the hub writes.
   */
  private refuseLargeMessage(message: Message): void {
    const limits = recordLimits(this.o.bus.maxPayload);
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
    const limits = recordLimits(this.o.bus.maxPayload);
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
    let target = req.agentId;
    if (target === undefined && req.contextId !== undefined && this.o.contextPeer) {
      target = await this.o.contextPeer(req.contextId, sender.agentId);
    }
    if (target === undefined) {
      throw new InvalidParamsError(
        'configuration.agentId',
        'required (the target agent id or alias)'
      );
    }
    const agent = await this.o.directory.resolve(target, sender.tenantId);
    // A private agent of another organization gets the very answer of an unknown id: a FORBIDDEN
    // here would tell a stranger that it exists (issue 18).
    if (!agent || !isVisibleTo(agent, sender.tenantId)) {
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
    if (!this.o.queues || agent.transport === 'official') return false;
    if (this.o.queues.hasBacklog(agent.id)) return true;
    return agent.url === null && !this.o.presence.isOnline(agent.id);
  }

  /**
   * How a message reaches the agent now (decisions.md §11 "Delivery order"): over its WebSocket
   * when one is live, else over HTTP when it has a URL; an agent with neither is tried over the
   * WebSocket, which finds it unreachable, so the message queues.
   */
  private routeOf(agent: AgentRecord): 'websocket' | 'http' | 'official' {
    if (agent.transport === 'official') return 'official';
    if (agent.url === null || this.o.presence.isOnline(agent.id)) return 'websocket';
    return 'http';
  }

  /** A new send to a recipient that must queue: the queue admits it, then the task is created. */
  private async sendQueued(
    input: TaskInput,
    partition: number,
    key: string,
    recipient: AgentRecord,
    req: SendRequest
  ): Promise<Task> {
    const r = await this.o.queues!.enqueue({
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
    return this.readTask(r.taskId);
  }

  private async readTask(taskId: string): Promise<Task> {
    const v = await this.o.host.read(this.address(taskId));
    if (!v) throw new UnavailableError(`task ${taskId} is not readable yet`);
    return v.context as Task;
  }

  /**
   * A delivery attempt found the recipient unreachable or backed up: the message waits in its
   * queue (the task stays as it is) unless x-ttl is 0 or the queue refuses it; then the task fails.
   */
  private async queueAfterAttempt(
    addr: ActorAddress,
    task: Task,
    message: Message,
    recipient: AgentRecord,
    unreachable: boolean,
    reason: string
  ): Promise<Task> {
    const ttl = task.configuration?.['x-ttl'] as number | undefined;
    if (!this.o.queues || recipient.transport === 'official' || ttl === 0) {
      return this.failAndReport(addr, task, reason);
    }
    try {
      await this.o.queues.enqueue({
        tenantId: recipient.tenantId,
        recipientId: recipient.id,
        senderId: task.senderId,
        transport: queueTransport(recipient),
        key: `${task.senderId}:${message.messageId}`,
        maxPending: recipient.queueMaxPending,
        expiresAt: this.now() + effectiveTtlSeconds(ttl, recipient) * 1000,
        message,
        taskId: task.id,
        unreachable,
      });
    } catch (err) {
      if (err instanceof HubError && QUEUE_REFUSALS.has(err.code)) {
        return this.failAndReport(addr, task, `${reason}; not queued: ${err.message}`);
      }
      throw err;
    }
    // The drain delivers it now. A crash before this write delivers it twice (same messageId).
    return this.event(addr, { type: 'task.queued', at: this.now() });
  }

  private async failAndReport(addr: ActorAddress, task: Task, error: string): Promise<Task> {
    const after = await this.fail(addr, error);
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
  private reportFailed(
    tenantId: string,
    data: {
      taskId: string;
      contextId: string;
      from: string;
      to: string;
      error: string;
    }
  ): void {
    this.record({ tenantId, event: 'message.failed', data, id: randomUUID() });
  }

  /**
   * Stores an account event without holding up the caller, if a webhook of the tenant subscribes
   * to it (message.failed always: the bus carries every failure).
   */
  private record<E extends HubEventName>(input: PublishEventInput<E>): void {
    const interest = this.o.eventInterest;
    if (!interest || input.event === 'message.failed') return this.store(input);
    interest.wants(input.tenantId, input.event).then(
      (wanted) => wanted && this.store(input),
      (err: unknown) => this.o.log.warn({ err, event: input.event }, 'account event not stored')
    );
  }

  /**
   * A publish that fails (the events stream has no leader for a moment after a NATS server died)
   * is retried with the same id, so it is stored once, for about a minute (within the stream's
   * two-minute duplicate window).
   */
  private store<E extends HubEventName>(input: PublishEventInput<E>, tries = 0): void {
    publishEvent(this.o.bus, input).catch((err: unknown) => {
      if (tries >= EVENT_RETRIES) {
        this.o.log.warn({ err, event: input.event, id: input.id }, 'account event not stored');
        return;
      }
      setTimeout(() => this.store(input, tries + 1), 250 * 2 ** tries).unref();
    });
  }

  /**
   * message.sent (sender's account) or message.received (recipient's account), fire and forget.
   * The event id is derived from the task, so a repeated publish of the same fact is stored once.
   */
  private reportMessage(event: 'message.sent' | 'message.received', task: Task): void {
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
  private reportDelivered(
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

  // ---- QueueDelegate ------------------------------------------------------------------------------

  async transportOf(recipientId: string): Promise<QueueTransport> {
    const r = await this.o.directory.get(recipientId);
    return r ? queueTransport(r) : 'websocket';
  }

  async createTask(spawn: unknown, key: string) {
    const { partition, input } = spawn as TaskSpawn;
    const r = await this.o.host.send({ kind: 'task', id: input.id, partition }, undefined, {
      input,
      key,
    });
    return { taskId: r.id, task: r.view.context, created: r.created };
  }

  async deliverQueued(
    entry: QueueEntry,
    message: Message
  ): Promise<'delivered' | 'busy' | 'offline' | 'gone'> {
    const addr = this.address(entry.taskId);
    const task = (await this.o.host.read(addr))?.context as Task | undefined;
    if (!task || TerminalStates.has(task.status.state)) return 'gone';
    const recipient = await this.o.directory.get(entry.recipientId);
    if (!recipient) {
      await this.failAndReport(addr, task, 'recipient agent no longer exists');
      return 'gone';
    }
    const route = this.routeOf(recipient);
    const via = route === 'websocket' ? this.o.presence.where(recipient.id)?.nodeId : undefined;
    const outcome = await this.attempt(task, message, recipient, route);
    switch (outcome.kind) {
      case 'pushed':
        // Durable before the queue deletes its record: a crash in between must not leave a
        // delivered message's task in `submitted` with nothing left to move it.
        await this.event(addr, {
          type: 'task.start',
          at: this.now(),
          ...(via ? { node: via } : {}),
        });
        return 'delivered';
      case 'answered':
        await this.applyAnswer(addr, recipient.id, outcome.answer);
        return 'delivered';
      case 'unreachable':
        return 'offline';
      case 'busy':
        return 'busy';
      default: {
        const never: never = outcome;
        throw new HubError('INTERNAL', `unknown outcome ${JSON.stringify(never)}`);
      }
    }
  }

  async expired(entry: QueueEntry): Promise<void> {
    const addr = this.address(entry.taskId);
    const task = (await this.o.host.read(addr))?.context as Task | undefined;
    if (!task || TerminalStates.has(task.status.state)) return;
    await this.failAndReport(addr, task, EXPIRED);
  }

  // ---- delivery -----------------------------------------------------------------------------

  /**
   * Owner side: deliver the task's undelivered message (Task.delivery `pending`), once per message
   * on this node; a failure on the hub's side (log, database) is retried while this node owns the
   * task and it is still pending. After a crash or a move the next owner finds it pending again.
   */
  private startDelivery(
    addr: ActorAddress,
    task: Task,
    opts: { notBefore?: number; tries?: number } = {}
  ): void {
    const job = `${task.id}#${task.messages.length}`;
    if (this.delivering.has(job)) return;
    this.delivering.add(job);
    const tries = opts.tries ?? 0;
    this.inLane(task, async (release) => {
      if (opts.notBefore !== undefined) {
        // Restored: the partition finishes activating first, and the old owner may finish a
        // delivery it had under way meanwhile (its events reach this node then).
        await sleep(Math.max(0, opts.notBefore - this.now()));
        for (let i = 0; i < 400 && !this.o.host.owns(addr.partition); i++) await sleep(50);
      }
      // The durable view that started this may be stale (a later change is already in memory,
      // e.g. the push and the agent's answer): deliver only what the live task still holds.
      if (!this.o.host.owns(addr.partition)) return;
      const live = (await this.o.host.read(addr))?.context as Task | undefined;
      if (!live || !isPending(live, task.messages.length)) return;
      await this.deliver(addr, live, live.messages.at(-1)!, release);
    }).then(
      () => this.delivering.delete(job),
      (err: unknown) => {
        this.delivering.delete(job);
        // Refused for good (too large, invalid): the owner's store failed the task with the reason.
        if (err instanceof HubError && !err.retryable) {
          this.throttled.warn(
            `delivery:${err.code}`,
            { err, taskId: task.id },
            'delivery failed for good; not retried'
          );
          return;
        }
        // Moved away meanwhile: the new owner delivers it (and counts its own tries).
        if (!this.o.host.owns(addr.partition)) return;
        if (tries + 1 >= DELIVERY_MAX_TRIES) {
          this.o.metrics?.retryGiveUps.inc({ loop: 'delivery' });
          this.o.log.error(
            { err, taskId: task.id, tries: tries + 1 },
            'delivery retries exhausted; the task fails'
          );
          // The sender learns it and may send again, rather than wait on a task nobody retries.
          const why = err instanceof HubError ? err.message : 'internal error';
          void this.failAndReport(
            addr,
            task,
            `delivery failed on the hub's side ${tries + 1} times: ${why}`
          ).catch((e: unknown) =>
            this.o.log.warn({ err: e, taskId: task.id }, 'failing an undeliverable task failed')
          );
          return;
        }
        this.throttled.warn(
          'delivery:retry',
          { err, taskId: task.id, tries: tries + 1 },
          'delivery failed; retrying'
        );
        const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** tries);
        setTimeout(() => {
          if (!this.o.host.owns(addr.partition)) return;
          void this.o.host.read(addr).then(
            (v) => {
              const t = v?.context as Task | undefined;
              if (t && isPending(t, task.messages.length))
                this.startDelivery(addr, t, { tries: tries + 1 });
            },
            (e: unknown) =>
              this.o.log.warn({ err: e, taskId: task.id }, 'delivery retry read failed')
          );
        }, delay).unref();
      }
    );
  }

  /**
   * Runs `fn` after the deliveries of the same sender → recipient pair started before it have
   * pushed or queued their message. `fn` may release the lane early (after its push).
   */
  private inLane(task: Task, fn: (release: () => void) => Promise<void>): Promise<void> {
    const pair = `${task.senderId}>${task.recipientId}`;
    const before = this.lanes.get(pair);
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    this.lanes.set(pair, mine);
    void mine.then(() => {
      if (this.lanes.get(pair) === mine) this.lanes.delete(pair);
    });
    const run = async () => {
      try {
        if (before) await before;
        await fn(release);
      } finally {
        release();
      }
    };
    return run();
  }

  /** Deliver the message: push, call, or queue it; `pushed` releases the pair's lane. */
  private async deliver(
    addr: ActorAddress,
    task: Task,
    message: Message,
    pushed: () => void
  ): Promise<void> {
    const recipient = await this.o.directory.get(task.recipientId);
    if (!recipient) {
      await this.failAndReport(addr, task, 'recipient agent no longer exists');
      return;
    }
    // Calls to HTTP and official agents run side by side; only WebSocket pushes keep the lane.
    const route = this.routeOf(recipient);
    if (route !== 'websocket') pushed();
    // Messages queued before this one go first (FIFO): this one waits behind them.
    if (recipient.transport !== 'official' && this.o.queues?.hasBacklog(recipient.id)) {
      await this.queueAfterAttempt(
        addr,
        task,
        message,
        recipient,
        false,
        'the recipient has earlier messages waiting in its queue'
      );
      return;
    }
    const via = route === 'websocket' ? this.o.presence.where(recipient.id)?.nodeId : undefined;
    const outcome = await this.attempt(task, message, recipient, route);
    switch (outcome.kind) {
      case 'pushed':
        pushed();
        // Nobody awaits "working": let it merge with the agent's reply when that comes quickly.
        await this.event(
          addr,
          { type: 'task.start', at: this.now(), ...(via ? { node: via } : {}) },
          START_LINGER_MS
        );
        return;
      case 'answered':
        await this.applyAnswer(addr, recipient.id, outcome.answer);
        return;
      case 'unreachable':
        await this.queueAfterAttempt(addr, task, message, recipient, true, outcome.reason);
        return;
      case 'busy':
        await this.queueAfterAttempt(addr, task, message, recipient, false, BUSY);
        return;
      default: {
        const never: never = outcome;
        throw new HubError('INTERNAL', `unknown outcome ${JSON.stringify(never)}`);
      }
    }
  }

  /**
   * Membership changed. A task pushed to a socket on a node that is gone may have lost its answer
   * with that node: deliver its message again (the agent sees the same taskId and messageId).
   */
  nodesChanged(): void {
    const live = this.o.liveNodes?.();
    if (!live) return;
    for (const [taskId, p] of this.pushed) {
      // A partition that moved away took its tasks along: the new owner checks them on restore.
      if (!this.o.host.owns(p.addr.partition)) this.pushed.delete(taskId);
      else if (!live.includes(p.node)) this.redeliver(taskId);
    }
  }

  private redeliver(taskId: string): void {
    const p = this.pushed.get(taskId);
    if (!p) return;
    this.pushed.delete(taskId);
    this.event(p.addr, { type: 'task.redeliver', at: this.now() }).catch((err: unknown) =>
      this.o.log.warn({ err, taskId }, 'redelivery after a node loss failed')
    );
  }

  /** One delivery attempt over `route`, with a freshly signed envelope. */
  private async attempt(
    task: Task,
    message: Message,
    recipient: AgentRecord,
    route: 'websocket' | 'http' | 'official'
  ): Promise<DeliveryOutcome> {
    const d: Delivery = {
      task,
      message,
      recipient,
      envelope: this.o.signer.sign(
        {
          sender: { agentId: task.senderId, tenantId: task.senderTenantId },
          recipient: { agentId: recipient.id, tenantId: recipient.tenantId },
          taskId: task.id,
          contextId: task.contextId,
          messageId: message.messageId,
        },
        { now: this.now() }
      ),
      configuration: task.configuration ?? {},
    };
    const http = () =>
      deliverHttp(d, {
        timeoutMs: this.o.httpTimeoutMs ?? 30_000,
        guard: this.o.outbound,
        messageSend: this.messageSend,
      });
    switch (route) {
      case 'websocket': {
        const pushed = await deliverWebSocket(this.o.frames, d);
        // The socket went away since presence named it: the URL is the next way (§11).
        if (pushed.kind === 'unreachable' && recipient.url !== null) {
          return this.reportDelivered(task, 'http', await http());
        }
        return this.reportDelivered(task, 'websocket', pushed);
      }
      case 'http':
        return this.reportDelivered(task, 'http', await http());
      case 'official':
        // The spec knows websocket and http only; official agents are addressed at the hub's HTTP
        // endpoint (their card url), so clients with a closed enum still read the event.
        return this.reportDelivered(
          task,
          'http',
          await deliverOfficial(this.o.bus, d, this.o.officialTimeoutMs ?? 120_000)
        );
      default: {
        const never: never = route;
        throw new HubError('INTERNAL', `unknown transport ${String(never)}`);
      }
    }
  }

  private async applyAnswer(addr: ActorAddress, by: string, a: AgentAnswer): Promise<Task> {
    // "working" and the answer are written together: the answer's event awaits durability.
    await this.event(addr, { type: 'task.start', at: this.now() }, START_LINGER_MS);
    const artifacts = a.artifacts;
    // Every artifact but the last goes in as its own event; the last travels with the final state.
    for (const artifact of artifacts.slice(0, -1)) {
      await this.event(addr, {
        type: 'task.respond',
        at: this.now(),
        by,
        state: 'working',
        artifact,
      });
    }
    const last = artifacts.at(-1);
    return this.event(addr, {
      type: 'task.respond',
      at: this.now(),
      by,
      state: a.state,
      ...(a.remoteTaskId !== undefined && a.remoteTaskId !== addr.id
        ? { remoteTaskId: a.remoteTaskId }
        : {}),
      ...(a.message ? { message: a.message } : {}),
      ...(a.statusText ? { statusText: a.statusText } : {}),
      ...(last ? { artifact: last } : {}),
    });
  }

  private fail(addr: ActorAddress, error: string): Promise<Task> {
    return this.event(addr, { type: 'task.fail', at: this.now(), error: error || NO_ENDPOINT });
  }

  /**
   * Apply a delivery-side event. A fast agent can finish the task before the hub's own event
   * (task.start after the frame was written) arrives; the finished actor has then left memory and
   * the event is moot: answer with the stored task instead of failing the caller.
   */
  private async event(addr: ActorAddress, e: TaskEvent, lingerMs?: number): Promise<Task> {
    try {
      const opts = lingerMs ? { lingerMs } : {};
      return (await this.o.host.send(addr, e, undefined, opts)).view.context as Task;
    } catch (err) {
      if (!(err instanceof HubError) || err.code !== 'NOT_FOUND') throw err;
      const stored = await this.o.host.read(addr);
      if (!stored) throw err;
      return stored.context as Task;
    }
  }

  // ---- reads, cancel, respond -------------------------------------------------------------------

  address(taskId: string): ActorAddress {
    const partition = taskPartition(taskId, this.o.partitions);
    if (partition === undefined) throw notFound(taskId);
    return { kind: 'task', id: taskId, partition };
  }

  /** The task if the caller is its sender or recipient; anyone else gets TASK_NOT_FOUND. */
  async getForCaller(principal: Principal, taskId: string): Promise<Task> {
    return this.readVisible(principal, this.address(taskId));
  }

  private async readVisible(principal: Principal, addr: ActorAddress): Promise<Task> {
    const view = await this.o.host.read(addr);
    const task = view?.context as Task | undefined;
    if (!task || !canSee(principal, task)) throw notFound(addr.id);
    return task;
  }

  private async get(addr: ActorAddress, fallback: Task): Promise<Task> {
    return ((await this.o.host.read(addr))?.context as Task | undefined) ?? fallback;
  }

  async cancel(principal: Principal, taskId: string): Promise<Task> {
    const addr = this.address(taskId);
    const task = await this.readVisible(principal, addr);
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
      this.o.queues &&
      (task.status.state === 'submitted' || this.o.queues.hasBacklog(task.recipientId))
    ) {
      await this.o.queues.purgeTask(task.recipientTenantId, task.recipientId, taskId);
    }
    const r = await this.o.host.send(addr, {
      type: 'task.cancel',
      at: this.now(),
      by: principal.agentId,
      reason: 'canceled by the sender',
    } satisfies TaskEvent);
    const after = r.view.context as Task;
    if (after.status.state !== 'canceled') {
      throw new HubError('TASK_NOT_CANCELABLE', `task is already ${after.status.state}`);
    }
    return after;
  }

  /** The recipient's reply (task/respond, or a WebSocket task_response frame). */
  async respond(principal: Principal, p: TaskRespondParams): Promise<Task> {
    const agent = requireAgent(principal);
    const addr = this.address(p.taskId);
    const event: TaskEvent = {
      type: 'task.respond',
      at: this.now(),
      by: agent.agentId,
      state: p.status.state,
      ...(p.status.message !== undefined ? { statusText: p.status.message } : {}),
      ...(p.artifact ? { artifact: p.artifact } : {}),
      lastChunk: p.lastChunk,
    };
    const limits = recordLimits(this.o.bus.maxPayload);
    const size = encodedSizeOver(event, limits.active - TASK_RECORD_SLACK);
    if (size !== undefined) await this.refuseLargeReply(principal, addr, size, limits);
    let result;
    try {
      result = await this.o.host.send(addr, event);
    } catch (err) {
      // Refused by the owner's store: the task was failed there with the reason (onRefused).
      if (!(err instanceof HubError) || err.code !== 'NOT_FOUND') throw err;
      // Not live: finished (or never existed). Explain which, to parties only.
      const task = await this.readVisible(principal, addr);
      throw new HubError('INVALID_PARAMS', `task is already ${task.status.state}`, {
        data: { field: 'taskId', state: task.status.state },
      });
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
    const addr = this.address(taskId);
    const task = await this.readVisible(principal, addr);
    if (task.recipientId !== principal.agentId || TerminalStates.has(task.status.state)) return;
    await this.failAndReport(addr, task, `${REPLY_TOO_LARGE}: ${reason}`);
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
    const task = await this.readVisible(principal, addr);
    if (task.recipientId === (principal as AgentPrincipal).agentId) {
      if (!TerminalStates.has(task.status.state)) {
        await this.failAndReport(addr, task, `${REPLY_TOO_LARGE}: ${text}`);
      }
    }
    throw new HubError('PAYLOAD_TOO_LARGE', `Reply too large: ${text}`, {
      data: { size, limit: limits.active, maxPayload: limits.maxPayload },
    });
  }

  /**
   * Owner side: a change of the task could not be stored and was undone. Back in input-required,
   * the refused change was the sender's continuation: the sender was told, the task still waits.
   * Otherwise the change came from the recipient's reply: the task fails with the reason, so the
   * sender is not left waiting for a reply that can never be stored.
   */
  private onRefused(addr: ActorAddress, view: ActorView, err: HubError): void {
    if (view.status !== 'active') return;
    const task = view.context as Task;
    if (task.status.state === 'input-required') return;
    const reason =
      err.code === 'PAYLOAD_TOO_LARGE'
        ? `${REPLY_TOO_LARGE}: ${err.message}`
        : `the task could not be stored: ${err.message}`;
    this.failAndReport(addr, task, reason).catch((e: unknown) =>
      this.o.log.warn({ err: e, taskId: task.id }, 'failing a task whose change was refused failed')
    );
  }

  // ---- task events ----------------------------------------------------------------------------

  /**
   * Live task changes, on any node: the owner's snapshot writes to the partition log are also
   * delivered to core NATS subscribers of the snapshot subject, so listening costs the owner no
   * extra publish. (A write the stream then refuses, by a fenced stale owner, is seen too; the
   * next owner's writes follow within moments.) Returns the unsubscribe.
   */
  subscribe(taskId: string, onTask: (task: Task) => void): () => void {
    const addr = this.address(taskId);
    const label = partitionLabel(addr.partition, this.o.partitions);
    const sub: Subscription = this.o.bus.nc.subscribe(
      subjects.actorSnapshot(label, 'task', taskId),
      {
        callback: (_err, msg) => {
          let task: Task;
          try {
            task = decodeJson<{ snapshot: { context: Task } }>(msg.data).snapshot.context;
          } catch (err) {
            this.o.log.warn({ err, taskId }, 'unreadable task snapshot ignored');
            return;
          }
          onTask(task);
        },
      }
    );
    return () => sub.unsubscribe();
  }

  /**
   * Wait until a task the principal can see settles, at most `timeoutMs` or until `signal` aborts;
   * resolves with the task as it then stands (settled or not).
   */
  async waitFor(
    principal: Principal,
    taskId: string,
    timeoutMs: number,
    signal?: AbortSignal
  ): Promise<Task> {
    const addr = this.address(taskId);
    const waiter = this.waitSettled(addr, timeoutMs);
    const stop = () => waiter.cancel();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      // It may have settled before the waiter was in place.
      const current = await this.readVisible(principal, addr);
      if (SETTLED.has(current.status.state) || signal?.aborted) return current;
      return (await waiter.result) ?? (await this.readVisible(principal, addr));
    } finally {
      signal?.removeEventListener('abort', stop);
      waiter.cancel();
    }
  }

  /**
   * Resolves with the task once it settles (or undefined at the timeout). On the task's owner the
   * durable hook calls the waiter directly, with a slow re-read in case the partition moves away
   * mid-wait; elsewhere the waiter listens to the task's snapshot subject.
   */
  private waitSettled(
    addr: ActorAddress,
    timeoutMs: number,
    settles: (t: Task) => boolean = (t) => SETTLED.has(t.status.state)
  ) {
    let cancel!: () => void;
    const result = new Promise<Task | undefined>((resolve) => {
      let done = false;
      const timer = setTimeout(() => finish(undefined), timeoutMs);
      const onTask = (t: Task) => {
        if (settles(t)) finish(t);
      };
      let unsubscribe: () => void;
      let poll: NodeJS.Timeout | undefined;
      if (this.o.host.owns(addr.partition)) {
        unsubscribe = this.listenLocally(addr.id, onTask);
        poll = setInterval(() => {
          void this.o.host.read(addr).then(
            (v) => v && !done && onTask(v.context as Task),
            () => undefined
          );
        }, 2000);
      } else {
        unsubscribe = this.subscribe(addr.id, onTask);
      }
      const finish = (t: Task | undefined) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        clearInterval(poll);
        unsubscribe();
        resolve(t);
      };
      cancel = () => finish(undefined);
    });
    return { result, cancel };
  }

  private listenLocally(taskId: string, fn: (t: Task) => void): () => void {
    let set = this.localListeners.get(taskId);
    if (!set) this.localListeners.set(taskId, (set = new Set()));
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size === 0 && this.localListeners.get(taskId) === set) {
        this.localListeners.delete(taskId);
      }
    };
  }

  /** Owner side: start what a task's durable state asks of its owner; remember unanswered pushes. */
  private track(addr: ActorAddress, task: Task, restoredAt?: number): void {
    if (task.delivery === 'pending' && !TerminalStates.has(task.status.state)) {
      this.startDelivery(addr, task, restoredAt !== undefined ? { notBefore: restoredAt } : {});
    }
    if (task.deliveredVia !== undefined && task.status.state === 'working') {
      this.pushed.set(task.id, { addr, node: task.deliveredVia });
    } else if (this.pushed.size > 0) {
      this.pushed.delete(task.id);
    }
  }

  /**
   * A partition this node takes over: its pending tasks are delivered by this node now, in the
   * order they became pending (the log's order). One that just changed may still be in its old
   * owner's hands (a graceful handover), so it gets a moment to finish there first.
   */
  private onRestored(addr: ActorAddress, view: ActorView): void {
    if (view.status !== 'active') return;
    const task = view.context as Task;
    this.track(addr, task, task.status.timestamp + HANDOVER_GRACE_MS);
    const live = this.o.liveNodes?.();
    if (task.deliveredVia !== undefined && live && !live.includes(task.deliveredVia)) {
      this.redeliver(task.id);
    }
  }

  /** Owner side, after each durable change: publish the task; tell the parties about state changes. */
  private onDurable(addr: ActorAddress, view: ActorView): void {
    const task = view.context as Task;
    const local = this.localListeners.get(task.id);
    if (local) for (const fn of local) fn(task);
    const state = task.status.state;
    this.track(addr, task);
    if (this.announced.get(task.id) === state) return;
    if (TerminalStates.has(state)) this.announced.delete(task.id);
    else this.announced.set(task.id, state);
    const frame = { type: 'task_update', task: encodeTaskHub(task) };
    void this.o.frames.push(task.senderId, frame);
    if (state === 'canceled') {
      void this.o.frames.push(task.recipientId, frame);
      void this.o.directory.get(task.recipientId).then((r) => {
        if (r?.url && r.transport !== 'official') {
          return cancelAtHttpAgent(r, task.id, this.o.outbound, this.messageSend);
        }
        // The official agent's pool member holding the task aborts its handler.
        if (r?.transport === 'official') {
          this.o.bus.nc.publish(subjects.agentCancel(r.id), encodeJson({ taskId: task.id }));
        }
      });
    }
  }
}

// ---- helpers ------------------------------------------------------------------------------------

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Still waiting for the owner to deliver the message that made it `count` messages long? */
function isPending(t: Task, count: number): boolean {
  return (
    t.delivery === 'pending' && t.messages.length === count && !TerminalStates.has(t.status.state)
  );
}

/**
 * How the recipient's queue retries: an agent with a URL is retried over HTTP every retry
 * interval (and at once when its WebSocket connects); one without waits for its WebSocket.
 */
function queueTransport(agent: AgentRecord): QueueTransport {
  return agent.url !== null ? 'http' : 'websocket';
}

function requireAgent(p: Principal): AgentPrincipal {
  if (p.kind !== 'agent') {
    throw new HubError('FORBIDDEN', 'a tenant admin key cannot act as an agent; use an agent key');
  }
  return p;
}

function canSee(p: Principal, t: Task): boolean {
  if (p.kind === 'agent') return p.agentId === t.senderId || p.agentId === t.recipientId;
  return false;
}

function notFound(taskId: string): HubError {
  return new HubError('TASK_NOT_FOUND', `no task ${taskId}`, { data: { taskId } });
}

function cardOf(agent: AgentRecord): DeclaresOutputModes {
  return agent.card ?? {};
}

/** What a queue owner needs to create the task of an admitted message. */
interface TaskSpawn {
  partition: number;
  input: TaskInput;
}

/** The smaller of the sender's x-ttl and the recipient's queue_ttl_seconds (spec "States"). */
function effectiveTtlSeconds(xTtl: number | undefined, recipient: AgentRecord): number {
  return xTtl === undefined ? recipient.queueTtlSeconds : Math.min(xTtl, recipient.queueTtlSeconds);
}

function configurationOf(req: SendRequest): Record<string, unknown> {
  const c: Record<string, unknown> = {};
  if (req.acceptedOutputModes !== undefined) c.acceptedOutputModes = req.acceptedOutputModes;
  if (req.historyLength !== undefined) c.historyLength = req.historyLength;
  if (req.ttlSeconds !== undefined) c['x-ttl'] = req.ttlSeconds;
  if (req.blocking) c.blocking = true;
  return c;
}
