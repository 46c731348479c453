// A fleet of agents for the fault tests. A WebSocket agent keeps one socket to a hub (its preferred
// node, or any live one after that node dies), answers every message frame at once with a completed
// task_response, and records what it received. An HTTP agent (decisions.md §3) is registered with
// an endpoint URL on a server the test process runs (on an address the hubs reach): the hub POSTs
// each delivery there, the SDK's HTTP agent handler checks the webhook secret and the signed x-hub
// envelope, and the agent answers at once with a completed task. Both kinds record every delivery
// the same way. While the load runs, each online agent sends a message every 1–2 s to the next of
// its three peers over HTTP, with a unique messageId and a per (sender → recipient) sequence
// number, and retries the same messageId until the hub acknowledges it with a task id.
// Verification lives in fleet-verdict.ts; with a History the fleet also records every attempt and
// delivery for the history checker (history-checker.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import type { History } from './history.js';
import { createAgent, createTenant, type Db } from '../../../infra/db/index.js';
import { httpAgentHandler, type HttpIncomingMessage } from '../../../sdk/agent/index.js';
import { EnvelopeVerifier } from '../../../sdk/envelope/index.js';
import type { AgentCard, HubJwks } from '../../../sdk/index.js';

export interface Ack {
  messageId: string;
  sender: number;
  recipient: number;
  seq: number;
  body: string;
  taskId: string;
  ackAt: number;
  /** The hub that acknowledged it. */
  via: string;
  /** SendMessage attempts it took (more than 1: retried after an error). */
  attempts: number;
  /** Every task id an attempt with this messageId was answered with (more than one: a duplicate). */
  taskIds: Set<string>;
}

export interface Received {
  taskId: string;
  from: string;
  messageId: string;
  body: string;
  at: number;
}

export interface FleetAgent {
  readonly index: number;
  /** 'http': registered with an endpoint URL on the fleet's HTTP server, never a socket. */
  readonly transport: 'websocket' | 'http';
  readonly id: string;
  readonly key: string;
  readonly tenantId: string;
  /** Index into the hub list this agent prefers (its "home" node). */
  readonly home: number;
  readonly peers: readonly number[];
  /** Message frames in arrival order, from every socket this agent had. */
  readonly received: Received[];
  /** The hub URL the socket is connected to, while connected (never, for an HTTP agent). */
  connectedTo: string | undefined;
  /**
   * Should this agent be connected (an "offline" agent is false until goOnline)? Always true for
   * an HTTP agent: its endpoint stays up (a cut between it and a hub is the network's doing).
   */
  wantOnline: boolean;
  reconnects: number;
}

export interface FleetOptions {
  tenants: number;
  perTenant: number;
  /** Every `offlineEvery`-th agent (index % offlineEvery === offlineEvery - 1) starts offline. */
  offlineEvery: number;
  /** Peer offsets inside the tenant; odd offsets cross to the other hub (homes alternate). */
  peerOffsets?: readonly number[];
  sendIntervalMs?: readonly [number, number];
  /** Offline agents send too (over HTTP, which needs no socket): every message is then queued. */
  sendWhileOffline?: boolean;
  /** Record every SendMessage attempt, rate-limit answer and delivery here. */
  history?: History;
  /**
   * Positions inside each tenant (0 … perTenant - 1) that are HTTP agents, with the address their
   * server listens on: one the hubs reach (127.0.0.1 on the host, the clients' address on the
   * bridge for hubs in network namespaces). None by default.
   */
  http?: { positions: readonly number[]; host: string };
}

/** The card HTTP agents serve (the hub does not fetch it: they are created in the database). */
const HTTP_CARD: AgentCard = {
  name: 'Fault HTTP agent',
  description: 'completes every task at once',
  url: 'http://fault.invalid/',
  version: '1.0.0',
  capabilities: { streaming: false, pushNotifications: false },
  skills: [],
};

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Error codes of an `error` frame after which the agent answers again (runtime/errors catalog). */
const RETRYABLE = new Set(['UNAVAILABLE', 'INTERNAL']);
/** The JSON-RPC code of a request the rate limiter refused (runtime/errors catalog). */
const RATE_LIMITED = -32017;

const answer = (taskId: string) =>
  JSON.stringify({
    type: 'task_response',
    taskId,
    status: { state: 'completed' },
    lastChunk: true,
  });

