// One delivery attempt of a task's message (decisions.md §11 "Delivery order"): which way the
// recipient is reached, the signed envelope, the agent's answer applied to the task, and the
// recipient's queue when the attempt finds it unreachable or backed up.
import { HubError, UnavailableError } from '../../runtime/errors/index.js';
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
import type { TaskEvent } from './task.events.js';

/** How long the "working" write after a delivery may wait to merge with the reply. */
export const START_LINGER_MS = 20;

/**
 * How long past the HTTP call's own timeout a `calling` marker holds off another node's delivery:
 * the answer still has to be written (routed to the task's owner, which may be changing).
 */
export const CALL_MARGIN_MS = 5000;

/**
 * The owner calls only if its `calling` marker was stored within this long: a longer write may
 * have spanned a pause of the process, past which it may no longer own the task.
 */
const CALL_MARK_FRESH_MS = 1000;

/** Error codes of a queue that refused a message. */
export const QUEUE_REFUSALS = new Set(['QUEUE_FULL', 'SENDER_THROTTLED', 'TENANT_QUEUE_FULL']);

export type Route = 'websocket' | 'http' | 'official';

export class DeliveryAttempts {
  /** Agents that answer only the pre-1.0 `message/send` (learned per node). */
  readonly messageSend = new MessageSendAgents();
  /** HTTP calls under way on this node, by `<taskId>#<message count>`. */
  private readonly calls = new Set<string>();

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

  /**
   * How long to hold off delivering `task`'s latest message because an HTTP call of it is under
   * way (its `calling` marker): until the call's deadline; 0 when there is none, the deadline
   * passed, or the marker is this node's own from a call no longer running here. A calling node
   * missing from the membership is waited for too: paused (SIGSTOP) or cut from NATS, it may still
   * hold the agent's answer and write it when it is back; after a crash the message is called
   * again only at the deadline.
   */
  callWaitMs(task: Task): number {
    const c = task.calling;
    if (!c) return 0;
    const left = c.until - this.core.now();
    if (left <= 0) return 0;
    if (c.node !== this.core.o.host.nodeId) return left;
    return this.calls.has(`${task.id}#${task.messages.length}`) ? left : 0;
  }

  /**
   * One delivery attempt over `route`, with a freshly signed envelope. `owner`: the task's owner
   * delivers, and an HTTP call happens only after this node stored its `calling` marker as the
   * owner (a stale owner, fenced, never calls); otherwise (the recipient's queue) the marker is
   * stored wherever the task lives.
   */
  async attempt(
    task: Task,
    message: Message,
    recipient: AgentRecord,
    route: Route,
    opts: { owner?: boolean } = {}
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
    const timeoutMs = o.httpTimeoutMs ?? 30_000;
    const http = async () => {
      const call = `${task.id}#${task.messages.length}`;
      this.calls.add(call);
      try {
        await this.markCalling(task, timeoutMs, opts.owner === true);
        return await deliverHttp(d, {
          timeoutMs,
          guard: o.outbound,
          messageSend: this.messageSend,
        });
      } finally {
        this.calls.delete(call);
      }
    };
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

  /**
   * Durable before an HTTP call: which node calls and until when (Task.calling), so a node that
   * takes the delivery over meanwhile (a partition move) waits for this call's answer instead of
   * calling the agent a second time. The owner writes it only as the owner (never routed): a
   * node that lost the partition, e.g. woken from a pause past its lock, is refused and does not
   * call.
   */
  private async markCalling(task: Task, timeoutMs: number, owner: boolean): Promise<void> {
    const { core } = this;
    const addr = core.address(task.id);
    const at = core.now();
    const e: TaskEvent = {
      type: 'task.calling',
      at,
      node: core.o.host.nodeId,
      until: at + timeoutMs + CALL_MARGIN_MS,
    };
    if (!owner) {
      await core.event(addr, e);
      return;
    }
    await core.o.host.send(addr, e, undefined, { ownerOnly: true });
    // A write that took this long may have spanned a pause of this process (SIGSTOP, a long GC):
    // the lock may be gone by now and another node delivering. Not called; retried as the owner.
    const took = core.now() - at;
    if (took > CALL_MARK_FRESH_MS) {
      throw new UnavailableError(`the call's marker took ${took} ms to store; not calling`);
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
