// GET and PATCH /api/agents/:agentId: an agent's settings (interface-spec "Agent settings";
// decisions.md §6 REST errors). Only the agent's own key or an admin key of its tenant may see or
// change them; everyone else gets the 404 an unknown agent gets, so existence never leaks.
import {
  AgentLimits,
  getAgent,
  updateAgentSettings,
  validateAlias,
  type AgentRecord,
  type AgentSettingsPatch,
  type Principal,
  type Queryable,
} from '../../infra/db/index.js';
import { z } from 'zod';
import { HubError, InvalidParamsError, isHubError } from '../../runtime/errors/index.js';
import { AgentCardInput, parseParams } from '../../runtime/protocol/index.js';
import type { Authenticator } from '../auth/index.js';
import {
  checkBody,
  decodeParam,
  jsonObjectBody,
  jsonReply,
  type RouteRequest,
} from '../http/index.js';
import type { AgentDirectory } from '../../actors/index.js';
import type { RouteRegistrar } from '../routes/index.js';
import { manageDocs as docs } from '../manage/route-docs.js';

/**
 * One PATCH field: validates its wire value (throwing InvalidParamsError naming the field) and
 * returns its part of the patch. May be async (issue 5's geocoded `location:` tags).
 */
export type SettingsField = (
  value: unknown
) => Partial<AgentSettingsPatch> | Promise<Partial<AgentSettingsPatch>>;

function intField(name: string, min: number, max: number): (value: unknown) => number {
  return (value) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw new InvalidParamsError(name, `must be an integer from ${min} to ${max}`, {
        min,
        max,
      });
    }
    return value;
  };
}

const maxPending = intField(
  'queue_max_pending',
  AgentLimits.queueMaxPending.min,
  AgentLimits.queueMaxPending.max
);
const ttlSeconds = intField(
  'queue_ttl_seconds',
  AgentLimits.queueTtlSeconds.min,
  AgentLimits.queueTtlSeconds.max
);

/**
 * The offline-queue settings (issue 4). The directory's fields (`tags` with geocoded locations,
 * `visibility`, `category`, `description`: gateway/discover) are added by the composition root,
 * which passes `{ ...queueSettingsFields, ...directorySettingsFields(geocoder) }` as `fields`.
 */
export const queueSettingsFields: Readonly<Record<string, SettingsField>> = Object.freeze({
  queue_max_pending: (v: unknown) => ({ queueMaxPending: maxPending(v) }),
  queue_ttl_seconds: (v: unknown) => ({ queueTtlSeconds: ttlSeconds(v) }),
});

const CardPatch = z.object({ card: AgentCardInput });

/**
 * `card`: the agent's card, checked as update_card checks it and stored with the defaults of a
 * partial card filled in (decisions.md §11); errors name `card.<field>`.
 */
export const cardSettingsField: SettingsField = (value) => ({
  card: parseParams(CardPatch, { card: value }).card,
});

/**
 * `alias` (null removes it) and `emailEnabled` (issue 28): a renamed alias keeps receiving mail at
 * its old address for 30 days (postie's address history), then that address bounces.
 */
export const identitySettingsFields: Readonly<Record<string, SettingsField>> = Object.freeze({
  alias: (v: unknown) => ({ alias: v === null ? null : validateAlias(v) }),
  emailEnabled: (v: unknown) => {
    if (typeof v !== 'boolean')
      throw new InvalidParamsError('emailEnabled', 'must be true or false');
    return { emailEnabled: v };
  },
});

export interface AgentSettingsRoutesDeps {
  readonly sql: Queryable;
  readonly auth: Pick<Authenticator, 'authenticate'>;
  readonly directory: Pick<AgentDirectory, 'announce'>;
  /** PATCH fields by wire name; default queueSettingsFields. */
  readonly fields?: Readonly<Record<string, SettingsField>>;
}

