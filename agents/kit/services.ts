// What the runtime hands every official agent besides the request: its database, the embedder, and
// the hub itself (the directory, and calls to other agents on behalf of the verified sender).
import type { Config } from '../../runtime/config/index.js';
import type { Envelope } from '../../runtime/envelope/index.js';
import type { Db, VisibleAgentRow } from '../../infra/db/index.js';
import type { Embedder } from '../../infra/embed/index.js';

/** An agent the sender may see in the directory: public ones and its own tenant's. */
export type VisibleAgent = VisibleAgentRow;

export interface ForwardOptions {
  /** Canonical id or alias of the agent to call. */
  agentId: string;
  text: string;
  /** Aborting cancels the forwarded task. */
  signal: AbortSignal;
  /** How long to wait for a settled state before canceling the forwarded task. */
  timeoutMs: number;
}

export interface ForwardResult {
  /** The canonical id of the agent that answered. */
  agentId: string;
  taskId: string;
  state: string;
  /** The answer's text: text parts of its artifacts (or its status message), joined. */
  text: string;
}

/**
 * The hub, as an official agent may use it. Every call acts for the sender of a hub-verified
 * envelope addressed to this agent, so a forwarded request is the sender's own, with the sender's
 * visibility and data scope, and an agent can never act for anyone it was not asked by.
 */
export interface OfficialHub {
  visibleAgents(onBehalfOf: Envelope): Promise<VisibleAgent[]>;
  forward(onBehalfOf: Envelope, o: ForwardOptions): Promise<ForwardResult>;
}

export interface AgentServices {
  /** The hub's configuration (read once, at start): agents' settings live in it too. */
  config: Config;
  /** The agents' data lives in the hub's PostgreSQL, in tables each agent's migration creates. */
  sql: Db;
  embedder: Embedder;
  hub: OfficialHub;
}
