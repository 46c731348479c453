// Registered agents: creation (with their first API key), look-up by id or alias, settings, card
// and soft delete (interface-spec "Agent settings"; decisions.md §5).
import { HubError, InvalidParamsError } from '../../../runtime/errors/index.js';
import { insertApiKey, revokeAgentKeys } from './api-keys.repo.js';
import { newAgentId, newWebhookSecret } from './keys.js';
import {
  pruneAgentLocations,
  replaceAgentLocations,
  type AgentLocationInput,
} from './locations.repo.js';
import { agentNotFound, tenantNotFound } from './not-found.js';
import { OFFICIAL_TENANT } from './official-tenant.js';
import {
  firstRow,
  inTransaction,
  isForeignKeyViolation,
  isUniqueViolation,
  jsonText,
  type Queryable,
} from './sql.js';
import { httpUrl, intInRange, oneOf, optionalText, requiredText } from './validate.js';

export const Transports = ['websocket', 'http', 'official'] as const;
export type Transport = (typeof Transports)[number];
export const Visibilities = ['private', 'public', 'unlisted'] as const;
export type Visibility = (typeof Visibilities)[number];

/** Limits of interface-spec "Limits" and of the agents table's checks. */
export const AgentLimits = {
  maxTags: 10,
  maxLocationTags: 3,
  maxTagLength: 200,
  maxName: 200,
  maxDescription: 4000,
  maxCategory: 100,
  /** websiteUrl and docsUrl. */
  maxLink: 2048,
  queueMaxPending: { min: 1, max: 100_000, default: 500 },
  queueTtlSeconds: { min: 1, max: 2_592_000, default: 2_592_000 },
} as const;

/** Aliases are short lowercase names; never `agent-…`, so an alias cannot shadow an agent id. */
const ALIAS = /^[a-z0-9][a-z0-9-]{0,62}$/;

export interface AgentRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly name: string;
  readonly description: string;
  readonly alias: string | null;
  readonly transport: Transport;
  readonly url: string | null;
  /** Presented by the hub to HTTP agents; null for other transports. */
  readonly webhookSecret: string | null;
  readonly visibility: Visibility;
  readonly category: string | null;
  readonly tags: string[];
  /** The agent card as registered (JSON), or null. */
  readonly card: unknown;
  readonly queueMaxPending: number;
  readonly queueTtlSeconds: number;
  /** Links the directory shows before the card's (issue 20); null: the card's, if any. */
  readonly websiteUrl: string | null;
  readonly docsUrl: string | null;
  /** Whether postie gives the agent an address: mail in and out (issue 28). */
  readonly emailEnabled: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface CreateAgentInput {
  tenantId: string;
  name: string;
  description?: string;
  /** An HTTP agent's endpoint; makes the transport 'http' unless `transport` says otherwise. */
  url?: string;
  visibility?: Visibility;
  category?: string;
  tags?: string[];
  card?: unknown;
  alias?: string;
  transport?: 'websocket' | 'http';
}

export interface CreatedAgent {
  readonly agent: AgentRecord;
  /** The agent's API key: shown once, only its hash is stored. */
  readonly apiKey: string;
  /** Present for HTTP agents: what the hub will send as `Authorization: Bearer <secret>`. */
  readonly webhookSecret?: string;
}

export interface AgentSettingsPatch {
  queueMaxPending?: number;
  queueTtlSeconds?: number;
  visibility?: Visibility;
  /** null clears the category. */
  category?: string | null;
  description?: string;
  tags?: string[];
  /**
   * The geocoded `location:` tags of `tags` (which must then be set too). Without it, setting
   * `tags` keeps the stored locations whose tag remains and drops the others.
   */
  locations?: AgentLocationInput[];
  /** An http(s) URL; null clears it (the directory then shows the card's). */
  websiteUrl?: string | null;
  docsUrl?: string | null;
  /** The agent card, already checked by the caller (a JSON object). */
  card?: object;
  /**
   * A new alias (null: none). postie retires the old address, which keeps delivering 30 days
   * (0012's triggers).
   */
  alias?: string | null;
  emailEnabled?: boolean;
}

/** Row as selected: the card travels as text (see AGENT_COLUMNS). */
type AgentRow = Omit<AgentRecord, 'card'> & { cardJson: string | null };

