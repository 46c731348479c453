// The agent card an agent registers (spec "Agent card"; decisions.md §1, §3): validated when an
// HTTP agent registers or a WebSocket agent sends update_card. Standard A2A cards pass too: a v1.0
// card names its endpoint in supportedInterfaces instead of `url`. Existing hub clients send cards
// without capabilities, modes or skills: those are filled in as the default card (decisions.md §11).
import { z } from 'zod';

const SEMVER = /^\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const MediaTypes = z.array(z.string().trim().min(1));
/** The default card's input and output modes (decisions.md §11). */
const DEFAULT_MODES = ['text/plain'] as const;

export const AgentSkillInput = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  description: z.string(),
  tags: z.array(z.string()),
  /** Required by the spec's table, optional in A2A; an absent list is an empty one. */
  examples: z.array(z.string()).default([]),
  inputModes: MediaTypes.optional(),
  outputModes: MediaTypes.optional(),
  /**
   * Listed only in the extended card (A2A GetExtendedAgentCard), which callers allowed to message
   * the agent get; the public cards leave the skill out.
   */
  extended: z.boolean().optional(),
});
export type AgentSkillInput = z.infer<typeof AgentSkillInput>;

const AgentInterfaceInput = z.object({
  url: z.url(),
  protocolBinding: z.string().min(1),
  protocolVersion: z.string().optional(),
});
export type AgentInterfaceInput = z.infer<typeof AgentInterfaceInput>;

export const AgentCardInput = z
  .object({
    /** Assigned by the hub on registration; ignored when an agent sends it. */
    id: z.string().optional(),
    name: z.string().trim().min(1),
    description: z.string(),
    url: z.url().optional(),
    version: z.string().regex(SEMVER, 'must be a semantic version such as 1.0.0'),
    provider: z.object({ organization: z.string().min(1), url: z.string().optional() }).optional(),
    // prefault, not default: the inner defaults still apply to an absent object.
    capabilities: z
      .object({
        streaming: z.boolean().default(false),
        pushNotifications: z.boolean().default(false),
      })
      .prefault({}),
    skills: z.array(AgentSkillInput).default(() => []),
    defaultInputModes: MediaTypes.default(() => [...DEFAULT_MODES]),
    defaultOutputModes: MediaTypes.default(() => [...DEFAULT_MODES]),
    documentationUrl: z.string().optional(),
    iconUrl: z.string().optional(),
    supportedInterfaces: z.array(AgentInterfaceInput).optional(),
    /** Ask the hub to sign the cards it serves for this agent (official agents' always are). */
    hubSigned: z.boolean().optional(),
    /** JWS signatures the agent put on its card (A2A card signing), verified at registration. */
    signatures: z
      .array(
        z.object({
          protected: z.string().min(1),
          signature: z.string().min(1),
          header: z.record(z.string(), z.unknown()).optional(),
        })
      )
      .optional(),
  })
  .transform((card, ctx) => {
    const seen = new Set<string>();
    card.skills.forEach((skill, i) => {
      if (seen.has(skill.id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['skills', i, 'id'],
          message: `duplicate skill id "${skill.id}"`,
        });
      }
      seen.add(skill.id);
    });
    const url = card.url ?? card.supportedInterfaces?.find(isJsonRpc)?.url;
    if (url === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['url'],
        message: 'is required (or a JSONRPC entry in supportedInterfaces)',
      });
      return z.NEVER;
    }
    return { ...card, url };
  });
export type AgentCardInput = z.infer<typeof AgentCardInput>;

function isJsonRpc(i: AgentInterfaceInput): boolean {
  return i.protocolBinding.toUpperCase() === 'JSONRPC';
}

/**
 * The A2A 1.0 JSON-RPC interface a card declares, if any: an HTTP agent with one is called in
 * standard A2A v1.0 instead of the hub dialect (decisions.md §3).
 */
export function v1Interface(card: AgentCardInput): AgentInterfaceInput | undefined {
  return card.supportedInterfaces?.find(
    (i) => isJsonRpc(i) && /^1\.0(\.|$)/.test(i.protocolVersion ?? '')
  );
}

/**
 * The card of an agent that registered none, or whose stored card no longer parses: the default
 * card of decisions.md §11. Its `url` is empty; the cards the hub serves point at the hub anyway.
 */
export function defaultCard(name: string, description: string): AgentCardInput {
  return {
    name,
    description,
    url: '',
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false },
    skills: [],
    defaultInputModes: [...DEFAULT_MODES],
    defaultOutputModes: [...DEFAULT_MODES],
  };
}
