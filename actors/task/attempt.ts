// One delivery attempt of a task's message (decisions.md §11 "Delivery order"): which way the
// recipient is reached, the signed envelope, the agent's answer applied to the task, and the
// recipient's queue when the attempt finds it unreachable or backed up.
import { HubError } from '../../runtime/errors/index.js';
import type { ActorAddress } from '../../runtime/host/index.js';
import type { Message, Task } from '../../runtime/protocol/index.js';
import type { AgentRecord } from '../agent/directory.js';
import {
  deliverHttp,
  deliverOfficial,
  deliverWebSocket,
  MessageSendAgents,
  type AgentAnswer,
  type Delivery,
  type DeliveryOutcome,
} from '../agent/delivery.js';
import type { EventsReport } from './events-report.js';
import { effectiveTtlSeconds, queueTransport } from './queue-handoff.js';
import type { TaskCore } from './task-core.js';

/** How long the "working" write after a delivery may wait to merge with the reply. */
export const START_LINGER_MS = 20;

/** Error codes of a queue that refused a message. */
export const QUEUE_REFUSALS = new Set(['QUEUE_FULL', 'SENDER_THROTTLED', 'TENANT_QUEUE_FULL']);

export type Route = 'websocket' | 'http' | 'official';

export class DeliveryAttempts {
  /** Agents that answer only the pre-1.0 `message/send` (learned per node). */
  readonly messageSend = new MessageSendAgents();

  constructor(
    private readonly core: TaskCore,
    private readonly report: EventsReport
  ) {}

  /**
   * How a message reaches the agent now: over its WebSocket when one is live, else over HTTP
   * when it has a URL; an agent with neither is tried over the WebSocket, which finds it
   * unreachable, so the message queues.
   */
  routeOf(agent: AgentRecord): Route {
    if (agent.transport === 'official') return 'official';
    if (agent.url === null || this.core.o.presence.isOnline(agent.id)) return 'websocket';
    return 'http';
  }

  /** One delivery attempt over `route`, with a freshly signed envelope. */
  async attempt(
    task: Task,
    message: Message,
    recipient: AgentRecord,
    route: Route
  ): Promise<DeliveryOutcome> {
    const { o } = this.core;
    const d: Delivery = {
      task,
      message,
      recipient,
      envelope: o.signer.sign(
        {
          sender: { agentId: task.senderId, tenantId: task.senderTenantId },
          recipient: { agentId: recipient.id, tenantId: recipient.tenantId },
          taskId: task.id,
          contextId: task.contextId,
          messageId: message.messageId,
        },
        { now: this.core.now() }
      ),
      configuration: task.configuration ?? {},
    };
    const http = () =>
      deliverHttp(d, {
        timeoutMs: o.httpTimeoutMs ?? 30_000,
        guard: o.outbound,
        messageSend: this.messageSend,
      });
    switch (route) {
      case 'websocket': {
        const pushed = this.counted('websocket', await deliverWebSocket(o.frames, d));
        // The socket went away since presence named it: the URL is the next way (§11).
        if (pushed.kind === 'unreachable' && recipient.url !== null) {
          return this.report.reportDelivered(task, 'http', this.counted('http', await http()));
        }
        return this.report.reportDelivered(task, 'websocket', pushed);
      }
      case 'http':
        return this.report.reportDelivered(task, 'http', this.counted('http', await http()));
      case 'official':
        // The spec knows websocket and http only; official agents are addressed at the hub's HTTP
        // endpoint (their card url), so clients with a closed enum still read the event.
        return this.report.reportDelivered(
          task,
          'http',
          this.counted('official', await deliverOfficial(o.bus, d, o.officialTimeoutMs ?? 120_000))
        );
      default: {
        const never: never = route;
        throw new HubError('INTERNAL', `unknown transport ${String(never)}`);
      }
    }
  }

  private counted(transport: Route, outcome: DeliveryOutcome): DeliveryOutcome {
    this.core.o.metrics?.deliveries.inc({ transport, outcome: outcome.kind });
    return outcome;
  }

  /** An HTTP or official agent's answer: "working", each artifact, then the final state. */
  async applyAnswer(addr: ActorAddress, by: string, a: AgentAnswer): Promise<Task> {
    const { core } = this;
    // "working" and the answer are written together: the answer's event awaits durability.
    await core.event(addr, { type: 'task.start', at: core.now() }, START_LINGER_MS);
    const artifacts = a.artifacts;
    // Every artifact but the last goes in as its own event; the last travels with the final state.
    for (const artifact of artifacts.slice(0, -1)) {
      await core.event(addr, {
        type: 'task.respond',
        at: core.now(),
        by,
        state: 'working',
        artifact,
      });
    }
    const last = artifacts.at(-1);
    return core.event(addr, {
      type: 'task.respond',
      at: core.now(),
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

  /**
   * A delivery attempt found the recipient unreachable or backed up: the message waits in its
   * queue (the task stays as it is) unless x-ttl is 0 or the queue refuses it; then the task fails.
   */
  async queueAfterAttempt(
    addr: ActorAddress,
    task: Task,
    message: Message,
    recipient: AgentRecord,
    unreachable: boolean,
    reason: string
  ): Promise<Task> {
    const { o } = this.core;
    const ttl = task.configuration?.['x-ttl'] as number | undefined;
    if (!o.queues || recipient.transport === 'official' || ttl === 0) {
      return this.report.failAndReport(addr, task, reason);
    }
    try {
      await o.queues.enqueue({
        tenantId: recipient.tenantId,
        recipientId: recipient.id,
        senderId: task.senderId,
        transport: queueTransport(recipient),
        key: `${task.senderId}:${message.messageId}`,
        maxPending: recipient.queueMaxPending,
        expiresAt: this.core.now() + effectiveTtlSeconds(ttl, recipient) * 1000,
        message,
        taskId: task.id,
        unreachable,
        // The status changed when its latest message was accepted (and not since: it is pending).
        acceptedAt: task.status.timestamp,
      });
    } catch (err) {
      if (err instanceof HubError && QUEUE_REFUSALS.has(err.code)) {
        return this.report.failAndReport(addr, task, `${reason}; not queued: ${err.message}`);
      }
      throw err;
    }
    // The drain delivers it now. A crash before this write delivers it twice (same messageId).
    return this.core.event(addr, { type: 'task.queued', at: this.core.now() });
  }
}
