// The hub's MCP endpoint (Streamable HTTP, MCP 2025-06-18 "Transports"): one session per
// initialize, each with its own server acting as the agent whose key opened it. Requests arrive
// as Web Requests already authenticated by the gateway (gateway/mcp); this side keeps sessions.
import { createHash, randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createBurrowMcpServer, type BurrowMcpServer } from './server.js';

export interface McpHttpOptions {
  /** Where the sessions' hub clients call the hub: this node, e.g. http://127.0.0.1:<port>. */
  readonly hubUrl: () => string;
  /** A session unused this long (no request, no task subscription) is closed. */
  readonly idleMs: number;
  /** Open sessions; an initialize beyond it is refused with 503. */
  readonly maxSessions: number;
  readonly version?: string;
  readonly progressIntervalMs?: number;
}

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly mcp: BurrowMcpServer;
  /** SHA-256 of the key that opened it: only that key may use it. */
  readonly keyHash: string;
  lastUsed: number;
}

export class McpHttpSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly opts: McpHttpOptions) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(opts.idleMs, 60_000));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * One HTTP request to /mcp from a caller whose key the gateway has checked. A session belongs
   * to the key that opened it; to any other key it does not exist (404, as for an unknown one).
   */
  async handle(request: Request, apiKey: string): Promise<Response> {
    const keyHash = createHash('sha256').update(apiKey).digest('hex');
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const s = this.sessions.get(id);
      if (s === undefined || s.keyHash !== keyHash) {
        return rpcError(404, -32001, 'Session not found: initialize a new one');
      }
      s.lastUsed = Date.now();
      return s.transport.handleRequest(request);
    }
    if (request.method !== 'POST') {
      return rpcError(400, -32000, 'Bad Request: no Mcp-Session-Id; POST initialize first');
    }
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return rpcError(400, -32700, 'Parse error: the body is not JSON');
    }
    if (!isInitializeRequest(body)) {
      return rpcError(400, -32000, 'Bad Request: no Mcp-Session-Id; POST initialize first');
    }
    if (this.sessions.size >= this.opts.maxSessions) {
      return rpcError(503, -32000, 'Too many MCP sessions on this hub node; try again later');
    }
    return this.open(request, body, apiKey, keyHash);
  }

  /** Closes every session (the hub is stopping). */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.mcp.close().catch(() => undefined)));
  }

  private async open(
    request: Request,
    body: unknown,
    apiKey: string,
    keyHash: string
  ): Promise<Response> {
    const mcp = createBurrowMcpServer({
      url: this.opts.hubUrl(),
      apiKey,
      ...(this.opts.version !== undefined ? { version: this.opts.version } : {}),
      ...(this.opts.progressIntervalMs !== undefined
        ? { progressIntervalMs: this.opts.progressIntervalMs }
        : {}),
    });
    const transport: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => {
          this.sessions.set(sid, { transport, mcp, keyHash, lastUsed: Date.now() });
        },
        onsessionclosed: (sid) => {
          this.forget(sid);
        },
      });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.forget(transport.sessionId);
    };
    await mcp.server.connect(transport);
    return transport.handleRequest(request, { parsedBody: body });
  }

  private forget(sid: string): void {
    const s = this.sessions.get(sid);
    if (s === undefined) return;
    this.sessions.delete(sid);
    void s.mcp.close().catch(() => undefined);
  }

  /** A session still following tasks is in use even without requests: its client is listening. */
  private sweep(): void {
    const cutoff = Date.now() - this.opts.idleMs;
    for (const [sid, s] of this.sessions) {
      if (s.lastUsed < cutoff && s.mcp.subscriptions() === 0) this.forget(sid);
    }
  }
}

function rpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}