export class AgentFleet {
  readonly agents: FleetAgent[] = [];
  readonly acks = new Map<string, Ack>();
  /** Sends given up (not acknowledged) and refusals, by reason. */
  readonly notAcked: Record<string, number> = {};
  /** Attempts that failed and were retried, by error. */
  readonly retried: Record<string, number> = {};
  attempts = 0;
  /** Distinct messageIds the load sent (each retried until acknowledged or refused). */
  sent = 0;
  /** Close codes of sockets that had their welcome (1006: the hub went away without a close). */
  readonly closeCodes: Record<number, number> = {};
  /** task_response frames sent again after a retryable error frame. */
  answersRetried = 0;
  private readonly answerRetries = new Map<string, number>();
  private readonly sockets = new Map<number, WebSocket>();
  private readonly pairSeq = new Map<string, number>();
  private running = false;
  private loops: Array<Promise<void>> = [];
  private closed = false;
  private readonly runId = Math.random().toString(36).slice(2, 8);
  /** Requests the HTTP agents refused or found wrong (wrong secret, bad envelope, ids disagreeing). */
  readonly httpProblems: string[] = [];
  private httpServer: Server | undefined;
  private readonly webhookSecrets = new Map<number, string>();
  private verifier: EnvelopeVerifier | undefined;
  private readonly hubsSeen = new Set<string>();

  private constructor(
    private readonly hubUrls: () => string[],
    private readonly opts: FleetOptions
  ) {}

  /** Create the tenants and agents (directly in the database) and the fleet around them. */
  static async create(sql: Db, hubUrls: () => string[], opts: FleetOptions): Promise<AgentFleet> {
    const fleet = new AgentFleet(hubUrls, opts);
    const offsets = opts.peerOffsets ?? [1, 3, 5];
    const endpoint = opts.http ? await fleet.startHttpServer(opts.http.host) : undefined;
    for (let t = 0; t < opts.tenants; t++) {
      const tenant = await createTenant(sql, { name: `Fault ${fleet.runId} ${t}` });
      for (let j = 0; j < opts.perTenant; j++) {
        const index = t * opts.perTenant + j;
        const http = endpoint !== undefined && opts.http!.positions.includes(j);
        const c = await createAgent(sql, {
          tenantId: tenant.id,
          name: `fa-${index}`,
          ...(http ? { url: `${endpoint}/agents/${index}` } : {}),
        });
        if (c.webhookSecret) fleet.webhookSecrets.set(index, c.webhookSecret);
        fleet.agents.push({
          index,
          transport: http ? 'http' : 'websocket',
          id: c.agent.id,
          key: c.apiKey,
          tenantId: tenant.id,
          home: j % 2,
          peers: offsets.map((o) => t * opts.perTenant + ((j + o) % opts.perTenant)),
          received: [],
          connectedTo: undefined,
          wantOnline: http || index % opts.offlineEvery !== opts.offlineEvery - 1,
          reconnects: 0,
        });
      }
    }
    return fleet;
  }

  get offline(): FleetAgent[] {
    return this.agents.filter((a) => !a.wantOnline);
  }

  /** The agents of one transport (for reports split by kind of recipient). */
  ofTransport(t: FleetAgent['transport']): FleetAgent[] {
    return this.agents.filter((a) => a.transport === t);
  }

  /**
   * Connect every WebSocket agent that wants to be online; resolves when all have their welcome.
   * The HTTP agents' envelope verifier takes the hub's keys now, while every hub is reachable.
   */
  async connectAll(): Promise<void> {
    for (const u of this.hubUrls()) this.hubsSeen.add(u);
    if (this.httpServer) {
      const res = await fetch(`${this.hubUrls()[0]!}/.well-known/hub-keys.json`, {
        signal: AbortSignal.timeout(10_000),
      });
      this.verifier = new EnvelopeVerifier({ jwks: (await res.json()) as HubJwks });
    }
    await Promise.all(
      this.agents
        .filter((a) => a.wantOnline && a.transport === 'websocket')
        .map((a) => this.keepConnected(a))
    );
  }

  /** Bring the offline agents online (their queues then drain to them). */
  async goOnline(agents: readonly FleetAgent[]): Promise<void> {
    for (const a of agents) a.wantOnline = true;
    await Promise.all(agents.map((a) => this.keepConnected(a)));
  }

  connectedCount(): number {
    return this.agents.filter((a) => a.connectedTo !== undefined).length;
  }