/** The settings as GET and PATCH answer them (snake_case, as the spec names them). */
export interface AgentSettingsView {
  agentId: string;
  alias: string | null;
  emailEnabled: boolean;
  queue_max_pending: number;
  queue_ttl_seconds: number;
  visibility: string;
  category: string | null;
  tags: string[];
  /** Set here; discovery records fall back to the card's links when null. */
  websiteUrl: string | null;
  docsUrl: string | null;
}

export function settingsView(agent: AgentRecord): AgentSettingsView {
  return {
    agentId: agent.id,
    alias: agent.alias,
    emailEnabled: agent.emailEnabled,
    queue_max_pending: agent.queueMaxPending,
    queue_ttl_seconds: agent.queueTtlSeconds,
    visibility: agent.visibility,
    category: agent.category,
    tags: agent.tags,
    websiteUrl: agent.websiteUrl,
    docsUrl: agent.docsUrl,
  };
}

const PATTERN = '/api/agents/:agentId';

export function agentSettingsRoutes(d: AgentSettingsRoutesDeps): RouteRegistrar {
  // Every agent may send its card (decisions.md §11), whatever settings the composition adds.
  const fields = {
    card: cardSettingsField,
    ...identitySettingsFields,
    ...(d.fields ?? queueSettingsFields),
  };

  /** The agent, if the caller may manage it; NOT_FOUND otherwise, exactly as for a missing one. */
  const managed = async (req: RouteRequest): Promise<AgentRecord> => {
    const principal = await d.auth.authenticate(req.headers.authorization, req.scope);
    const agentId = decodeParam(req.params.agentId ?? '');
    const agent = await getAgent(d.sql, agentId);
    if (agent === null || !mayManage(principal, agent)) {
      throw new HubError('NOT_FOUND', `No agent ${agentId}`);
    }
    return agent;
  };

  return (table) => {
    table.add({
      method: 'GET',
      pattern: PATTERN,
      doc: docs.getSettings,
      handler: async (req) => jsonReply(200, settingsView(await managed(req))),
    });
    table.add({
      method: 'PATCH',
      pattern: PATTERN,
      doc: docs.patchSettings,
      body: true,
      handler: async (req) => {
        const agent = await managed(req);
        const patch = await parsePatch(await req.body, fields);
        if (Object.keys(patch).length === 0) return jsonReply(200, settingsView(agent));
        let updated: AgentRecord;
        try {
          updated = await updateAgentSettings(d.sql, agent.id, patch);
        } catch (err) {
          // Deleted between the check and the update: the same answer as any unknown agent.
          if (isHubError(err) && err.code === 'AGENT_NOT_FOUND') {
            throw new HubError('NOT_FOUND', `No agent ${agent.id}`);
          }
          throw err;
        }
        // Every node drops its cached copy, so the queue's limits use the new values at once.
        d.directory.announce(agent.id);
        return jsonReply(200, settingsView(updated));
      },
    });
  };
}

function mayManage(p: Principal, agent: AgentRecord): boolean {
  return p.kind === 'agent' ? p.agentId === agent.id : p.tenantId === agent.tenantId;
}

/** The whole body is checked before anything is saved: one bad field and nothing changes. */
async function parsePatch(
  body: Buffer,
  fields: Readonly<Record<string, SettingsField>>
): Promise<AgentSettingsPatch> {
  // The published schema first (types, ranges, unknown names); then each field reads what was
  // sent (geocoding, alias rules, a card's defaults), not the schema's output.
  const input = jsonObjectBody(body, { emptyIsObject: false });
  checkBody(docs.patchSettings.body, input);
  // A field the document has but this hub's composition does not set (no directory fields).
  const unknown = Object.keys(input).filter((k) => !Object.hasOwn(fields, k));
  if (unknown.length > 0) {
    throw new InvalidParamsError(
      unknown[0] as string,
      `unknown setting${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; ` +
        `settable: ${Object.keys(fields).join(', ')}`,
      { unknown }
    );
  }
  let patch: AgentSettingsPatch = {};
  for (const [name, raw] of Object.entries(input)) {
    const parse = fields[name] as SettingsField;
    patch = { ...patch, ...(await parse(raw)) };
  }
  return patch;
}