// `card::text`: the pool's camelCase transform also renames keys inside json/jsonb values, which
// would rewrite a card's own keys; text is left alone and parsed here.
const AGENT_COLUMNS = `id, tenant_id, name, description, alias, transport, url, webhook_secret,
  visibility, category, tags, card::text as card_json, queue_max_pending, queue_ttl_seconds,
  website_url, docs_url, email_enabled, created_at, updated_at`;

/**
 * Register an agent and issue its API key, in one transaction. HTTP agents (a `url`) also get a
 * webhook secret. Throws INVALID_PARAMS on bad input, NOT_FOUND for an unknown tenant, CONFLICT
 * when the alias is taken in the tenant.
 */
export async function createAgent(sql: Queryable, input: CreateAgentInput): Promise<CreatedAgent> {
  const name = requiredText('name', input.name, AgentLimits.maxName);
  const description = optionalText(
    'description',
    input.description ?? '',
    AgentLimits.maxDescription
  );
  const url = input.url === undefined ? null : httpUrl('url', input.url);
  const transport = oneOf('transport', input.transport ?? (url ? 'http' : 'websocket'), [
    'websocket',
    'http',
  ] as const);
  if (transport === 'http' && url === null) {
    throw new InvalidParamsError('url', 'an HTTP agent needs a url');
  }
  const visibility = oneOf('visibility', input.visibility ?? 'private', Visibilities);
  const category = normalizeCategory(input.category);
  const tags = validateTags(input.tags ?? []);
  const card = validateCard(input.card);
  const alias = input.alias === undefined ? null : validateAlias(input.alias);
  const webhookSecret = transport === 'http' ? newWebhookSecret() : null;

  try {
    return await inTransaction(sql, async (tx) => {
      const rows = await tx.unsafe<AgentRow[]>(
        `insert into agents (id, tenant_id, name, description, alias, transport, url,
           webhook_secret, visibility, category, tags, card)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::text::jsonb, $12::text::jsonb)
         returning ${AGENT_COLUMNS}`,
        [
          newAgentId(),
          input.tenantId,
          name,
          description,
          alias,
          transport,
          url,
          webhookSecret,
          visibility,
          category,
          jsonText(tags),
          card === undefined ? null : jsonText(card),
        ],
        { prepare: true }
      );
      const agent = toRecord(firstRow(rows, 'insert into agents'));
      const { key } = await insertApiKey(tx, { tenantId: agent.tenantId, agentId: agent.id });
      return webhookSecret === null
        ? { agent, apiKey: key }
        : { agent, apiKey: key, webhookSecret };
    });
  } catch (err) {
    if (isForeignKeyViolation(err, 'agents_tenant_id_fkey')) throw tenantNotFound(input.tenantId);
    if (isUniqueViolation(err, 'agents_tenant_id_alias_key')) {
      throw new HubError('CONFLICT', `alias "${alias}" is already used in this tenant`, {
        data: { field: 'alias' },
      });
    }
    throw err;
  }
}

/** The live agent with this id, or null (also when it was deleted). */
export async function getAgent(sql: Queryable, id: string): Promise<AgentRecord | null> {
  const [row] = await sql.unsafe<AgentRow[]>(
    `select ${AGENT_COLUMNS} from agents where id = $1 and deleted_at is null`,
    [id],
    { prepare: true }
  );
  return row ? toRecord(row) : null;
}

/**
 * The live agent named by `idOrAlias`: an agent id first; else an alias of the caller's own
 * tenant; else an alias of the official tenant (interface-spec "Official agents"). Another
 * tenant's aliases never match. Visibility is the caller's check, not this function's.
 */
export async function resolveAgent(
  sql: Queryable,
  idOrAlias: string,
  opts: { callerTenantId?: string } = {}
): Promise<AgentRecord | null> {
  const own = opts.callerTenantId ?? OFFICIAL_TENANT.id;
  const [row] = await sql.unsafe<AgentRow[]>(
    `select ${AGENT_COLUMNS} from agents
     where deleted_at is null
       and (id = $1 or (alias = $1 and tenant_id in ($2, $3)))
     order by (id = $1) desc, (tenant_id = $2) desc
     limit 1`,
    [idOrAlias, own, OFFICIAL_TENANT.id],
    { prepare: true }
  );
  return row ? toRecord(row) : null;
}

