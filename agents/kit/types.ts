// What an official agent is made of, and what its handler receives and returns.
import type { Envelope } from '../../runtime/envelope/index.js';
import type { Logger } from '../../runtime/log/index.js';
import type { Artifact, Message, RespondState } from '../../runtime/protocol/index.js';
import type { AgentServices } from './services.js';

export interface SkillCard {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples: string[];
  inputModes?: string[];
  outputModes?: string[];
}

export interface OfficialAgentCard {
  name: string;
  description: string;
  version: string;
  capabilities: { streaming: boolean; pushNotifications: boolean };
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: SkillCard[];
}

export interface AgentRequest {
  /** The text parts of the message joined by spaces. */
  text: string;
  /** The text parsed as a JSON object, when it is one (`{"action": …}` requests); else undefined. */
  json: Record<string, unknown> | undefined;
  /**
   * The caller asked for JSON: `acceptedOutputModes` names application/json and not text/plain,
   * or the JSON request says `"format": "json"`. Handlers then return `data`.
   */
  wantsJson: boolean;
  message: Message;
  taskId: string;
  contextId: string;
  configuration: Record<string, unknown>;
  /** The hub-verified envelope: the only source of sender and tenant. */
  envelope: Envelope;
  /** Shorthands for envelope.sender: whom the agent acts for. Never read these from params. */
  senderId: string;
  tenantId: string;
  /** When the hub sent the request (epoch ms). */
  sentAt: number;
}

export interface AgentContext extends AgentServices {
  log: Logger;
  /** Aborted when the deadline passes or the sender cancels the task. */
  signal: AbortSignal;
  now: () => number;
}

/**
 * A handler's answer. A string is a completed task with that text. `data` is the structured form:
 * the kit sends it as an application/json data part when the caller wants JSON, and `text` (the
 * human form) otherwise; give both when an action has both forms.
 */
export type AgentResult =
  | string
  | {
      state?: RespondState;
      text?: string;
      data?: unknown;
      statusText?: string;
      artifacts?: Artifact[];
    };

export interface OfficialAgent {
  /** Canonical id, e.g. agent-echo-official. */
  id: string;
  alias: string;
  category: string;
  tags: string[];
  card: OfficialAgentCard;
  handle(req: AgentRequest, ctx: AgentContext): Promise<AgentResult>;
  /** Release what the agent holds beyond a request (worker threads, clients), at hub stop. */
  stop?(): Promise<void>;
}

export function defineAgent(agent: OfficialAgent): OfficialAgent {
  return agent;
}
