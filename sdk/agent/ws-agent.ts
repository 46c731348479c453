// A WebSocket agent (decisions.md §2): connects to the hub's /ws with its API key, hands every
// `message` frame whose x-hub envelope verifies to `onMessage`, and answers with `task_response`
// frames. Keeps the socket alive with `ping` frames, reconnects with exponential backoff, and
// holds replies written while disconnected until the next `welcome`.
import WebSocket from 'ws';
import type { AgentCard, HubEnvelope, Message, Part, Task } from '../protocol.js';
import { EnvelopeVerifier, type EnvelopeRejection } from '../envelope/index.js';
import { reconnectDelay, type ReconnectBackoffOptions } from './reconnect-backoff.js';
import {
  errorText,
  responseFrames,
  textOfParts,
  type AgentReply,
  type TaskResponseFrame,
} from './handler-result.js';

/** What `onMessage` receives for each message delivered to the agent. */
export interface WsIncomingMessage {
  /** The message's text parts joined by spaces. */
  text: string;
  /** The message as sent (role, parts, messageId), with its taskId and contextId. */
  message: Message;
  /** The task the message belongs to; a continuation after input-required has the same id. */
  task: { id: string; contextId: string };
  /** The sender's agent id (also in `envelope.sender`, which is signed). */
  from: string;
  /** The verified x-hub envelope; undefined only when verification is switched off. */
  envelope: HubEnvelope | undefined;
  /** What the sender asked for (acceptedOutputModes, historyLength, …). */
  configuration: Record<string, unknown>;
  /** The frame's metadata: the sender's message metadata and the unverified x-hub. */
  metadata: Record<string, unknown>;
}

export type WsAgentEvent =
  | { type: 'connecting'; url: string; attempt: number }
  | { type: 'connected'; agentId: string }
  | { type: 'disconnected'; code: number; reason: string }
  | { type: 'reconnect_scheduled'; attempt: number; delayMs: number }
  | { type: 'auth_failed'; message: string }
  /** Another connection with the same key took over (close 4409); this one stops. */
  | { type: 'replaced' }
  | { type: 'envelope_rejected'; taskId: string; reason: EnvelopeRejection; detail?: string }
  | { type: 'handler_failed'; taskId: string; error: unknown }
  /** An `error` frame: a refused task_response (with taskId) or another refused frame. */
  | { type: 'hub_error'; error: string; message: string; taskId?: string }
  | { type: 'socket_error'; error: Error };

export interface WsAgentOptions {
  /** The hub: `http://host:port`, or the socket itself, `ws://host:port/ws`. */
  url: string;
  /** The agent's API key. */
  apiKey: string;
  onMessage: (m: WsIncomingMessage) => AgentReply | Promise<AgentReply>;
  /** `task_update` frames: tasks this agent sent changed state. */
  onTaskUpdate?: (task: Task) => void;
  /** Connection and refusal events, for logs and metrics. */
  onEvent?: (e: WsAgentEvent) => void;
  /**
   * Verify each message's x-hub envelope against the hub's JWKS (default true). A message whose
   * envelope does not verify never reaches onMessage; its task is answered `failed` with
   * "envelope verification failed: <reason>" and an `envelope_rejected` event is emitted.
   */
  verifyEnvelopes?: boolean;
  /** The verifier to use (default: one fetching `{hub}/.well-known/hub-keys.json`). */
  verifier?: EnvelopeVerifier;
  /** `ping` frame interval; default 15,000 ms. Two intervals of silence drop the socket. */
  pingIntervalMs?: number;
  /** Reconnect delays; default 1 s doubling up to 5 min, jittered. */
  backoff?: ReconnectBackoffOptions;
  /** A connection that lasted this long resets the backoff; default 30,000 ms. */
  stableAfterMs?: number;
}

/** start() rejects with this when the hub refuses the key (auth_error, close 4401). */
export class WsAgentAuthError extends Error {
  constructor(message: string) {
    super(`the hub refused the agent's API key: ${message}`);
    this.name = 'WsAgentAuthError';
  }
}

