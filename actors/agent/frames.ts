// Pushing frames to WebSocket agents wherever they are connected: locally through the connection
// registry, or through `hub.conn.<nodeId>.deliver` to the node that holds the socket.
import { RequestError, TimeoutError, type Subscription } from '@nats-io/nats-core';
import { decodeJson, encodeJson, subjects, type Bus } from '../../runtime/bus/index.js';
import type { Logger } from '../../runtime/log/index.js';
import type { Presence } from './presence.js';

/** sent: written (or buffered within limits); busy: the socket is backed up; offline: no socket. */
export type PushOutcome = 'sent' | 'busy' | 'offline';

export interface AgentConnection {
  readonly connId: string;
  readonly agentId: string;
  readonly tenantId: string;
  /** Write a frame without blocking; 'busy' when the socket's backlog is over its limit. */
  push(frame: unknown): Exclude<PushOutcome, 'offline'>;
  /**
   * For a frame just pushed `sent`: resolves false if the socket closed before it was written
   * (frames of one turn are written together). Without it, `sent` is final.
   */
  written?(): Promise<boolean>;
  close(code: number, reason: string): void;
  /** Frames waiting for the socket to drain (for /metrics). */
  readonly backlog?: number;
}

export class ConnectionRegistry {
  private readonly byAgent = new Map<string, AgentConnection>();
  /**
   * The node is shutting down and closing every socket itself. Their unanswered messages are not
   * delivered again per socket then: this node is releasing its partitions (the requests would
   * only fail), and leaving the membership makes every owner deliver them again anyway.
   */
  shuttingDown = false;

  get(agentId: string): AgentConnection | undefined {
    return this.byAgent.get(agentId);
  }

  /** Registers a connection; returns the one it replaces (the caller closes it). */
  add(conn: AgentConnection): AgentConnection | undefined {
    const old = this.byAgent.get(conn.agentId);
    this.byAgent.set(conn.agentId, conn);
    return old && old !== conn ? old : undefined;
  }

  remove(conn: AgentConnection): boolean {
    if (this.byAgent.get(conn.agentId) !== conn) return false;
    this.byAgent.delete(conn.agentId);
    return true;
  }

  get size(): number {
    return this.byAgent.size;
  }

  all(): IterableIterator<AgentConnection> {
    return this.byAgent.values();
  }
}

/** A message pushed to a socket, by its task and messageId. */
export interface PushedMessage {
  taskId: string;
  messageId: string;
}

interface DeliverRequest {
  agentId: string;
  connId: string;
  frame: unknown;
  /** The message the frame carries: written to one socket at most once. */
  once?: PushedMessage;
}

/** How long, and how many, pushed messages a socket remembers while unanswered. */
const ONCE_WINDOW_MS = 120_000;
const ONCE_MAX = 4096;
/**
 * How long a socket remembers a message the agent answered or acknowledged on it: a stale owner's
 * push comes within seconds of a heal or a wake-up. Short, so a busy socket holds few.
 */
const SETTLED_WINDOW_MS = 30_000;

/**
 * The messages written to one socket lately, oldest first, one per task (its latest message).
 * Two pushes of one message can meet at the socket's node: a node paused past its push's 5 s
 * timeout pushes the frame when it wakes, while the owner, which counted the agent offline, has
 * the queue push it again; a stale owner woken from a pause, or healed from a cut, pushes what the
 * new owner already did, also after the agent answered it. TCP delivers what one socket was
 * given, so the second write could only be a duplicate. When the socket closes, the unanswered
 * ones may not have reached the agent (TaskDelivery.socketClosed).
 */
class PushedOnSocket {
  /** `settledAt`: when the agent answered or acknowledged it here (0 while unanswered). */
  private readonly byTask = new Map<string, { messageId: string; at: number; settledAt: number }>();

  /** Undefined when not written here lately; else whether the agent answered it here. */
  seen(m: PushedMessage, now: number): 'unanswered' | 'settled' | undefined {
    const e = this.byTask.get(m.taskId);
    if (e === undefined || e.messageId !== m.messageId || !live(e, now)) return undefined;
    return e.settledAt === 0 ? 'unanswered' : 'settled';
  }

  add(m: PushedMessage, now: number): void {
    this.byTask.delete(m.taskId);
    this.byTask.set(m.taskId, { messageId: m.messageId, at: now, settledAt: 0 });
    // Oldest first by insertion: drop what fell out of its window, and past the cap the oldest.
    for (const [k, e] of this.byTask) {
      if (this.byTask.size <= ONCE_MAX && live(e, now)) break;
      this.byTask.delete(k);
    }
  }

  delete(taskId: string): void {
    this.byTask.delete(taskId);
  }

  settle(taskId: string, now: number): void {
    const e = this.byTask.get(taskId);
    if (e !== undefined && e.settledAt === 0) e.settledAt = now;
  }