  /** Start each online agent's send loop. */
  startLoad(): void {
    this.running = true;
    this.loops = this.agents.map((a) => this.sendLoop(a));
  }

  async stopLoad(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  close(): void {
    this.closed = true;
    this.running = false;
    for (const ws of this.sockets.values()) ws.terminate();
    this.sockets.clear();
    this.httpServer?.closeAllConnections();
    this.httpServer?.close();
  }

  /**
   * Send `ack`'s messageId again with the same body through `hubUrl`; returns the task id the hub
   * answered (the same as the first: the hub remembers messageIds for 2 minutes).
   */
  async resend(ack: Ack, hubUrl: string): Promise<string | undefined> {
    const sender = this.agents[ack.sender]!;
    const r = await this.sendOnce(
      hubUrl,
      sender,
      this.agents[ack.recipient]!,
      ack.messageId,
      ack.body,
      ack.seq
    );
    if (r.taskId) ack.taskIds.add(r.taskId);
    return r.taskId;
  }

  // -------------------------------------------------------------------------------------------

  /** The HTTP agents' server, on a free port of `host`; returns its base URL. */
  private async startHttpServer(host: string): Promise<string> {
    const server = createServer((req, res) => {
      // A hub that gives up on a call (its timeout, a cut) aborts the request: nothing to answer.
      this.serveHttp(req, res).catch(() => res.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, () => resolve());
    });
    this.httpServer = server;
    return `http://${host}:${(server.address() as AddressInfo).port}`;
  }

  /** `/agents/<index>/…`: that HTTP agent's endpoint, served by the SDK's handler. */
  private async serveHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fleet');
    const m = /^\/agents\/(\d+)(\/.*)?$/.exec(url.pathname);
    const agent = m ? this.agents[Number(m[1])] : undefined;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (!agent || agent.transport !== 'http' || this.closed) {
      res.writeHead(404).end();
      return;
    }
    const via = this.hubAt(req.socket.remoteAddress ?? '');
    // One handler per request: its onMessage needs the hub this request came from, which the
    // handler does not pass on. The verifier (the hub's keys) is shared.
    const handler = httpAgentHandler({
      card: HTTP_CARD,
      webhookSecret: this.webhookSecrets.get(agent.index)!,
      ...(this.verifier ? { verifier: this.verifier } : {}),
      onMessage: (msg) => this.httpDelivery(agent, msg, via),
      onEvent: (e) => {
        this.httpProblems.push(
          `${agent.id} ${e.type}${e.type === 'envelope_rejected' ? ` ${e.reason}` : ''} via ${via}`
        );
      },
    });
    const r = await handler.handle({
      method: req.method ?? 'GET',
      path: m![2] ?? '/',
      authorization: req.headers.authorization,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    res.writeHead(r.status, r.headers).end(r.body);
  }

  /**
   * The hub a request came from: the one whose URL has the request's source address, when only
   * one hub seen in this run has (hubs in network namespaces); otherwise the address (hubs sharing
   * the host). Every hub seen counts, not only the live ones: a paused hub's request may arrive
   * late.
   */
  private hubAt(address: string): string {
    const addr = address.replace(/^::ffff:/, '');
    for (const u of this.hubUrls()) this.hubsSeen.add(u);
    const hubs = [...this.hubsSeen].filter((u) => new URL(u).hostname === addr);
    return hubs.length === 1 ? hubs[0]! : `http from ${addr}`;
  }

  /** A delivery to an HTTP agent, recorded as a WebSocket agent records a message frame. */
  private httpDelivery(agent: FleetAgent, msg: HttpIncomingMessage, via: string): string {
    const at = Date.now();
    const env = msg.envelope;
    const messageId = msg.message.messageId ?? '';
    const from = env?.sender.agentId ?? '';
    const body = msg.text;
    // The signed envelope must name this delivery: the same task, message and recipient.
    if (
      !env ||
      env.taskId !== msg.task.id ||
      env.messageId !== messageId ||
      env.recipient.agentId !== agent.id
    ) {
      this.httpProblems.push(
        `${agent.id}: envelope ${JSON.stringify(env ?? null)} does not name task ${msg.task.id}, message ${messageId}`
      );
    }
    agent.received.push({ taskId: msg.task.id, from, messageId, body, at });
    this.opts.history?.record({
      kind: 'deliver',
      at,
      recipient: agent.id,
      messageId,
      taskId: msg.task.id,
      from,
      via,
    });
    return `done: ${body}`;
  }

  /** Connect now (retrying over the live hubs), and reconnect whenever the socket drops. */
  private async keepConnected(agent: FleetAgent): Promise<void> {
    for (;;) {
      if (this.closed || !agent.wantOnline || agent.transport === 'http') return;
      const urls = this.hubUrls();
      const order = [
        ...urls.slice(agent.home % urls.length),
        ...urls.slice(0, agent.home % urls.length),
      ];
      for (const url of order) {
        try {
          await this.connect(agent, url);
          return;
        } catch {
          // this hub is down or not ready: try the next one
        }
      }
      await sleep(500 + Math.random() * 500);
    }
  }

  private connect(agent: FleetAgent, hubUrl: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(hubUrl.replace(/^http/, 'ws') + '/ws', {
        headers: { authorization: `Bearer ${agent.key}` },
      });
      let welcomed = false;
      const timer = setTimeout(() => {
        ws.terminate();
        reject(new Error('no welcome within 10 s'));
      }, 10_000);
      ws.on('message', (data) => {
        const f = JSON.parse((data as Buffer).toString()) as Record<string, unknown>;
        if (f.type === 'welcome') {
          welcomed = true;
          clearTimeout(timer);
          agent.connectedTo = hubUrl;
          this.sockets.set(agent.index, ws);
          resolve();
          return;
        }
        if (f.type === 'error' && typeof f.taskId === 'string') {
          // The hub could not record our answer (e.g. UNAVAILABLE while the task's partition
          // moves): a well-behaved agent answers again, as the protocol's retryable errors ask.
          if (RETRYABLE.has(f.error as string)) this.answerLater(agent, f.taskId);
          else
            this.notAcked[`task_response ${String(f.error)}`] =
              (this.notAcked[`task_response ${String(f.error)}`] ?? 0) + 1;
          return;
        }
        if (f.type !== 'message') return;
        const payload = f.payload as { parts: Array<{ text?: string }>; messageId: string };
        const at = Date.now();
        agent.received.push({
          taskId: f.taskId as string,
          from: f.from as string,
          messageId: payload.messageId,
          body: payload.parts[0]?.text ?? '',
          at,
        });
        this.opts.history?.record({
          kind: 'deliver',
          at,
          recipient: agent.id,
          messageId: payload.messageId,
          taskId: f.taskId as string,
          from: f.from as string,
          via: hubUrl,
        });
        ws.send(answer(f.taskId as string));
      });
      ws.on('error', () => {
        // 'close' follows and decides
      });
      ws.on('close', (code) => {
        clearTimeout(timer);
        if (welcomed) this.closeCodes[code] = (this.closeCodes[code] ?? 0) + 1;
        if (this.sockets.get(agent.index) === ws) this.sockets.delete(agent.index);
        if (!welcomed) {
          reject(new Error('closed before welcome'));
          return;
        }
        agent.connectedTo = undefined;
        if (this.closed || !agent.wantOnline) return;
        agent.reconnects++;
        void this.keepConnected(agent);
      });
    });
  }

