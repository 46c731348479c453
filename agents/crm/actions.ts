// The CRM's JSON actions. Tenant and sender come from the verified envelope (req.tenantId,
// req.senderId) only; the schemas below declare no such field, so a caller's claim is dropped.
import { z } from 'zod';
import { action, fail, type Actions, type AgentContext, type AgentRequest } from '../kit/index.js';
import {
  entityCard,
  entityJson,
  filterText,
  interactionJson,
  interactionLine,
  label,
  linkJson,
  metadataLines,
  ref,
} from './render.js';
import { inTransaction } from '../../infra/db/index.js';
import * as store from './store.js';
import type { Entity } from './store.js';
import {
  normalizeKey,
  normalizeType,
  parseDate,
  parseDateTime,
  plainValue,
  showValue,
  typeFilter,
  typeMetaValue,
  type MetaFilter,
  type TypedValue,
} from './values.js';

const Scalar = z.union([z.string(), z.number(), z.boolean()], {
  error: (iss) =>
    iss.input === undefined ? 'a value is required' : 'must be a string, number or boolean',
});
const ScalarOrNull = z.union([z.string(), z.number(), z.boolean(), z.null()], {
  error: (iss) =>
    iss.input === undefined
      ? 'a value is required (null removes the key)'
      : 'must be a string, number, boolean or null',
});
const Ref = z.string().trim().min(1).max(300);
const TypeName = z.string().trim().min(1).max(40);

/** How many entities with a stale vector one search re-embeds before ranking. */
const REEMBED_BATCH = 500;

function entityType(raw: string, field: string): string {
  const t = normalizeType(raw);
  if (!t)
    fail(
      `\`${field}\`: "${raw}" is not a type; use person, organisation, product, deal or a word of your own`
    );
  return t;
}

/**
 * The entity `value` names: a crm_ent_ id, or a name (ignoring case), narrowed by `type` when
 * several types share the name. Ids of other tenants are unknown, exactly like ids that never existed.
 */
export async function resolveEntity(
  ctx: AgentContext,
  req: AgentRequest,
  value: string,
  field: string,
  type?: string
): Promise<Entity> {
  if (value.startsWith('crm_ent_')) {
    const e = store.ENTITY_ID.test(value)
      ? await store.entityById(ctx.sql, req.tenantId, value)
      : undefined;
    if (!e) fail(`\`${field}\`: unknown entity ${value}; no entity has that id in your CRM`);
    return e;
  }
  const found = await store.entitiesByName(ctx.sql, req.tenantId, value, type);
  if (found.length === 0) {
    const t = type ? ` ${type}` : '';
    fail(
      `\`${field}\`: unknown entity "${value}"; no${t} entity has that name in your CRM (entity:search finds by meaning)`
    );
  }
  if (found.length > 1) {
    fail(
      `\`${field}\`: "${value}" names ${found.length} entities (${found.map(label).join('; ')}); give the id or a type`
    );
  }
  return found[0]!;
}

function embedText(name: string, description: string): string {
  return description ? `${name}. ${description}` : name;
}

async function embedOne(ctx: AgentContext, text: string) {
  const [vector] = await ctx.embedder.embed([text], ctx.signal);
  return { vector: vector!, embedderId: ctx.embedder.id };
}

/** Metadata keys and values from the caller, typed, or a failure naming the key. */
function typedMetadata(metadata: Record<string, string | number | boolean | null>, field: string) {
  const sets: Array<{ key: string; value: TypedValue }> = [];
  const removes: string[] = [];
  for (const [rawKey, raw] of Object.entries(metadata)) {
    const key = normalizeKey(rawKey);
    if (!key) fail(`\`${field}.${rawKey}\`: a metadata key is a letter then letters, digits or _`);
    if (raw === null) {
      removes.push(key);
      continue;
    }
    const typed = typeMetaValue(key, raw);
    if (!typed.ok) fail(`\`${field}.${rawKey}\`: ${typed.error}`);
    sets.push({ key, value: typed.value });
  }
  return { sets, removes };
}

const UpsertInput = z.object({
  id: Ref.optional(),
  type: TypeName.optional(),
  name: z.string().trim().min(1).max(300).optional(),
  description: z.string().trim().max(5000).optional(),
  metadata: z.record(z.string(), ScalarOrNull).optional(),
});

