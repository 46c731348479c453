// The CRM's replies: text for people (symbols, one fact a line) and the JSON `data` forms.
import type { Entity, Interaction, LinkView, Metadata } from './store.js';
import { plainValue, showValue, type MetaFilter } from './values.js';

const TYPE_ICONS: Record<string, string> = {
  person: '👤',
  organisation: '🏢',
  product: '📦',
  deal: '💼',
};

const KIND_ICONS: Record<string, string> = { email: '✉️', call: '📞', meeting: '🤝', note: '🗒️' };

export function icon(type: string): string {
  return TYPE_ICONS[type] ?? '🔖';
}

/** "👤 Ada Lovelace (person, crm_ent_…)" */
export function label(e: { id: string; type: string; name: string }): string {
  return `${icon(e.type)} ${e.name} (${e.type}, ${e.id})`;
}

export function ref(e: { id: string; type: string; name: string }) {
  return { id: e.id, type: e.type, name: e.name };
}

export function metadataJson(m: Metadata | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(m ?? {})) out[k] = plainValue(v);
  return out;
}

export function metadataTypesJson(m: Metadata | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m ?? {})) out[k] = v.kind;
  return out;
}

export function entityJson(e: Entity, m: Metadata | undefined) {
  return {
    id: e.id,
    type: e.type,
    name: e.name,
    description: e.description,
    metadata: metadataJson(m),
    metadata_types: metadataTypesJson(m),
    created_by: e.createdBy,
    updated_by: e.updatedBy,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}

export function linkJson(l: LinkView) {
  return { id: l.id, relation: l.relation, direction: l.direction, entity: l.other };
}

export function interactionJson(i: Interaction) {
  return {
    id: i.id,
    kind: i.kind,
    text: i.text,
    occurred_at: i.occurredAt.toISOString(),
    created_by: i.createdBy,
  };
}

export function metadataLines(m: Metadata | undefined, indent = '  '): string[] {
  return Object.entries(m ?? {}).map(([k, v]) => `${indent}• ${k}: ${showValue(k, v)}`);
}

function when(d: Date): string {
  return d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}

export function entityCard(
  e: Entity,
  m: Metadata | undefined,
  links: readonly LinkView[],
  interactions: { items: readonly Interaction[]; total: number }
): string {
  const lines = [`${icon(e.type)} ${e.name} · ${e.type}`, `🆔 ${e.id}`];
  if (e.description) lines.push(`📝 ${e.description}`);
  const meta = metadataLines(m);
  if (meta.length > 0) lines.push('🏷️ Metadata', ...meta);
  if (links.length > 0) {
    lines.push('🔗 Links');
    for (const l of links) {
      const arrow = l.direction === 'out' ? `${l.relation} →` : `← ${l.relation}`;
      lines.push(`  • ${arrow} ${label(l.other)}`);
    }
  }
  if (interactions.total > 0) {
    const shown = interactions.items.length;
    const of =
      shown < interactions.total
        ? ` (newest ${shown} of ${interactions.total})`
        : ' (newest first)';
    lines.push(`🗂️ Interactions${of}`);
    for (const i of interactions.items) {
      lines.push(`  • ${when(i.occurredAt)} ${KIND_ICONS[i.kind] ?? '•'} ${i.kind}: ${i.text}`);
    }
  }
  lines.push(`🕒 updated ${when(e.updatedAt)} by ${e.updatedBy}`);
  return lines.join('\n');
}

export function interactionLine(e: Entity, i: Interaction): string {
  return `✅ Logged ${KIND_ICONS[i.kind] ?? ''} ${i.kind} with ${label(e)} at ${when(i.occurredAt)}\n💬 ${i.text}`;
}

export function filterText(f: MetaFilter): string {
  const ops = { eq: '=', gt: '>', gte: '≥', lt: '<', lte: '≤' } as const;
  const v =
    f.cls === 'time' && f.value.endsWith('T00:00:00.000Z') ? f.value.slice(0, 10) : String(f.value);
  return `${f.key} ${ops[f.op]} ${f.cls === 'string' ? JSON.stringify(v) : v}`;
}
