// Agent cards the hub serves for an agent (decisions.md §1 "Agent cards"): the A2A 1.0 card
// (agent-card.json), the v0.3 card for callers without A2A-Version, and the spec's Agent card
// (agent.json). All point at the hub's per-agent endpoint, never at the agent's own URL.
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { AgentCardInput, AgentSkillInput } from './card-input.js';
import { DEFAULT_OUTPUT_MODES } from './output-modes.js';

/** Where the card is served: the hub's public base URL and the agent's canonical id. */
export interface CardTarget {
  publicUrl: string;
  agentId: string;
}

/** What the hub implements for every agent, whatever the agent itself can do. */
export const HUB_CAPABILITIES = { streaming: true, pushNotifications: true } as const;

/** Which card: the public one (skills marked `extended` left out) or the extended one (all). */
export type CardScope = 'public' | 'extended';

/** True when the agent has an extended card: some skill is listed only there. */
export function hasExtendedCard(card: AgentCardInput): boolean {
  return card.skills.some((s) => s.extended === true);
}

function scopedSkills(card: AgentCardInput, scope: CardScope): AgentSkillInput[] {
  return scope === 'extended' ? card.skills : card.skills.filter((s) => s.extended !== true);
}

const DEFAULT_INPUT_MODES: readonly string[] = ['text/plain'];
const BEARER = 'bearer';

export interface CardSkill {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples: string[];
  inputModes?: string[];
  outputModes?: string[];
}

export interface V1AgentInterface {
  url: string;
  protocolBinding: 'JSONRPC';
  protocolVersion: '1.0' | '0.3';
}

/** A2A 1.0 AgentCard in ProtoJSON (oneof security schemes, StringList requirements). */
export interface V1AgentCard {
  name: string;
  description: string;
  supportedInterfaces: V1AgentInterface[];
  provider?: { organization: string; url?: string };
  version: string;
  documentationUrl?: string;
  iconUrl?: string;
  capabilities: { streaming: boolean; pushNotifications: boolean; extendedAgentCard?: boolean };
  securitySchemes: Record<string, { httpAuthSecurityScheme: { scheme: string } }>;
  securityRequirements: { schemes: Record<string, { list: string[] }> }[];
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: CardSkill[];
  signatures?: CardSignature[];
}

/** One JWS (flattened JSON serialization, detached payload) over the canonical card. */
export interface CardSignature {
  protected: string;
  signature: string;
  header?: Record<string, unknown>;
}

/** A2A v0.3 AgentCard (OpenAPI-style security schemes with `type`). */
export interface V03AgentCard {
  protocolVersion: '0.3';
  name: string;
  description: string;
  url: string;
  preferredTransport: 'JSONRPC';
  version: string;
  provider?: { organization: string; url: string };
  documentationUrl?: string;
  iconUrl?: string;
  capabilities: { streaming: boolean; pushNotifications: boolean };
  securitySchemes: Record<string, { type: 'http'; scheme: string }>;
  security: Record<string, string[]>[];
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: CardSkill[];
  supportsAuthenticatedExtendedCard?: boolean;
  signatures?: CardSignature[];
}

/** The spec's Agent card (agent.json). */
export interface RegisteredAgentCard {
  id: string;
  name: string;
  description: string;
  url: string;
  version: string;
  provider?: { organization: string; url?: string };
  capabilities: { streaming: boolean; pushNotifications: boolean };
  skills: CardSkill[];
  defaultInputModes?: string[];
  defaultOutputModes?: string[];
}

/** The per-agent JSON-RPC endpoint: `<publicUrl>/agents/<id>/a2a`. */
export function agentEndpoint(target: CardTarget): string {
  return `${target.publicUrl.replace(/\/+$/, '')}/agents/${encodeURIComponent(target.agentId)}/a2a`;
}

export function cardV1(
  card: AgentCardInput,
  target: CardTarget,
  scope: CardScope = 'public'
): V1AgentCard {
  const url = agentEndpoint(target);
  const extended = scope === 'public' && hasExtendedCard(card);
  return {
    name: card.name,
    description: card.description,
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
    ...(card.provider ? { provider: { ...card.provider } } : {}),
    version: card.version,
    ...links(card),
    capabilities: { ...HUB_CAPABILITIES, ...(extended ? { extendedAgentCard: true } : {}) },
    securitySchemes: { [BEARER]: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    securityRequirements: [{ schemes: { [BEARER]: { list: [] } } }],
    ...modes(card),
    skills: scopedSkills(card, scope).map(skill),
  };
}

export function cardV03(
  card: AgentCardInput,
  target: CardTarget,
  scope: CardScope = 'public'
): V03AgentCard {
  const extended = scope === 'public' && hasExtendedCard(card);
  return {
    protocolVersion: '0.3',
    name: card.name,
    description: card.description,
    url: agentEndpoint(target),
    preferredTransport: 'JSONRPC',
    version: card.version,
    // v0.3's AgentProvider requires a url.
    ...(card.provider
      ? { provider: { organization: card.provider.organization, url: card.provider.url ?? '' } }
      : {}),
    ...links(card),
    capabilities: { ...HUB_CAPABILITIES },
    securitySchemes: { [BEARER]: { type: 'http', scheme: 'bearer' } },
    security: [{ [BEARER]: [] }],
    ...modes(card),
    skills: scopedSkills(card, scope).map(skill),
    ...(extended ? { supportsAuthenticatedExtendedCard: true } : {}),
  };
}

/** The registered card as the spec shows it, with its hub id and the hub endpoint as `url`. */
export function registeredCard(card: AgentCardInput, target: CardTarget): RegisteredAgentCard {
  return {
    id: target.agentId,
    name: card.name,
    description: card.description,
    url: agentEndpoint(target),
    version: card.version,
    ...(card.provider ? { provider: { ...card.provider } } : {}),
    capabilities: {
      streaming: card.capabilities.streaming,
      pushNotifications: card.capabilities.pushNotifications,
    },
    skills: scopedSkills(card, 'public').map(skill),
    ...(card.defaultInputModes ? { defaultInputModes: [...card.defaultInputModes] } : {}),
    ...(card.defaultOutputModes ? { defaultOutputModes: [...card.defaultOutputModes] } : {}),
  };
}

/** A strong ETag: the sha256 of the RFC 8785 canonical JSON, so key order never changes it. */
export function etagOf(json: unknown): string {
  const canonical = canonicalize(json) ?? '';
  return `"${createHash('sha256').update(canonical).digest('base64url')}"`;
}

function skill(s: AgentSkillInput): CardSkill {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    tags: [...s.tags],
    examples: [...s.examples],
    ...(s.inputModes ? { inputModes: [...s.inputModes] } : {}),
    ...(s.outputModes ? { outputModes: [...s.outputModes] } : {}),
  };
}

function modes(card: AgentCardInput): {
  defaultInputModes: string[];
  defaultOutputModes: string[];
} {
  return {
    defaultInputModes: [...nonEmpty(card.defaultInputModes, DEFAULT_INPUT_MODES)],
    defaultOutputModes: [...nonEmpty(card.defaultOutputModes, DEFAULT_OUTPUT_MODES)],
  };
}

function nonEmpty(
  list: readonly string[] | undefined,
  fallback: readonly string[]
): readonly string[] {
  return list !== undefined && list.length > 0 ? list : fallback;
}

function links(card: AgentCardInput): { documentationUrl?: string; iconUrl?: string } {
  return {
    ...(card.documentationUrl !== undefined ? { documentationUrl: card.documentationUrl } : {}),
    ...(card.iconUrl !== undefined ? { iconUrl: card.iconUrl } : {}),
  };
}