  /** The messages written within the window and not answered here. */
  recent(now: number): PushedMessage[] {
    const out: PushedMessage[] = [];
    for (const [taskId, e] of this.byTask) {
      if (e.settledAt === 0 && live(e, now)) out.push({ taskId, messageId: e.messageId });
    }
    return out;
  }
}

function live(e: { at: number; settledAt: number }, now: number): boolean {
  return e.settledAt === 0 ? now - e.at < ONCE_WINDOW_MS : now - e.settledAt < SETTLED_WINDOW_MS;
}

export class FrameRouter {
  private sub: Subscription | undefined;
  /** Per socket, the message keys written to it (only sockets that were pushed a message). */
  private readonly pushedOn = new WeakMap<AgentConnection, PushedOnSocket>();

  constructor(
    private readonly bus: Bus,
    private readonly nodeId: string,
    private readonly conns: ConnectionRegistry,
    private readonly presence: Presence,
    private readonly log: Logger,
    /** Second pushes of a message to the socket that already has it, not written. */
    private readonly duplicatesDropped?: { inc(): void }
  ) {}

  start(): void {
    this.sub = this.bus.nc.subscribe(subjects.connDeliver(this.nodeId), {
      callback: (_err, msg) => {
        const req = decodeJson<DeliverRequest>(msg.data);
        const conn = this.conns.get(req.agentId);
        if (!conn || conn.connId !== req.connId) {
          msg.respond(encodeJson({ outcome: 'offline' }));
          return;
        }
        void this.write(conn, req.frame, req.once).then((outcome) =>
          msg.respond(encodeJson({ outcome }))
        );
      },
    });
  }

  stop(): void {
    this.sub?.unsubscribe();
  }

  /**
   * A socket closed: the messages written to it within the window and not answered on it, which
   * it forgets. Whether each reached the agent only its task knows (answered or acknowledged).
   */
  socketClosed(conn: AgentConnection): PushedMessage[] {
    const pushed = this.pushedOn.get(conn);
    if (!pushed) return [];
    this.pushedOn.delete(conn);
    return pushed.recent(Date.now());
  }

  /** The agent answered or acknowledged the task's message on this socket: it has it. */
  settled(conn: AgentConnection, taskId: string): void {
    this.pushedOn.get(conn)?.settle(taskId, Date.now());
  }

  /** Has the agent a live WebSocket anywhere (as far as this node knows)? */
  reaches(agentId: string): boolean {
    if (this.conns.get(agentId)) return true;
    const where = this.presence.where(agentId);
    return where !== undefined && where.nodeId !== this.nodeId;
  }

  /**
   * Push a frame to the agent's live WebSocket, on whichever node holds it. With `once` (a
   * message's key), a socket that was already given that message is not given it again; the
   * answer is `sent`, as it was for the first push.
   */
  async push(agentId: string, frame: unknown, once?: PushedMessage): Promise<PushOutcome> {
    const local = this.conns.get(agentId);
    if (local) return this.write(local, frame, once);
    const where = this.presence.where(agentId);
    if (!where || where.nodeId === this.nodeId) return 'offline';
    try {
      const msg = await this.bus.nc.request(
        subjects.connDeliver(where.nodeId),
        encodeJson({ agentId, connId: where.connId, frame, once } satisfies DeliverRequest),
        { timeout: 5000 }
      );
      return decodeJson<{ outcome: PushOutcome }>(msg.data).outcome;
    } catch (err) {
      if ((err instanceof RequestError && err.isNoResponders()) || err instanceof TimeoutError) {
        return 'offline';
      }
      this.log.warn({ err, agentId }, 'frame push failed');
      return 'offline';
    }
  }

  /**
   * A message (`once`) counts as sent only once it is written: a socket closing first makes it
   * `offline`, and the owner queues it for the agent's next connection.
   */
  private async write(
    conn: AgentConnection,
    frame: unknown,
    once: PushedMessage | undefined
  ): Promise<PushOutcome> {
    if (once === undefined) return conn.push(frame);
    const now = Date.now();
    let pushed = this.pushedOn.get(conn);
    const seen = pushed?.seen(once, now);
    if (seen !== undefined) {
      this.duplicatesDropped?.inc();
      // Rare (after a pause or a cut), and what an operator looks for when a node stalled.
      this.log.info({ agentId: conn.agentId, ...once }, 'second push of a message not written');
      if (seen === 'settled') return 'sent';
      // The first may still wait for its turn's write: this one shares its fate.
      return !conn.written || (await conn.written()) ? 'sent' : 'offline';
    }
    const outcome = conn.push(frame);
    if (outcome !== 'sent') return outcome;
    if (!pushed) this.pushedOn.set(conn, (pushed = new PushedOnSocket()));
    pushed.add(once, now);
    if (conn.written && !(await conn.written())) {
      pushed.delete(once.taskId);
      return 'offline';
    }
    return 'sent';
  }
}