async function upsert(input: z.output<typeof UpsertInput>, req: AgentRequest, ctx: AgentContext) {
  const type = input.type === undefined ? undefined : entityType(input.type, 'type');
  const meta = typedMetadata(input.metadata ?? {}, 'metadata');
  let existing: Entity | undefined;
  if (input.id !== undefined) {
    existing = await resolveEntity(ctx, req, input.id, 'id');
  } else {
    if (type === undefined) {
      fail(
        'entity:upsert: `type` is required (person, organisation, product, deal or your own) unless you give the `id` of an entity'
      );
    }
    if (input.name === undefined)
      fail('entity:upsert: `name` is required unless you give the `id` of an entity');
    existing = (await store.entitiesByName(ctx.sql, req.tenantId, input.name, type))[0];
  }
  const next = {
    type: type ?? existing!.type,
    name: input.name ?? existing!.name,
    description: input.description ?? existing?.description ?? '',
  };
  const textChanged =
    !existing ||
    existing.name !== next.name ||
    existing.description !== next.description ||
    existing.embedderId !== ctx.embedder.id;
  const embedding = textChanged
    ? await embedOne(ctx, embedText(next.name, next.description))
    : undefined;

  // The entity and its metadata are written together or not at all.
  const { entity, created, metadata } = await inTransaction(ctx.sql, async (tx) => {
    let entity: Entity;
    let created = false;
    if (existing) {
      // Same natural key (or the entity named by id): only a rename can collide with another one.
      const updated = await store.updateEntity(tx, req.tenantId, existing.id, req.senderId, {
        ...next,
        embedding,
      });
      if (!updated) {
        fail(
          `entity:upsert: another ${next.type} is already named "${next.name}"; pick another \`name\` or \`type\``
        );
      }
      entity = updated;
    } else {
      const r = await store.insertEntity(tx, req.tenantId, req.senderId, {
        ...next,
        embedding: embedding ?? (await embedOne(ctx, embedText(next.name, next.description))),
      });
      entity = r.entity;
      created = r.created;
    }
    for (const s of meta.sets)
      await store.setMeta(tx, req.tenantId, entity.id, s.key, s.value, req.senderId);
    for (const k of meta.removes) await store.deleteMeta(tx, req.tenantId, entity.id, k);
    const metadata = (await store.metadataOf(tx, req.tenantId, [entity.id])).get(entity.id);
    return { entity, created, metadata };
  });
  const lines = [`✅ ${created ? 'Created' : 'Updated'} ${label(entity)}`];
  if (entity.description) lines.push(`📝 ${entity.description}`);
  const ml = metadataLines(metadata);
  if (ml.length > 0) lines.push('🏷️ Metadata', ...ml);
  return { text: lines.join('\n'), data: { created, entity: entityJson(entity, metadata) } };
}

const GetInput = z.object({
  entity: Ref.optional(),
  id: Ref.optional(),
  type: TypeName.optional(),
  interactions_limit: z.number().int().min(0).max(200).optional(),
});

async function get(input: z.output<typeof GetInput>, req: AgentRequest, ctx: AgentContext) {
  const value = input.entity ?? input.id;
  if (value === undefined)
    fail('entity:get: `entity` is required (an id like crm_ent_… or a name)');
  const field = input.entity !== undefined ? 'entity' : 'id';
  const type = input.type === undefined ? undefined : entityType(input.type, 'type');
  const e = await resolveEntity(ctx, req, value, field, type);
  const [metadata, links, interactions] = await Promise.all([
    store.metadataOf(ctx.sql, req.tenantId, [e.id]).then((m) => m.get(e.id)),
    store.linksOf(ctx.sql, req.tenantId, e.id),
    store.interactionsOf(ctx.sql, req.tenantId, e.id, input.interactions_limit ?? 20),
  ]);
  return {
    text: entityCard(e, metadata, links, interactions),
    data: {
      entity: {
        ...entityJson(e, metadata),
        links: links.map(linkJson),
        interactions: interactions.items.map(interactionJson),
        interactions_total: interactions.total,
      },
    },
  };
}

const SearchInput = z.object({
  query: z.string().trim().min(1).max(2000),
  type: TypeName.optional(),
  limit: z.number().int().min(1).max(100).optional(),
});