const CLOSE_UNAUTHORIZED = 4401;
const CLOSE_REPLACED = 4409;
const DEFAULT_PING_MS = 15_000;
const DEFAULT_STABLE_MS = 30_000;
/** Answers younger than this are sent again after an unclean close (a hub node's failover). */
const RESEND_WINDOW_MS = 30_000;
const RESEND_MAX = 1000;
/**
 * A message not answered this soon is acknowledged with a `received` frame. Well inside the 20 ms
 * the hub holds a task's `working` write for, so the acknowledgement is stored with it.
 */
const ACK_AFTER_MS = 5;

type Frame = Record<string, unknown> & { type?: unknown };

export class WsAgent {
  readonly #o: WsAgentOptions;
  readonly #hubSocketUrl: string;
  readonly #verifier: EnvelopeVerifier | undefined;
  #agentId: string | undefined;
  #ws: WebSocket | undefined;
  #welcomed = false;
  #stopped = true;
  #attempt = 0;
  #authError: string | undefined;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #pingTimer: NodeJS.Timeout | undefined;
  #stableTimer: NodeJS.Timeout | undefined;
  #lastHeard = 0;
  /** Frames written while not connected; sent after the next welcome, in order. */
  #outbox: unknown[] = [];
  /**
   * Answers written to the socket lately. The hub acknowledges no answer, and the agent
   * acknowledges every message (`received`), so the hub does not push it again after the node
   * holding the socket dies: an answer that died with that node is sent again on the next socket.
   */
  #recentAnswers: Array<{ frame: Frame; at: number }> = [];
  /** Task ids answered again after a reconnect: the hub's refusal of a repeat is expected. */
  #resent = new Set<string>();
  /** Acknowledgements not sent yet: a message answered within ACK_AFTER_MS needs none. */
  #acks = new Map<string, NodeJS.Timeout>();
  #cardWaiters: Array<{ resolve: (c: AgentCard) => void; reject: (e: Error) => void }> = [];
  /** Verification then dispatch, one message after another: onMessage sees arrival order. */
  #intake: Promise<void> = Promise.resolve();
  #ready: Promise<void> | undefined;
  #settleReady: { resolve: () => void; reject: (e: Error) => void } | undefined;
  #closed: Promise<void> | undefined;

