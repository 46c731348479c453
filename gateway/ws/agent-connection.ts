// One authenticated agent WebSocket: writes frames without ever buffering without bound. Above
// the high-water mark frames wait in a small outbox flushed on 'drain'; when that is full too the
// push answers 'busy' and the caller keeps the message (nothing is dropped silently).
import type { WebSocket } from 'uWebSockets.js';
import type { AgentConnection } from '../messaging/frames.js';

export interface SocketData {
  connId: string;
  /** The peer's address, for the failed-authentication limit of the legacy `auth` frame. */
  client?: string;
  /** Set once authenticated (on upgrade, or by the legacy first `auth` frame). */
  conn?: UwsAgentConnection;
  /** The upgrade request's Authorization header, checked in open(). */
  authorization?: string;
  /** Settles once the key (header or `auth` frame) has been checked. */
  authenticating?: Promise<void>;
  closed: boolean;
  authTimer?: NodeJS.Timeout;
}

export interface BackpressureLimits {
  /** Bytes buffered in the socket above which frames wait in the outbox. */
  highWaterBytes: number;
  /** Frames the outbox holds before pushes answer 'busy'. */
  outboxFrames: number;
}

export class UwsAgentConnection implements AgentConnection {
  private readonly outbox: string[] = [];
  closed = false;

  constructor(
    private readonly ws: WebSocket<SocketData>,
    readonly connId: string,
    readonly agentId: string,
    readonly tenantId: string,
    /** The hash of the API key the socket authenticated with (revocation closes it). */
    readonly keyHash: string,
    private readonly limits: BackpressureLimits
  ) {}

  push(frame: unknown): 'sent' | 'busy' {
    if (this.closed) return 'busy';
    const text = JSON.stringify(frame);
    if (this.outbox.length > 0 || this.ws.getBufferedAmount() > this.limits.highWaterBytes) {
      if (this.outbox.length >= this.limits.outboxFrames) return 'busy';
      this.outbox.push(text);
      return 'sent';
    }
    this.ws.send(text, false);
    return 'sent';
  }

  /** Called from the socket's drain handler. */
  flush(): void {
    while (this.outbox.length > 0 && !this.closed) {
      if (this.ws.getBufferedAmount() > this.limits.highWaterBytes) return;
      this.ws.send(this.outbox.shift()!, false);
    }
  }

  get backlog(): number {
    return this.outbox.length;
  }

  /** The key is no longer valid: tell the agent why, then close as an unauthenticated socket. */
  revoke(reason: string): void {
    if (this.closed) return;
    this.push({ type: 'auth_error', error: reason });
    this.close(4401, reason);
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.ws.end(code, reason);
  }
}
