// The hub's public protocol, as the SDK sees it (interface-spec "Resources", decisions.md §1–§4):
// plain types for what crosses the wire. The SDK never imports the hub's internals; task states,
// parts and the envelope are the contract the hub itself is built on (./contract).

import type { Part, TaskState } from './contract/index.js';

export { TaskStates, TerminalStates, type TaskState, type Part } from './contract/index.js';
export type { HubEnvelope } from './contract/index.js';

export interface Message {
  role?: 'user' | 'agent';
  parts: Part[];
  messageId?: string;
  contextId?: string;
  taskId?: string;
  metadata?: Record<string, unknown>;
}

export interface Artifact {
  artifactId?: string;
  id?: string;
  name?: string;
  mimeType?: string;
  parts: Part[];
}

export interface TaskStatus {
  state: TaskState;
  timestamp?: string;
  /** The status text (a failed task's reason, an input-required question). */
  message?: string;
}

export interface Task {
  id: string;
  contextId: string;
  status: TaskStatus;
  messages?: Message[];
  history?: Message[];
  artifacts?: Artifact[];
  metadata?: Record<string, unknown>;
}

export interface AgentSkill {
  id: string;
  name: string;
  description: string;
  /** Required by the hub's card validation (may be empty). */
  tags: string[];
  examples?: string[];
  inputModes?: string[];
  outputModes?: string[];
}

export interface AgentCard {
  name: string;
  description: string;
  /** The agent's endpoint: required on a card sent with updateCard or registered with the hub. */
  url?: string;
  version: string;
  capabilities?: { streaming?: boolean; pushNotifications?: boolean };
  defaultInputModes?: string[];
  defaultOutputModes?: string[];
  skills: AgentSkill[];
  [key: string]: unknown;
}

/** Text parts joined by spaces: what handlers usually want from a message. */
export function textOf(parts: readonly Part[] | undefined): string {
  return (parts ?? [])
    .filter((p): p is Extract<Part, { kind: 'text' }> => p.kind === 'text')
    .map((p) => p.text)
    .join(' ');
}