  /** Answer `taskId` again in a second, on whatever socket the agent has then (30 tries). */
  private answerLater(agent: FleetAgent, taskId: string): void {
    const n = (this.answerRetries.get(taskId) ?? 0) + 1;
    this.answerRetries.set(taskId, n);
    this.answersRetried++;
    if (n > 30) return;
    setTimeout(() => {
      const ws = this.sockets.get(agent.index);
      if (ws?.readyState === WebSocket.OPEN) ws.send(answer(taskId));
      else if (!this.closed) this.answerLater(agent, taskId);
    }, 1000);
  }

  private async sendLoop(agent: FleetAgent): Promise<void> {
    const [lo, hi] = this.opts.sendIntervalMs ?? [1000, 2000];
    let k = agent.index % agent.peers.length;
    // Spread the first sends over one interval so the load starts steady, not in a burst.
    await sleep(Math.random() * hi);
    while (this.running) {
      if (agent.wantOnline || this.opts.sendWhileOffline) {
        const recipient = this.agents[agent.peers[k++ % agent.peers.length]!]!;
        const pair = `${agent.index}>${recipient.index}`;
        const seq = (this.pairSeq.get(pair) ?? 0) + 1;
        this.pairSeq.set(pair, seq);
        const messageId = `fm-${this.runId}-${agent.index}-${recipient.index}-${seq}`;
        const body = `fault|${agent.index}|${recipient.index}|${seq}`;
        this.sent++;
        await this.sendUntilAcked(agent, recipient, messageId, body, seq);
      }
      await sleep(lo + Math.random() * (hi - lo));
    }
  }

