// One authenticated agent WebSocket: writes frames without ever buffering without bound. Above
// the high-water mark frames wait in a small outbox flushed on 'drain'; when that is full too the
// push answers 'busy' and the caller keeps the message (nothing is dropped silently: a message
// not answered when the socket closes is delivered again, TaskService.socketClosed).
// Frames pushed during one turn of the event loop are written together, corked, once the turn's
// callbacks have run (setImmediate): outside a uWS callback every send is a system call of its
// own, and an agent serving many senders gets several frames per turn. A frame whose push waits to
// know it was written (written()) goes out sooner, at the end of the callback that pushed it
// (process.nextTick), with whatever that callback pushed besides: the deliveries of one sender to
// one recipient go one at a time (FIFO), each after the last one's push is known written, so a
// write held to the check phase would let that pair push one message per turn of the loop.
import type { WebSocket } from 'uWebSockets.js';
import type { AgentConnection } from '../../actors/index.js';

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

/**
 * Connections with frames waiting for this turn's write, whether that write is scheduled (in the
 * check phase), and whether an earlier one is (for a push waiting to know it was written).
 */
const waiting = new Set<UwsAgentConnection>();
let scheduled = false;
let soon = false;

const WRITTEN = Promise.resolve(true);

function writeWaiting(): void {
  scheduled = false;
  writeAll();
}

function writeSoon(): void {
  soon = false;
  writeAll();
}

function writeAll(): void {
  for (const c of waiting) c.writeTurn();
  waiting.clear();
}

export class UwsAgentConnection implements AgentConnection {
  private readonly outbox: string[] = [];
  /** Frames accepted this turn, written by writeTurn() (before the outbox: they came earlier). */
  private turn: string[] = [];
  /** Their size (characters: close enough to bytes for a high-water mark). */
  private turnBytes = 0;
  /** Settles when this turn's frames are written (true) or dropped by a close first (false). */
  private turnWritten: { promise: Promise<boolean>; resolve: (ok: boolean) => void } | undefined;
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
    if (
      this.outbox.length > 0 ||
      this.ws.getBufferedAmount() + this.turnBytes > this.limits.highWaterBytes
    ) {
      if (this.outbox.length >= this.limits.outboxFrames) return 'busy';
      this.outbox.push(text);
      return 'sent';
    }
    this.turn.push(text);
    this.turnBytes += text.length;
    if (this.turn.length === 1) {
      waiting.add(this);
      if (!scheduled) {
        scheduled = true;
        setImmediate(writeWaiting);
      }
    }
    return 'sent';
  }

  /**
   * Whether the frame just pushed reached the socket: it waits in this turn's write, which a close
   * arriving first drops (an agent that closed mid-drain lost a message so, its task `working` for
   * good). A frame in the outbox counts as written: it goes out on drain. The write is brought
   * forward to the end of the current callback (see the top of this file).
   */
  written(): Promise<boolean> {
    if (this.turn.length === 0) return WRITTEN;
    if (this.turnWritten === undefined) {
      let resolve!: (ok: boolean) => void;
      const promise = new Promise<boolean>((r) => (resolve = r));
      this.turnWritten = { promise, resolve };
      if (!soon) {
        soon = true;
        process.nextTick(writeSoon);
      }
    }
    return this.turnWritten.promise;
  }

  /** Writes the frames accepted this turn in one corked write (one system call). */
  writeTurn(): void {
    const frames = this.turn;
    if (frames.length === 0) return;
    this.turn = [];
    this.turnBytes = 0;
    const done = this.turnWritten;
    this.turnWritten = undefined;
    if (this.closed) {
      done?.resolve(false);
      return;
    }
    this.ws.cork(() => {
      for (const text of frames) this.ws.send(text, false);
    });
    done?.resolve(true);
  }

  /** Called from the socket's drain handler. */
  flush(): void {
    this.writeTurn();
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
    // What was accepted goes out before the close frame (e.g. revoke()'s auth_error).
    this.writeTurn();
    this.closed = true;
    this.ws.end(code, reason);
  }
}