  constructor(opts: WsAgentOptions) {
    if (!opts.apiKey) throw new Error('WsAgent needs apiKey: the API key the hub issued the agent');
    this.#o = opts;
    this.#hubSocketUrl = hubSocketUrl(opts.url);
    this.#verifier =
      opts.verifyEnvelopes === false
        ? undefined
        : (opts.verifier ?? new EnvelopeVerifier({ hubUrl: this.#hubSocketUrl }));
  }

  /** The agent id the hub's `welcome` named; undefined before the first welcome. */
  get agentId(): string | undefined {
    return this.#agentId;
  }

  /** Connected and welcomed right now. */
  get connected(): boolean {
    return this.#welcomed;
  }

  /**
   * Connect; resolves once the hub's `welcome` has arrived. Connection failures are retried with
   * backoff; an unknown or revoked key rejects with WsAgentAuthError (no retry).
   */
  start(): Promise<void> {
    if (this.#ready) return this.#ready;
    this.#stopped = false;
    this.#ready = new Promise<void>((resolve, reject) => {
      this.#settleReady = { resolve, reject };
    });
    this.#connect();
    return this.#ready;
  }

  /** Close the socket and stop reconnecting; replies still held are dropped. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#stopped = true;
      clearTimeout(this.#reconnectTimer);
      this.#stopTimers();
      this.#settleReady?.reject(new Error('the agent was closed before the hub welcomed it'));
      this.#settleReady = undefined;
      this.#failCardWaiters(new Error('the agent was closed'));
      const ws = this.#ws;
      if (ws && ws.readyState !== WebSocket.CLOSED) {
        await new Promise<void>((resolve) => {
          ws.once('close', () => resolve());
          if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
          else ws.close(1000, 'agent closing');
        });
      }
    })();
    return this.#closed;
  }

  /**
   * Replace the agent's card; resolves with the card as the hub stored it (`card_updated`), rejects
   * with the hub's error. Sent after reconnecting when the socket is down.
   */
  updateCard(card: AgentCard): Promise<AgentCard> {
    return new Promise((resolve, reject) => {
      this.#cardWaiters.push({ resolve, reject });
      this.#send({ type: 'update_card', agentCard: card });
    });
  }

  /**
   * Answer a task outside onMessage, e.g. one the handler left `working`: the same reply forms
   * onMessage may return.
   */
  async respond(taskId: string, reply: AgentReply): Promise<void> {
    for await (const f of responseFrames(taskId, reply)) this.#send(f);
  }

  // ---- connection ------------------------------------------------------------------------------

  #connect(): void {
    if (this.#stopped) return;
    this.#emit({ type: 'connecting', url: this.#hubSocketUrl, attempt: this.#attempt });
    const ws = new WebSocket(this.#hubSocketUrl, {
      headers: { authorization: `Bearer ${this.#o.apiKey}` },
    });
    this.#ws = ws;
    ws.on('open', () => {
      this.#lastHeard = Date.now();
      this.#startPing(ws);
    });
    ws.on('message', (data: WebSocket.RawData) => {
      this.#lastHeard = Date.now();
      this.#onText(rawText(data));
    });
    ws.on('pong', () => (this.#lastHeard = Date.now()));
    // 'close' always follows 'error': reconnecting is decided there.
    ws.on('error', (error) => this.#emit({ type: 'socket_error', error }));
    ws.on('close', (code, reason) => this.#onClose(ws, code, reason.toString('utf8')));
  }

  #onClose(ws: WebSocket, code: number, reason: string): void {
    if (ws !== this.#ws) return;
    const wasWelcomed = this.#welcomed;
    this.#welcomed = false;
    this.#stopTimers();
    if (wasWelcomed || code !== 1006) this.#emit({ type: 'disconnected', code, reason });
    if (this.#stopped) return;
    if (wasWelcomed && code !== 1000) this.#resendRecentAnswers();
    if (this.#authError !== undefined || code === CLOSE_UNAUTHORIZED) {
      const message = this.#authError ?? (reason || 'unauthorized');
      this.#stop(new WsAgentAuthError(message));
      this.#emit({ type: 'auth_failed', message });
      return;
    }
    if (code === CLOSE_REPLACED) {
      this.#stop(new Error('another connection with this API key replaced this one'));
      this.#emit({ type: 'replaced' });
      return;
    }
    const delayMs = reconnectDelay(this.#attempt, this.#o.backoff);
    this.#emit({ type: 'reconnect_scheduled', attempt: this.#attempt, delayMs });
    this.#attempt++;
    this.#reconnectTimer = setTimeout(() => this.#connect(), delayMs);
  }

  #stop(err: Error): void {
    this.#stopped = true;
    this.#settleReady?.reject(err);
    this.#settleReady = undefined;
    this.#failCardWaiters(err);
  }

  #startPing(ws: WebSocket): void {
    const every = this.#o.pingIntervalMs ?? DEFAULT_PING_MS;
    this.#pingTimer = setInterval(() => {
      // Two intervals without a frame or pong: the connection is dead even if TCP has not noticed.
      if (Date.now() - this.#lastHeard > 2 * every) {
        ws.terminate();
        return;
      }
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'ping' }));
    }, every);
    this.#pingTimer.unref?.();
  }

