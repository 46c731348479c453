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
  close(code: number, reason: string): void;
  /** Frames waiting for the socket to drain (for /metrics). */
  readonly backlog?: number;
}

export class ConnectionRegistry {
  private readonly byAgent = new Map<string, AgentConnection>();

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

interface DeliverRequest {
  agentId: string;
  connId: string;
  frame: unknown;
}

export class FrameRouter {
  private sub: Subscription | undefined;

  constructor(
    private readonly bus: Bus,
    private readonly nodeId: string,
    private readonly conns: ConnectionRegistry,
    private readonly presence: Presence,
    private readonly log: Logger
  ) {}

  start(): void {
    this.sub = this.bus.nc.subscribe(subjects.connDeliver(this.nodeId), {
      callback: (_err, msg) => {
        const req = decodeJson<DeliverRequest>(msg.data);
        const conn = this.conns.get(req.agentId);
        const outcome: PushOutcome =
          conn && conn.connId === req.connId ? conn.push(req.frame) : 'offline';
        msg.respond(encodeJson({ outcome }));
      },
    });
  }

  stop(): void {
    this.sub?.unsubscribe();
  }

  /** Has the agent a live WebSocket anywhere (as far as this node knows)? */
  reaches(agentId: string): boolean {
    if (this.conns.get(agentId)) return true;
    const where = this.presence.where(agentId);
    return where !== undefined && where.nodeId !== this.nodeId;
  }

  /** Push a frame to the agent's live WebSocket, on whichever node holds it. */
  async push(agentId: string, frame: unknown): Promise<PushOutcome> {
    const local = this.conns.get(agentId);
    if (local) return local.push(frame);
    const where = this.presence.where(agentId);
    if (!where || where.nodeId === this.nodeId) return 'offline';
    try {
      const msg = await this.bus.nc.request(
        subjects.connDeliver(where.nodeId),
        encodeJson({ agentId, connId: where.connId, frame } satisfies DeliverRequest),
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
}