/** The tenant's live agents, oldest first. */
export async function listAgents(sql: Queryable, tenantId: string): Promise<AgentRecord[]> {
  const rows = await sql.unsafe<AgentRow[]>(
    `select ${AGENT_COLUMNS} from agents
     where tenant_id = $1 and deleted_at is null
     order by created_at, id`,
    [tenantId],
    { prepare: true }
  );
  return rows.map(toRecord);
}

/** Replace the agent's card. Throws AGENT_NOT_FOUND. */
export async function updateAgentCard(
  sql: Queryable,
  id: string,
  card: unknown
): Promise<AgentRecord> {
  const value = validateCard(card);
  const [row] = await sql.unsafe<AgentRow[]>(
    `update agents set card = $2::text::jsonb, updated_at = now()
     where id = $1 and deleted_at is null
     returning ${AGENT_COLUMNS}`,
    [id, value === undefined ? null : jsonText(value)],
    { prepare: true }
  );
  if (!row) throw agentNotFound(id);
  return toRecord(row);
}

/**
 * Apply the fields present in `patch` (interface-spec "Agent settings"). Throws INVALID_PARAMS
 * naming the field (spec names: queue_max_pending, queue_ttl_seconds, tags…), AGENT_NOT_FOUND.
 */
export async function updateAgentSettings(
  sql: Queryable,
  id: string,
  patch: AgentSettingsPatch
): Promise<AgentRecord> {
  const sets: string[] = [];
  const params: (string | number | null)[] = [id];
  const set = (column: string, value: string | number | null, cast = ''): void => {
    params.push(value);
    sets.push(`${column} = $${params.length}${cast}`);
  };
  const { queueMaxPending: qmp, queueTtlSeconds: ttl } = AgentLimits;
  if (patch.queueMaxPending !== undefined) {
    set(
      'queue_max_pending',
      intInRange('queue_max_pending', patch.queueMaxPending, qmp.min, qmp.max)
    );
  }
  if (patch.queueTtlSeconds !== undefined) {
    set(
      'queue_ttl_seconds',
      intInRange('queue_ttl_seconds', patch.queueTtlSeconds, ttl.min, ttl.max)
    );
  }
  if (patch.visibility !== undefined) {
    set('visibility', oneOf('visibility', patch.visibility, Visibilities));
  }
  if (patch.category !== undefined) set('category', normalizeCategory(patch.category));
  if (patch.description !== undefined) {
    set('description', optionalText('description', patch.description, AgentLimits.maxDescription));
  }
  if (patch.tags !== undefined) set('tags', jsonText(validateTags(patch.tags)), '::text::jsonb');
  if (patch.websiteUrl !== undefined)
    set('website_url', validateLink('websiteUrl', patch.websiteUrl));
  if (patch.docsUrl !== undefined) set('docs_url', validateLink('docsUrl', patch.docsUrl));
  if (patch.card !== undefined) {
    set('card', jsonText(validateCard(patch.card)), '::text::jsonb');
  }

  if (patch.alias !== undefined) {
    set('alias', patch.alias === null ? null : validateAlias(patch.alias));
  }
  if (patch.emailEnabled !== undefined) {
    if (typeof patch.emailEnabled !== 'boolean') {
      throw new InvalidParamsError('emailEnabled', 'must be true or false');
    }
    set('email_enabled', String(patch.emailEnabled), '::boolean');
  }

  if (patch.locations !== undefined && patch.tags === undefined) {
    throw new InvalidParamsError('tags', 'locations are set together with the tags');
  }

  if (sets.length === 0) {
    const agent = await getAgent(sql, id);
    if (!agent) throw agentNotFound(id);
    return agent;
  }
  // Column names are fixed strings above; every value is a parameter.
  const update = async (q: Queryable): Promise<AgentRecord> => {
    const [row] = await q.unsafe<AgentRow[]>(
      `update agents set ${sets.join(', ')}, updated_at = now()
       where id = $1 and deleted_at is null
       returning ${AGENT_COLUMNS}`,
      params,
      { prepare: true }
    );
    if (!row) throw agentNotFound(id);
    return toRecord(row);
  };
  try {
    if (patch.tags === undefined) return await update(sql);
    // Tags and their geocoded locations change together or not at all.
    return await inTransaction(sql, async (tx) => {
      const agent = await update(tx);
      if (patch.locations !== undefined) await replaceAgentLocations(tx, id, patch.locations);
      else await pruneAgentLocations(tx, id, agent.tags);
      return agent;
    });
  } catch (err) {
    if (isUniqueViolation(err, 'agents_tenant_id_alias_key')) {
      throw new HubError('CONFLICT', `alias "${patch.alias}" is already used in this tenant`, {
        data: { field: 'alias' },
      });
    }
    throw err;
  }
}

