// The hub's own tenant and its first-party agents (interface-spec "Official agents"). Every node
// seeds the agents it runs at start; the upsert is idempotent and safe when nodes start together.
import { InvalidParamsError } from '../../../runtime/errors/index.js';
import { AgentLimits, validateAlias, validateTags } from './agents.repo.js';
import { OFFICIAL_TENANT } from './official-tenant.js';
import { inTransaction, jsonText, type Queryable } from './sql.js';
import { optionalText, requiredText } from './validate.js';

/** Alias → canonical id, the whole table of interface-spec "Official agents". */
export const OFFICIAL_ALIASES = {
  echo: 'agent-echo-official',
  search: 'agent-search-official',
  memory: 'agent-memory-official',
  webfetch: 'agent-webfetch-official',
  trials: 'agent-trials-official',
  crm: 'agent-crm-official',
  patents: 'agent-patents-official',
  fda: 'agent-fda',
  epa: 'agent-epa',
  news: 'agent-news',
  reddit: 'agent-reddit',
  companies: 'agent-companies',
  trade: 'agent-trade',
  research: 'agent-research',
  'research-grants': 'agent-research-grants',
  'sec-filings': 'agent-sec-filings',
  lobbying: 'agent-lobbying',
  usaspending: 'agent-usaspending',
  'congress-trades': 'agent-congress-trades',
  'insider-trades': 'agent-insider-trades',
  'rfp-hunter': 'agent-rfp-hunter',
  kanban: 'agent-kanban-official',
  postie: 'agent-postie-official',
  pixel: 'agent-pixel-official',
  concierge: 'agent-concierge-official',
} as const satisfies Record<string, string>;

export type OfficialAlias = keyof typeof OFFICIAL_ALIASES;

export interface OfficialAgentDef {
  /** The canonical id, e.g. agent-echo-official. */
  id: string;
  /** Its alias; must match OFFICIAL_ALIASES when the alias is listed there. */
  alias?: string | null;
  name: string;
  description: string;
  category?: string | null;
  tags?: string[];
  card?: unknown;
}

/** Serializes seeding across nodes ("burrow-o" in ASCII); fixed forever, like the migration lock. */
export const OFFICIAL_SEED_LOCK_KEY = 0x627572726f772d6fn;

const OFFICIAL_ID = /^agent-[a-z0-9-]{1,64}$/;

/**
 * Create the official tenant if missing and upsert these agents into it (transport 'official',
 * visibility 'public'), in one transaction. Rows that already match are left untouched; queue
 * settings chosen by an operator are kept. Resolves with the number of agents inserted or changed.
 */
export async function upsertOfficialAgents(
  sql: Queryable,
  defs: readonly OfficialAgentDef[]
): Promise<number> {
  const rows = defs.map(normalizeDef).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return inTransaction(sql, async (tx) => {
    // ON CONFLICT alone handles two nodes inserting the same rows, but not an alias that moved
    // from one id to another in the same release; one lock per seed keeps every case simple.
    await tx`select pg_advisory_xact_lock(${OFFICIAL_SEED_LOCK_KEY.toString()}::bigint)`;
    await tx`
      insert into tenants (id, name, slug, verified)
      values (${OFFICIAL_TENANT.id}, ${OFFICIAL_TENANT.name}, ${OFFICIAL_TENANT.slug}, true)
      on conflict (id) do nothing`;
    const aliased = rows.filter((r): r is OfficialRow & { alias: string } => r.alias !== null);
    if (aliased.length > 0) {
      // An alias given to another official agent (or swapped between two) is first released by
      // its current holder, so the upserts below never meet the (tenant_id, alias) index.
      const ids = aliased.map((r) => r.id);
      const aliases = aliased.map((r) => r.alias);
      await tx`
        update agents set alias = null, updated_at = now()
        where tenant_id = ${OFFICIAL_TENANT.id}
          and alias = any(${tx.array(aliases)}::text[])
          and (id, alias) not in (
            select * from unnest(${tx.array(ids)}::text[], ${tx.array(aliases)}::text[]))`;
    }
    let changed = 0;
    for (const r of rows) {
      const result = await tx`
        insert into agents (id, tenant_id, name, description, alias, transport, visibility,
          category, tags, card)
        values (${r.id}, ${OFFICIAL_TENANT.id}, ${r.name}, ${r.description}, ${r.alias},
          'official', 'public', ${r.category}, ${r.tags}::text::jsonb, ${r.card}::text::jsonb)
        on conflict (id) do update set
          name = excluded.name, description = excluded.description, alias = excluded.alias,
          transport = excluded.transport, visibility = excluded.visibility,
          category = excluded.category, tags = excluded.tags, card = excluded.card,
          url = null, webhook_secret = null, deleted_at = null, updated_at = now()
        where agents.tenant_id = excluded.tenant_id
          and (agents.name, agents.description, agents.alias, agents.transport, agents.visibility,
               agents.category, agents.tags, agents.card, agents.url, agents.deleted_at)
            is distinct from
              (excluded.name, excluded.description, excluded.alias, excluded.transport,
               excluded.visibility, excluded.category, excluded.tags, excluded.card, null, null)`;
      changed += result.count;
    }
    return changed;
  });
}

interface OfficialRow {
  id: string;
  alias: string | null;
  name: string;
  description: string;
  category: string | null;
  /** JSON text, cast to jsonb by the statement. */
  tags: string;
  card: string | null;
}

function normalizeDef(def: OfficialAgentDef): OfficialRow {
  if (!OFFICIAL_ID.test(def.id)) {
    throw new InvalidParamsError(
      'id',
      `official agent id ${JSON.stringify(def.id)} is not agent-<name>`
    );
  }
  const alias = def.alias === undefined || def.alias === null ? null : validateAlias(def.alias);
  const listed = alias === null ? undefined : (OFFICIAL_ALIASES as Record<string, string>)[alias];
  if (listed !== undefined && listed !== def.id) {
    throw new InvalidParamsError('alias', `alias ${alias} belongs to ${listed}, not ${def.id}`);
  }
  const category =
    def.category === undefined || def.category === null
      ? null
      : optionalText('category', def.category, AgentLimits.maxCategory) || null;
  if (
    def.card !== undefined &&
    def.card !== null &&
    (typeof def.card !== 'object' || Array.isArray(def.card))
  ) {
    throw new InvalidParamsError('card', 'the agent card must be a JSON object');
  }
  return {
    id: def.id,
    alias,
    name: requiredText('name', def.name, AgentLimits.maxName),
    description: optionalText('description', def.description, AgentLimits.maxDescription),
    category,
    tags: jsonText(validateTags(def.tags ?? [])),
    card: def.card === undefined || def.card === null ? null : jsonText(def.card),
  };
}