  #stopTimers(): void {
    clearInterval(this.#pingTimer);
    clearTimeout(this.#stableTimer);
  }

  #onWelcome(frame: Frame): void {
    this.#agentId = typeof frame.agentId === 'string' ? frame.agentId : this.#agentId;
    this.#welcomed = true;
    this.#stableTimer = setTimeout(
      () => (this.#attempt = 0),
      this.#o.stableAfterMs ?? DEFAULT_STABLE_MS
    );
    this.#stableTimer.unref?.();
    const held = this.#outbox;
    this.#outbox = [];
    for (const f of held) this.#send(f);
    this.#emit({ type: 'connected', agentId: this.#agentId ?? '' });
    this.#settleReady?.resolve();
    this.#settleReady = undefined;
  }

  #send(frame: unknown): void {
    const ws = this.#ws;
    if (this.#welcomed && ws?.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify(frame));
      if (isFinalAnswer(frame)) {
        this.#remember(frame as Frame);
        const taskId = String((frame as Frame).taskId);
        const ack = this.#acks.get(taskId);
        if (ack !== undefined) {
          clearTimeout(ack);
          this.#acks.delete(taskId);
        }
      }
    } else this.#outbox.push(frame);
  }

  #remember(frame: Frame): void {
    const now = Date.now();
    const a = this.#recentAnswers;
    while (a.length > 0 && (now - a[0]!.at > RESEND_WINDOW_MS || a.length >= RESEND_MAX)) a.shift();
    a.push({ frame, at: now });
  }

  /** The socket died unclosed: answers of the last moments may have died with the hub node. */
  #resendRecentAnswers(): void {
    const now = Date.now();
    const again = this.#recentAnswers.filter((r) => now - r.at <= RESEND_WINDOW_MS);
    this.#recentAnswers = [];
    if (again.length === 0) return;
    this.#resent = new Set(again.map((r) => String(r.frame.taskId)));
    this.#outbox = [...again.map((r) => r.frame), ...this.#outbox];
  }

  /**
   * Tell the hub this message arrived (the optional `received` frame), unless the answer leaves
   * first: an answer says as much, and a quick agent then costs the hub nothing extra.
   */
  #acknowledge(taskId: string): void {
    if (this.#acks.has(taskId)) return;
    const ws = this.#ws;
    const timer = setTimeout(() => {
      this.#acks.delete(taskId);
      if (ws === this.#ws && this.#welcomed && ws?.readyState === WebSocket.OPEN) {
        ws.send(JSON.stringify({ type: 'received', taskId }));
      }
    }, ACK_AFTER_MS);
    timer.unref?.();
    this.#acks.set(taskId, timer);
  }

  // ---- frames from the hub ---------------------------------------------------------------------

  #onText(text: string): void {
    let frame: Frame;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return;
      frame = parsed as Frame;
    } catch {
      return; // not a frame of this protocol
    }
    switch (frame.type) {
      case 'welcome':
        this.#onWelcome(frame);
        return;
      case 'message':
        if (typeof frame.taskId === 'string') this.#acknowledge(frame.taskId);
        // A failure here must not break the chain: later messages still need their turn.
        this.#intake = this.#intake
          .then(() => this.#onMessageFrame(frame))
          .catch((error: unknown) => {
            const taskId = typeof frame.taskId === 'string' ? frame.taskId : '';
            this.#emit({ type: 'handler_failed', taskId, error });
            if (taskId) this.#send(failedFrame(taskId, errorText(error)));
          });
        return;
      case 'task_update':
        if (frame.task && typeof frame.task === 'object')
          this.#o.onTaskUpdate?.(frame.task as Task);
        return;
      case 'card_updated':
        this.#cardWaiters.shift()?.resolve(frame.agentCard as AgentCard);
        return;
      case 'auth_error':
        this.#authError = typeof frame.error === 'string' ? frame.error : 'unauthorized';
        return;
      case 'error':
        this.#onErrorFrame(frame);
        return;
      default:
        return; // pong, and frame types newer than this SDK
    }
  }

  #onErrorFrame(frame: Frame): void {
    const error = typeof frame.error === 'string' ? frame.error : 'ERROR';
    const message = typeof frame.message === 'string' ? frame.message : '';
    const taskId = typeof frame.taskId === 'string' ? frame.taskId : undefined;
    // The only frame this SDK sends without a task that the hub answers with an error.
    if (!taskId && this.#cardWaiters.length > 0 && error !== 'PARSE_ERROR') {
      this.#cardWaiters.shift()?.reject(new Error(`update_card refused: ${error}: ${message}`));
      return;
    }
    // An answer sent again after a reconnect that had reached the hub the first time.
    if (taskId && this.#resent.delete(taskId)) return;
    this.#emit({ type: 'hub_error', error, message, ...(taskId ? { taskId } : {}) });
  }

  /** Verify, then hand to onMessage; the handler itself runs without holding up the next message. */
  async #onMessageFrame(frame: Frame): Promise<void> {
    const taskId = typeof frame.taskId === 'string' ? frame.taskId : '';
    const contextId = typeof frame.contextId === 'string' ? frame.contextId : '';
    if (!taskId) return;
    const metadata = record(frame.metadata);
    let envelope: HubEnvelope | undefined;
    if (this.#verifier) {
      const check = await this.#verifier.verify(metadata['x-hub']);
      if (!check.ok) {
        this.#emit({
          type: 'envelope_rejected',
          taskId,
          reason: check.reason,
          ...(check.detail ? { detail: check.detail } : {}),
        });
        this.#send(failedFrame(taskId, `envelope verification failed: ${check.reason}`));
        return;
      }
      envelope = check.envelope;
    }
    const payload = record(frame.payload);
    const parts = (Array.isArray(payload.parts) ? payload.parts : []) as Part[];
    const message: Message = {
      ...(payload.role === 'user' || payload.role === 'agent' ? { role: payload.role } : {}),
      parts,
      ...(typeof payload.messageId === 'string' ? { messageId: payload.messageId } : {}),
      taskId,
      contextId,
      ...(isRecord(payload.metadata) ? { metadata: payload.metadata } : {}),
    };
    const incoming: WsIncomingMessage = {
      text: textOfParts(parts),
      message,
      task: { id: taskId, contextId },
      from: typeof frame.from === 'string' ? frame.from : (envelope?.sender.agentId ?? ''),
      envelope,
      configuration: record(frame.configuration),
      metadata,
    };
    void this.#run(incoming);
  }

  async #run(m: WsIncomingMessage): Promise<void> {
    const taskId = m.task.id;
    try {
      const reply = await this.#o.onMessage(m);
      for await (const f of responseFrames(taskId, reply)) this.#send(f);
    } catch (error) {
      this.#emit({ type: 'handler_failed', taskId, error });
      this.#send(failedFrame(taskId, errorText(error)));
    }
  }

  #failCardWaiters(err: Error): void {
    for (const w of this.#cardWaiters.splice(0)) w.reject(err);
  }

  #emit(e: WsAgentEvent): void {
    try {
      this.#o.onEvent?.(e);
    } catch {
      // An event hook that throws must not break the connection.
    }
  }
}

/** `http://host` → `ws://host/ws`; a ws URL with a path is used as it is. */
export function hubSocketUrl(url: string): string {
  const u = new URL(url);
  if (u.protocol === 'http:') u.protocol = 'ws:';
  else if (u.protocol === 'https:') u.protocol = 'wss:';
  else if (u.protocol !== 'ws:' && u.protocol !== 'wss:') {
    throw new Error(`WsAgent url must be http(s):// or ws(s)://, not ${url}`);
  }
  if (u.pathname === '/' || u.pathname === '') u.pathname = '/ws';
  return u.toString();
}

/** A task_response that ends or pauses its task (sent twice, the hub refuses the repeat). */
function isFinalAnswer(frame: unknown): boolean {
  const f = frame as TaskResponseFrame;
  return f.type === 'task_response' && f.status?.state !== 'working';
}

function failedFrame(taskId: string, message: string): TaskResponseFrame {
  return { type: 'task_response', taskId, status: { state: 'failed', message }, lastChunk: true };
}

function record(v: unknown): Record<string, unknown> {
  return isRecord(v) ? v : {};
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function rawText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
