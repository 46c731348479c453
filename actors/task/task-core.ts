// What every part of the task service shares: its options, the task's address from its id,
// reads that hide a task from anyone but its two parties, and applying an event on the owner.
import type { Bus } from '../../runtime/bus/index.js';
import { HubError } from '../../runtime/errors/index.js';
import type { ActorAddress, ActorHost } from '../../runtime/host/index.js';
import type { Logger } from '../../runtime/log/index.js';
import type { HubMetrics } from '../../runtime/metrics/index.js';
import type { OutboundGuard } from '../../runtime/net/index.js';
import type { Task } from '../../runtime/protocol/index.js';
import type { EnvelopeSigner } from '../../runtime/envelope/index.js';
import type { Principal } from '../../infra/db/index.js';
import type { AgentDirectory } from '../agent/directory.js';
import type { FrameRouter } from '../agent/frames.js';
import type { Presence } from '../agent/presence.js';
import type { QueueService } from '../queue/queue-service.js';
import type { TaskEvent } from './task.events.js';
import { taskPartition } from './ids.js';

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
  /** Spending budgets (issue 28): refuses a send while a budget of its sender is used up. */
  spending?: { check(tenantId: string, agentId: string): Promise<void> | undefined };
  /** Looks up the other party of a conversation (contextId without agentId). */
  contextPeer?: (contextId: string, agentId: string) => Promise<string | undefined>;
  /**
   * Do these two agents hold an access grant (issue 28)? Asked only for a recipient the sender
   * could not otherwise see (another tenant's private agent); without it nobody holds one.
   */
  accessGranted?: (a: string, b: string) => Promise<boolean>;
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

export type AgentPrincipal = Extract<Principal, { kind: 'agent' }>;

/** States in which a blocking caller stops waiting. */
export const SETTLED: ReadonlySet<string> = new Set([
  'completed',
  'failed',
  'canceled',
  'rejected',
  'input-required',
]);

/** The start of the reason a task fails with when the recipient's reply could not be stored. */
export const REPLY_TOO_LARGE = 'reply too large to store';

/** Bytes of a task's persisted snapshot around its context (state value, status, xstate fields). */
export const TASK_RECORD_SLACK = 1024;

export class TaskCore {
  readonly now: () => number;

  constructor(readonly o: TaskServiceOptions) {
    this.now = o.now ?? Date.now;
  }

  address(taskId: string): ActorAddress {
    const partition = taskPartition(taskId, this.o.partitions);
    if (partition === undefined) throw notFound(taskId);
    return { kind: 'task', id: taskId, partition };
  }

  /** The task if the caller is its sender or recipient; anyone else gets TASK_NOT_FOUND. */
  async readVisible(principal: Principal, addr: ActorAddress): Promise<Task> {
    const view = await this.o.host.read(addr);
    const task = view?.context as Task | undefined;
    if (!task || !canSee(principal, task)) throw notFound(addr.id);
    return task;
  }

  /** The task as it stands now, or `fallback` when it cannot be read. */
  async get(addr: ActorAddress, fallback: Task): Promise<Task> {
    return ((await this.o.host.read(addr))?.context as Task | undefined) ?? fallback;
  }

  /** The live or stored task, if any. */
  async read(addr: ActorAddress): Promise<Task | undefined> {
    return (await this.o.host.read(addr))?.context as Task | undefined;
  }

  /**
   * Apply a delivery-side event. A fast agent can finish the task before the hub's own event
   * (task.start after the frame was written) arrives; the finished actor has then left memory and
   * the event is moot: answer with the stored task instead of failing the caller.
   */
  async event(addr: ActorAddress, e: TaskEvent, lingerMs?: number): Promise<Task> {
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
}

export function requireAgent(p: Principal): AgentPrincipal {
  if (p.kind !== 'agent') {
    throw new HubError('FORBIDDEN', 'a tenant admin key cannot act as an agent; use an agent key');
  }
  return p;
}

export function canSee(p: Principal, t: Task): boolean {
  if (p.kind === 'agent') return p.agentId === t.senderId || p.agentId === t.recipientId;
  return false;
}

export function notFound(taskId: string): HubError {
  return new HubError('TASK_NOT_FOUND', `no task ${taskId}`, { data: { taskId } });
}