async function search(input: z.output<typeof SearchInput>, req: AgentRequest, ctx: AgentContext) {
  const type = input.type === undefined ? undefined : entityType(input.type, 'type');
  // Vectors from another embedder are not comparable: bring them into this one's space first.
  const stale = await store.staleEntities(ctx.sql, req.tenantId, ctx.embedder.id, REEMBED_BATCH);
  if (stale.length > 0) {
    const vectors = await ctx.embedder.embed(
      stale.map((e) => embedText(e.name, e.description)),
      ctx.signal
    );
    for (const [i, e] of stale.entries()) {
      await store.setEmbedding(ctx.sql, req.tenantId, e.id, vectors[i]!, ctx.embedder.id);
    }
  }
  const q = await embedOne(ctx, input.query);
  const found = await store.searchEntities(
    ctx.sql,
    req.tenantId,
    q.vector,
    q.embedderId,
    type,
    input.limit ?? 10
  );
  const metadata = await store.metadataOf(
    ctx.sql,
    req.tenantId,
    found.map((e) => e.id)
  );
  const results = found.map((e) => ({
    ...entityJson(e, metadata.get(e.id)),
    score: Math.round(e.score * 1000) / 1000,
  }));
  const what = type ? `${type} entities` : 'entities';
  const text =
    found.length === 0
      ? `🔍 No ${what} match "${input.query}".`
      : [
          `🔍 ${found.length} ${what} for "${input.query}" (best first)`,
          ...found.map((e, i) => {
            const desc = e.description ? ` — ${e.description.slice(0, 120)}` : '';
            return `${i + 1}. ${label(e)} · ${Math.round(e.score * 100)}%${desc}`;
          }),
        ].join('\n');
  return { text, data: { query: input.query, type: type ?? null, results } };
}

const LinkInput = z.object({
  from: Ref,
  to: Ref,
  relation: z.string().trim().min(1).max(64),
  from_type: TypeName.optional(),
  to_type: TypeName.optional(),
  /** When `to` names no entity: create it with `to_type` (natural-language "works at …" uses it). */
  create_missing: z.boolean().optional(),
});

async function link(input: z.output<typeof LinkInput>, req: AgentRequest, ctx: AgentContext) {
  const relation = normalizeKey(input.relation);
  if (!relation)
    fail(
      'link:create: `relation` is a word like works_at, purchased, competes_with (letters, digits, _)'
    );
  const fromType =
    input.from_type === undefined ? undefined : entityType(input.from_type, 'from_type');
  const toType = input.to_type === undefined ? undefined : entityType(input.to_type, 'to_type');
  const from = await resolveEntity(ctx, req, input.from, 'from', fromType);
  let to: Entity;
  if (input.create_missing && !input.to.startsWith('crm_ent_')) {
    const named = await store.entitiesByName(ctx.sql, req.tenantId, input.to, toType);
    if (named.length === 0) {
      if (!toType) fail('link:create: `to_type` is required with `create_missing`');
      const made = await upsert({ type: toType, name: input.to }, req, ctx);
      to = (await store.entityById(ctx.sql, req.tenantId, made.data.entity.id))!;
    } else {
      to = await resolveEntity(ctx, req, input.to, 'to', toType);
    }
  } else {
    to = await resolveEntity(ctx, req, input.to, 'to', toType);
  }
  if (from.id === to.id)
    fail('link:create: `from` and `to` are the same entity; a link joins two entities');
  const l = await store.createLink(ctx.sql, req.tenantId, from.id, to.id, relation, req.senderId);
  const verb = l.created ? '✅ Linked' : '☑️ Already linked';
  return {
    text: `${verb}: ${label(from)} —${relation}→ ${label(to)}`,
    data: { link: { id: l.id, relation, from: ref(from), to: ref(to), created: l.created } },
  };
}

const InteractionInput = z.object({
  entity: Ref,
  type: TypeName.optional(),
  kind: z.enum(['email', 'call', 'meeting', 'note']),
  text: z.string().trim().min(1).max(20_000).optional(),
  summary: z.string().trim().min(1).max(20_000).optional(),
  occurred_at: z.string().trim().optional(),
});

async function logInteraction(
  input: z.output<typeof InteractionInput>,
  req: AgentRequest,
  ctx: AgentContext
) {
  const text = input.text ?? input.summary;
  if (text === undefined)
    fail('interaction:log: `text` is required (what happened; `summary` works too)');
  let occurredAt = new Date(ctx.now());
  if (input.occurred_at !== undefined) {
    const iso =
      parseDateTime(input.occurred_at) ??
      (parseDate(input.occurred_at) ? `${input.occurred_at}T00:00:00.000Z` : undefined);
    if (!iso)
      fail(
        'interaction:log: `occurred_at` must be an ISO 8601 date-time with a zone (2026-05-01T14:00:00Z) or a date'
      );
    occurredAt = new Date(iso);
  }
  const type = input.type === undefined ? undefined : entityType(input.type, 'type');
  const e = await resolveEntity(ctx, req, input.entity, 'entity', type);
  const i = await store.logInteraction(
    ctx.sql,
    req.tenantId,
    e.id,
    input.kind,
    text,
    occurredAt,
    req.senderId
  );
  return {
    text: interactionLine(e, i),
    data: { interaction: { ...interactionJson(i), entity: ref(e) } },
  };
}

const MetaSetInput = z.object({
  entity: Ref,
  type: TypeName.optional(),
  key: z.string().trim().min(1).max(64),
  value: ScalarOrNull,
});

