// What an official agent is made of, and what its handler receives and returns.
import type { Envelope } from '../../runtime/envelope/index.js';
import type { Logger } from '../../runtime/log/index.js';
import type { Artifact, Message, RespondState } from '../../runtime/protocol/index.js';

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
  message: Message;
  taskId: string;
  contextId: string;
  configuration: Record<string, unknown>;
  /** The hub-verified envelope: the only source of sender and tenant. */
  envelope: Envelope;
  /** When the hub sent the request (epoch ms). */
  sentAt: number;
}

export interface AgentContext {
  log: Logger;
  /** Aborted when the deadline passes. */
  signal: AbortSignal;
  now: () => number;
}

export type AgentResult =
  | string
  | {
      state?: RespondState;
      text?: string;
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
}

export function defineAgent(agent: OfficialAgent): OfficialAgent {
  return agent;
}
