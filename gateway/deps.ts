// What the gateway needs from the rest of the hub, injected by infra/bin/hub.ts. The gateway knows
// nothing about NATS or PostgreSQL: it calls these functions.
import type { Config } from '../runtime/config/index.js';
import type { Logger } from '../runtime/log/index.js';
import type { HubMetrics } from '../runtime/metrics/index.js';
import type { RequestScope } from './http/index.js';

export type CheckStatus = 'ok' | 'down';

/**
 * One entry per dependency; a required one 'down' makes /health answer 503 "degraded". The
 * optional parts (an official agent's own listener, an upstream) are named by what they serve,
 * e.g. `smtpInbound`: one 'down' answers 200 "degraded", since the node still does its main work
 * and a load balancer must not take it out of rotation for that.
 */
export interface HealthReport {
  nats: CheckStatus;
  postgres: CheckStatus;
  optional?: Readonly<Record<string, CheckStatus>>;
}

export interface DebugSource {
  machineIds(): string[];
  /** machine.toJSON() of a registered machine, or undefined. */
  machineDefinition(id: string): unknown;
  /** A registered machine's states and transitions as Mermaid or DOT text, or undefined. */
  machineGraph?(id: string, format: 'mermaid' | 'dot'): string | undefined;
  /** The persisted snapshot of a live actor anywhere in the cluster (systemId `<kind>:<id>`). */
  actorSnapshot(systemId: string): Promise<unknown>;
  /** A recipient's offline queue (counts, oldest age, draining or idle), or undefined. */
  queue?(agentId: string): Promise<unknown>;
  /** This node's view of the cluster: members and partition owners. */
  cluster(): Promise<unknown>;
  /** Live inspection of this node's hosted actors (GET /debug/inspect, a WebSocket). */
  inspect?: DebugInspect;
}

export interface DebugInspect {
  /** The actor kinds that can be watched. */
  kinds(): string[];
  /**
   * Sends each inspection event (Stately inspector format) for the actors `filter` names, starting
   * with one `@xstate.actor` per matching live actor; the returned function ends the watch.
   */
  watch(filter: { kind?: string; id?: string }, send: (event: unknown) => void): () => void;
}

export interface RpcContext {
  /** Unique per request; logged with internal errors and returned to the caller in their place. */
  readonly requestId: string;
  /** Lower-cased request headers. */
  readonly headers: Readonly<Record<string, string>>;
  /** The HTTP path the call arrived on (e.g. /a2a). */
  readonly path: string;
  /** The HTTP request's scope (reply headers, client address), for the authenticator. */
  readonly scope: RequestScope;
}

/** A JSON-RPC method implementation: returns the `result`, or throws a HubError. */
export type RpcHandler = (params: unknown, ctx: RpcContext) => Promise<unknown>;

export interface GatewayDeps {
  config: Pick<
    Config,
    | 'port'
    | 'host'
    | 'bodyLimitBytes'
    | 'adminToken'
    | 'metricsToken'
    | 'debugEnabled'
    | 'publicUrl'
    | 'nodeId'
  >;
  log: Logger;
  metrics: HubMetrics;
  health: () => Promise<HealthReport>;
  /** Method name → handler for POST /a2a. Unknown names answer -32601. */
  rpc: ReadonlyMap<string, RpcHandler>;
  debug: DebugSource;
  /**
   * POST /a2a bodies above bodyLimitBytes: the larger limit, and which requests may use it (the
   * pixel agent's, decisions.md §7). `admit` returns undefined to accept, or why it refuses.
   */
  largeRequests?: { limitBytes: number; admit(body: Buffer): string | undefined };
}

export interface Gateway {
  /** Bind PORT (0 picks a free port); resolves with the bound port. */
  listen(): Promise<number>;
  /** Stop accepting new connections; requests in flight continue. */
  stopAccepting(): void;
  /** Resolve when no request is in flight (or after timeoutMs). */
  drain(timeoutMs: number): Promise<void>;
  /** Close every socket. */
  close(): void;
  /** "METHOD pattern" of every mounted route (each is in GET /openapi.json). */
  routes(): string[];
}