/**
 * Mark the agent deleted and revoke its keys. Its rows stay, so task history keeps resolving.
 * Resolves with the revoked key hashes (to broadcast), or null if no live agent had that id.
 */
export async function softDeleteAgent(
  sql: Queryable,
  id: string
): Promise<{ revokedKeyHashes: string[] } | null> {
  return inTransaction(sql, async (tx) => {
    const rows = await tx`
      update agents set deleted_at = now(), updated_at = now()
      where id = ${id} and deleted_at is null
      returning id`;
    if (rows.length === 0) return null;
    return { revokedKeyHashes: await revokeAgentKeys(tx, id) };
  });
}

/** Tags of interface-spec "Agent settings": at most 10 strings, at most 3 `location:` ones. */
export function validateTags(tags: unknown): string[] {
  if (!Array.isArray(tags)) throw new InvalidParamsError('tags', 'must be an array of strings');
  const out: string[] = [];
  for (const tag of tags as unknown[]) {
    if (typeof tag !== 'string' || tag.trim() === '') {
      throw new InvalidParamsError('tags', 'every tag must be a non-empty string');
    }
    const t = tag.trim();
    if (t.length > AgentLimits.maxTagLength) {
      throw new InvalidParamsError(
        'tags',
        `a tag is at most ${AgentLimits.maxTagLength} characters`
      );
    }
    if (!out.includes(t)) out.push(t);
  }
  if (out.length > AgentLimits.maxTags) {
    throw new InvalidParamsError('tags', `at most ${AgentLimits.maxTags} tags per agent`);
  }
  if (out.filter((t) => t.startsWith('location:')).length > AgentLimits.maxLocationTags) {
    throw new InvalidParamsError(
      'tags',
      `at most ${AgentLimits.maxLocationTags} location tags per agent`
    );
  }
  return out;
}

/** A valid alias (lowercase letters, digits and '-', not starting with `agent-`). */
export function validateAlias(alias: unknown): string {
  if (typeof alias !== 'string' || !ALIAS.test(alias) || alias.startsWith('agent-')) {
    throw new InvalidParamsError(
      'alias',
      "lowercase letters, digits and '-', at most 63, not starting with 'agent-'"
    );
  }
  return alias;
}

function normalizeCategory(category: string | null | undefined): string | null {
  if (category === undefined || category === null) return null;
  const c = optionalText('category', category, AgentLimits.maxCategory);
  return c === '' ? null : c;
}

/** A card must be a JSON object; undefined and null mean "no card". */
function validateCard(card: unknown): object | undefined {
  if (card === undefined || card === null) return undefined;
  if (typeof card !== 'object' || Array.isArray(card)) {
    throw new InvalidParamsError('card', 'the agent card must be a JSON object');
  }
  return card;
}

/** An agent's link as the 0016 check accepts it: an http(s) URL without spaces, or null. */
export function validateLink(field: string, value: unknown): string | null {
  if (value === null) return null;
  if (
    typeof value !== 'string' ||
    value.length > AgentLimits.maxLink ||
    !/^https?:\/\/\S+$/i.test(value)
  ) {
    throw new InvalidParamsError(
      field,
      `must be an http(s) URL of at most ${AgentLimits.maxLink} characters, or null`
    );
  }
  return value;
}

function toRecord(row: AgentRow): AgentRecord {
  const { cardJson, ...rest } = row;
  return { ...rest, card: cardJson === null ? null : (JSON.parse(cardJson) as unknown) };
}
