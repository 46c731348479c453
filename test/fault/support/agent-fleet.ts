// A fleet of WebSocket agents for the fault tests. Each agent keeps one socket to a hub (its
// preferred node, or any live one after that node dies), answers every message frame at once with
// a completed task_response, and records what it received. While the load runs, each online agent
// sends a message every 1–2 s to the next of its three peers over HTTP, with a unique messageId and
// a per (sender → recipient) sequence number, and retries the same messageId until the hub
// acknowledges it with a task id. Verification lives in fleet-verdict.ts; with a History the fleet
// also records every attempt and delivery for the history checker (history-checker.ts).
import WebSocket from 'ws';
import type { History } from './history.js';
import { createAgent, createTenant, type Db } from '../../../infra/db/index.js';

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
  readonly id: string;
  readonly key: string;
  readonly tenantId: string;
  /** Index into the hub list this agent prefers (its "home" node). */
  readonly home: number;
  readonly peers: readonly number[];
  /** Message frames in arrival order, from every socket this agent had. */
  readonly received: Received[];
  /** The hub URL the socket is connected to, while connected. */
  connectedTo: string | undefined;
  /** Should this agent be connected (an "offline" agent is false until goOnline)? */
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
}

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

  private constructor(
    private readonly hubUrls: () => string[],
    private readonly opts: FleetOptions
  ) {}

  /** Create the tenants and agents (directly in the database) and the fleet around them. */
  static async create(sql: Db, hubUrls: () => string[], opts: FleetOptions): Promise<AgentFleet> {
    const fleet = new AgentFleet(hubUrls, opts);
    const offsets = opts.peerOffsets ?? [1, 3, 5];
    for (let t = 0; t < opts.tenants; t++) {
      const tenant = await createTenant(sql, { name: `Fault ${fleet.runId} ${t}` });
      for (let j = 0; j < opts.perTenant; j++) {
        const index = t * opts.perTenant + j;
        const c = await createAgent(sql, { tenantId: tenant.id, name: `fa-${index}` });
        fleet.agents.push({
          index,
          id: c.agent.id,
          key: c.apiKey,
          tenantId: tenant.id,
          home: j % 2,
          peers: offsets.map((o) => t * opts.perTenant + ((j + o) % opts.perTenant)),
          received: [],
          connectedTo: undefined,
          wantOnline: index % opts.offlineEvery !== opts.offlineEvery - 1,
          reconnects: 0,
        });
      }
    }
    return fleet;
  }

  get offline(): FleetAgent[] {
    return this.agents.filter((a) => !a.wantOnline);
  }

  /** Connect every agent that wants to be online; resolves when all have their welcome. */
  async connectAll(): Promise<void> {
    await Promise.all(this.agents.filter((a) => a.wantOnline).map((a) => this.keepConnected(a)));
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

  /** Connect now (retrying over the live hubs), and reconnect whenever the socket drops. */
  private async keepConnected(agent: FleetAgent): Promise<void> {
    for (;;) {
      if (this.closed || !agent.wantOnline) return;
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