  private async sendUntilAcked(
    sender: FleetAgent,
    recipient: FleetAgent,
    messageId: string,
    body: string,
    seq: number
  ): Promise<void> {
    const deadline = Date.now() + 90_000;
    const taskIds = new Set<string>();
    for (let attempt = 0; ; attempt++) {
      const urls = this.hubUrls();
      // The node the sender is connected to, else its home, else the next live one.
      const url =
        attempt === 0 && sender.connectedTo && urls.includes(sender.connectedTo)
          ? sender.connectedTo
          : urls[(sender.home + attempt) % urls.length]!;
      const r = await this.sendOnce(url, sender, recipient, messageId, body, seq);
      if (r.taskId) {
        taskIds.add(r.taskId);
        this.acks.set(messageId, {
          messageId,
          sender: sender.index,
          recipient: recipient.index,
          seq,
          body,
          taskId: r.taskId,
          ackAt: Date.now(),
          via: url,
          attempts: attempt + 1,
          taskIds,
        });
        return;
      }
      if (r.refused !== undefined) {
        this.notAcked[r.refused] = (this.notAcked[r.refused] ?? 0) + 1;
        return;
      }
      this.retried[r.error!] = (this.retried[r.error!] ?? 0) + 1;
      if (Date.now() > deadline) {
        this.notAcked[`gave up: ${r.error}`] = (this.notAcked[`gave up: ${r.error}`] ?? 0) + 1;
        return;
      }
      await sleep(300 + Math.random() * 700);
    }
  }

  /** One SendMessage attempt: a task id, a refusal (a queue limit), or a retryable error. */
  private async sendOnce(
    hubUrl: string,
    sender: FleetAgent,
    recipient: FleetAgent,
    messageId: string,
    body: string,
    seq: number
  ): Promise<{ taskId?: string; refused?: string; error?: string }> {
    this.attempts++;
    const start = Date.now();
    const r = await this.post(hubUrl, sender, recipient, messageId, body);
    this.opts.history?.record({
      kind: 'send',
      start,
      end: Date.now(),
      messageId,
      sender: sender.id,
      recipient: recipient.id,
      seq,
      outcome: r.taskId ? 'ack' : r.refused !== undefined ? 'refused' : 'error',
      ...(r.taskId ? { taskId: r.taskId } : {}),
      via: hubUrl,
      ...(r.error ? { detail: r.error } : {}),
    });
    return r;
  }

  private async post(
    hubUrl: string,
    sender: FleetAgent,
    recipient: FleetAgent,
    messageId: string,
    body: string
  ): Promise<{ taskId?: string; refused?: string; error?: string }> {
    try {
      const res = await fetch(`${hubUrl}/a2a`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'a2a-version': '1.0',
          authorization: `Bearer ${sender.key}`,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: {
            message: { role: 'user', parts: [{ kind: 'text', text: body }], messageId },
            configuration: { agentId: recipient.id, blocking: false },
          },
        }),
        signal: AbortSignal.timeout(30_000),
      });
      const json = (await res.json()) as {
        result?: { id?: string };
        error?: { code: number; message: string };
      };
      const windowEnd = Number(res.headers.get('x-ratelimit-reset'));
      if (this.opts.history && windowEnd > 0) {
        this.opts.history.record({
          kind: 'rate',
          at: Date.now(),
          key: sender.id,
          windowEnd,
          limit: Number(res.headers.get('x-ratelimit-limit')),
          admitted: json.error?.code !== RATE_LIMITED,
        });
      }
      if (json.result?.id) return { taskId: json.result.id };
      const code = json.error?.code;
      // The three queue limits are final answers: the message was refused, not lost.
      if (code === -32012 || code === -32013 || code === -32014) return { refused: String(code) };
      return { error: `http ${res.status} ${code ?? ''}`.trim() };
    } catch (err) {
      return { error: (err as Error).name === 'TimeoutError' ? 'timeout' : 'network' };
    }
  }
}