async function metaSet(input: z.output<typeof MetaSetInput>, req: AgentRequest, ctx: AgentContext) {
  const key = normalizeKey(input.key);
  if (!key) fail('meta:set: `key` is a letter then letters, digits or _ (e.g. close_date)');
  let typed: TypedValue | undefined;
  if (input.value !== null) {
    const t = typeMetaValue(key, input.value);
    if (!t.ok) fail(`meta:set: \`value\`: ${t.error}`);
    typed = t.value;
  }
  const type = input.type === undefined ? undefined : entityType(input.type, 'type');
  const e = await resolveEntity(ctx, req, input.entity, 'entity', type);
  if (typed === undefined) {
    const removed = await store.deleteMeta(ctx.sql, req.tenantId, e.id, key);
    return {
      text: removed ? `🗑️ Removed ${key} from ${label(e)}` : `☑️ ${label(e)} has no ${key}`,
      data: { entity: ref(e), key, value: null, kind: null, removed },
    };
  }
  await store.setMeta(ctx.sql, req.tenantId, e.id, key, typed, req.senderId);
  return {
    text: `✅ ${label(e)}: ${key} = ${showValue(key, typed)} (${typed.kind})`,
    data: { entity: ref(e), key, value: plainValue(typed), kind: typed.kind },
  };
}

const MetaSearchInput = z.object({
  type: TypeName,
  filters: z
    .array(
      z.object({
        key: z.string().trim().min(1).max(64),
        op: z.string().trim().min(1),
        value: Scalar,
      })
    )
    .max(20)
    .default([]),
  limit: z.number().int().min(1).max(500).optional(),
});

async function metaSearch(
  input: z.output<typeof MetaSearchInput>,
  req: AgentRequest,
  ctx: AgentContext
) {
  const type = entityType(input.type, 'type');
  const filters: MetaFilter[] = [];
  for (const [i, f] of input.filters.entries()) {
    const key = normalizeKey(f.key);
    const stored = key
      ? await store.storedClasses(ctx.sql, req.tenantId, type, key)
      : new Set<never>();
    const typed = typeFilter(f, `filters[${i}]`, stored);
    if (!typed.ok) fail(`meta:search: \`${typed.error.replace(/^(\S+?):/, '$1`:')}`);
    filters.push(typed.value);
  }
  const found = await store.metaSearch(ctx.sql, req.tenantId, type, filters, input.limit ?? 100);
  const metadata = await store.metadataOf(
    ctx.sql,
    req.tenantId,
    found.map((e) => e.id)
  );
  const cond = filters.length > 0 ? ` where ${filters.map(filterText).join(' and ')}` : '';
  const text =
    found.length === 0
      ? `🔎 No ${type} entities${cond}.`
      : [
          `🔎 ${found.length} ${type} ${found.length === 1 ? 'entity' : 'entities'}${cond}`,
          ...found.map((e) => {
            const m = metadata.get(e.id) ?? {};
            const shown = filters.map((f) => {
              const v = m[f.key];
              return `${f.key}: ${v ? showValue(f.key, v) : '?'}`;
            });
            return `• ${label(e)}${shown.length > 0 ? ` · ${[...new Set(shown)].join(', ')}` : ''}`;
          }),
        ].join('\n');
  return {
    text,
    data: {
      type,
      filters: filters.map((f) => ({ key: f.key, op: f.op, value: f.value })),
      results: found.map((e) => entityJson(e, metadata.get(e.id))),
    },
  };
}

export const actions: Actions = {
  'entity:upsert': action({
    summary:
      'create or update an entity: type, name, description?, metadata? {key: value}; or id plus the fields to change',
    input: UpsertInput,
    run: upsert,
  }),
  'entity:get': action({
    summary: 'one entity with its metadata, links and interactions: entity (id or name), type?',
    input: GetInput,
    run: get,
  }),
  'entity:search': action({
    summary: 'entities by meaning of name and description: query, type?, limit?',
    input: SearchInput,
    run: search,
  }),
  'link:create': action({
    summary:
      'link two entities: from, to, relation (works_at, purchased, competes_with or your own)',
    input: LinkInput,
    run: link,
  }),
  'interaction:log': action({
    summary: 'log an email, call, meeting or note: entity, kind, text, occurred_at?',
    input: InteractionInput,
    run: logInteraction,
  }),
  'meta:set': action({
    summary: 'set one typed metadata value (null removes it): entity, key, value',
    input: MetaSetInput,
    run: metaSet,
  }),
  'meta:search': action({
    summary:
      'entities of a type whose metadata match: type, filters [{key, op (eq, gt, gte, lt, lte), value}]',
    input: MetaSearchInput,
    run: metaSearch,
  }),
};
