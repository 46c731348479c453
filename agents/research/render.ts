// Research replies as text for people: a profile with every dataset that contributed and how each
// name and link was joined, related entities with both links, and cross-dataset matches.
import { OFFICIAL_ALIASES } from '../../infra/db/index.js';
import type { Kind } from '../kit/public-data/index.js';
import type { Asked } from './fill.js';
import type { GraphNode } from './graph.js';
import type { Member, Profile, Relation, RelatedView } from './profile.js';

const ALIAS_OF = new Map<string, string>(
  Object.entries(OFFICIAL_ALIASES).map(([a, id]) => [id, a])
);

export function aliasOf(agentId: string): string {
  return ALIAS_OF.get(agentId) ?? agentId;
}

const PLURAL: Record<Kind, [string, string]> = {
  company: ['company', 'companies'],
  person: ['person', 'people'],
  award: ['award', 'awards'],
  filing: ['filing', 'filings'],
  patent: ['patent', 'patents'],
  trial: ['trial', 'trials'],
  lobbying_filing: ['lobbying filing', 'lobbying filings'],
  facility: ['facility', 'facilities'],
  product: ['product', 'products'],
};

export function kindWord(k: Kind, n = 1): string {
  return PLURAL[k][n === 1 ? 0 : 1];
}

/** How a relation reads from the profiled entity's side. */
const OUT: Record<string, string> = {
  sponsors: 'sponsors',
  holds_application: 'holds the FDA application for',
  manufactures: 'manufactures',
  recalled: 'recalled',
  operates: 'operates',
  assignee_of: 'is assignee of',
  inventor_of: 'is inventor of',
  has_site: 'has a site at',
  received: 'received',
  investigator_of: 'is an investigator of',
  registrant_of: 'filed',
  client_of: 'is the client of',
  lobbies_for: 'lobbies for',
};
const IN: Record<string, string> = {
  sponsors: 'is sponsored by',
  holds_application: 'is held under an FDA application by',
  manufactures: 'is manufactured by',
  recalled: 'was recalled by',
  operates: 'is operated by',
  assignee_of: 'is assigned to',
  inventor_of: 'was invented by',
  has_site: 'is a site of',
  received: 'was received by',
  investigator_of: 'is led by',
  registrant_of: 'was filed by',
  client_of: 'was filed for',
  lobbies_for: 'is lobbied for by',
};

export function relationWords(r: { relation: string; direction: 'out' | 'in' }): string {
  const table = r.direction === 'out' ? OUT : IN;
  return table[r.relation] ?? (r.direction === 'out' ? r.relation : `${r.relation} (by)`);
}

function day(iso: string): string {
  return iso.slice(0, 19).replace('T', ' ') + ' UTC';
}

function ids(n: GraphNode): string {
  const e = Object.entries(n.ids);
  return e.length === 0 ? '' : ` (${e.map(([k, v]) => `${k} ${v}`).join(', ')})`;
}

function how(r: Relation): string {
  if (r.method === 'name') return `inferred from names, score ${(r.score ?? 0).toFixed(2)}`;
  if (r.method === 'identifier') return 'same identifier';
  return 'stated by the record';
}

function joinLine(m: Member): string {
  if (m.join.method === 'root')
    return `the entity found (${m.join.how}, score ${m.join.score.toFixed(2)})`;
  // The edge's provenance is the sighting that made the match, not where this name was seen.
  return (
    `name match ${m.join.score.toFixed(2)} (${m.join.detail}), linked when ` +
    `${m.join.via.dataset} ${m.join.via.record} was recorded`
  );
}

export function renderProfile(p: Profile, asked: readonly Asked[] | undefined): string {
  const e = p.entity;
  const out = [`🕸️ ${e.name}${ids(e)} · ${kindWord(e.kind)} profile from the entity graph`];
  if (p.members.length > 1) {
    out.push('', `🧩 One entity under ${p.members.length} names:`);
    for (const m of p.members) out.push(`• “${m.node.name}” — ${joinLine(m)}`);
  }
  out.push(
    '',
    `📚 Datasets (${p.datasets.length}): ${p.datasets.map((d) => d.dataset).join(' · ')}`
  );
  for (const d of p.datasets) {
    out.push(
      `• ${d.dataset} (${d.agents.map(aliasOf).join(', ')}): ${d.sightings} sighting${d.sightings === 1 ? '' : 's'}, ` +
        `${d.relations} relation${d.relations === 1 ? '' : 's'} — ${d.joins.join('; ')}`
    );
  }
  out.push('', '🪪 Names as each dataset gave them, and how they were joined:');
  const shown = new Set<string>();
  for (const s of p.sightings) {
    const key = `${s.dataset}\n${s.name}`;
    if (shown.has(key)) continue;
    shown.add(key);
    const records = p.sightings.filter((x) => x.dataset === s.dataset && x.name === s.name);
    const more = records.length > 1 ? ` (+${records.length - 1} more)` : '';
    out.push(
      `• “${s.name}” — ${s.dataset} ${s.record}${more}, fetched ${day(s.fetchedAt)}: ${s.joinedBy}`
    );
  }
  const groups = groupRelations(p.relations);
  if (groups.length > 0) {
    out.push('', '🔗 Relations:');
    for (const g of groups) {
      const first = g.items[0]!;
      out.push(
        `• ${relationWords(first)} ${g.items.length} ${kindWord(first.other.kind, g.items.length)} ` +
          `(${first.dataset}, ${how(first)}):`
      );
      for (const r of g.items.slice(0, 5)) {
        const score = r.method === 'name' ? ` · ${(r.score ?? 0).toFixed(2)}` : '';
        out.push(`   – ${r.other.name}${ids(r.other)}${score}`);
      }
      if (g.items.length > 5) out.push(`   – … and ${g.items.length - 5} more`);
    }
  }
  if (asked !== undefined) out.push('', askedLine(asked));
  return out.join('\n');
}

export function groupRelations(rs: readonly Relation[]): Array<{ items: Relation[] }> {
  const by = new Map<string, Relation[]>();
  for (const r of rs) {
    const k = `${r.relation}\n${r.direction}\n${r.dataset}\n${r.other.kind}`;
    const seen = by.get(k) ?? [];
    if (!seen.some((x) => x.other.id === r.other.id)) seen.push(r);
    by.set(k, seen);
  }
  return [...by.values()].map((items) => ({ items }));
}

export function askedLine(asked: readonly Asked[]): string {
  const mark = (a: Asked) =>
    a.status === 'answered'
      ? `${a.alias} ✅`
      : a.status === 'unavailable'
        ? `${a.alias} — not in this hub`
        : `${a.alias} ❌ ${a.reason ?? ''}`.trim();
  return `🔄 Asked first: ${asked.map(mark).join(' · ')}`;
}

export function renderRelated(v: RelatedView, asked: readonly Asked[] | undefined): string {
  const e = v.entity;
  const out = [`🕸️ Related to ${e.name}${ids(e)} · ${kindWord(e.kind)}`];
  if (v.members.length > 1) {
    out.push('', '🧩 Same entity by name:');
    for (const m of v.members.slice(1)) out.push(`• “${m.node.name}” — ${joinLine(m)}`);
  }
  if (v.direct.length > 0) {
    out.push('', `1️⃣ One link away (${v.direct.length}):`);
    for (const r of v.direct) {
      out.push(
        `• ${r.other.name} (${kindWord(r.other.kind)}) — ${relationWords(r)} · ${r.dataset}, ${how(r)}`
      );
    }
  }
  if (v.twoSteps.length > 0) {
    out.push('', `2️⃣ Two links away (${v.twoSteps.length}):`);
    for (const h of v.twoSteps) {
      out.push(
        `• ${h.other.name} (${kindWord(h.other.kind)}) — via ${h.via.name}: ` +
          `${relationWords(h.first)} it (${h.first.dataset}); it ${relationWords(h.second)} ` +
          `${h.other.name} (${h.second.dataset}, ${how(h.second)})`
      );
    }
  }
  if (v.direct.length === 0 && v.twoSteps.length === 0) {
    out.push('', 'The graph holds no relations of it yet.');
  }
  if (asked !== undefined) out.push('', askedLine(asked));
  return out.join('\n');
}

export interface QueryHit {
  node: GraphNode;
  datasets: string[];
  names: Array<{ dataset: string; name: string }>;
}

export function renderQuery(what: string, hits: readonly QueryHit[]): string {
  if (hits.length === 0) return `🕸️ The entity graph has nothing ${what}.`;
  const out = [`🕸️ Entity graph, ${what}: ${hits.length}`, ''];
  hits.forEach((h, i) => {
    out.push(`${i + 1}. ${h.node.name} (${kindWord(h.node.kind)})${ids(h.node)}`);
    out.push(`   📚 ${h.datasets.join(' · ')}`);
    const names = h.names
      .filter((n) => n.name !== h.node.name)
      .map((n) => `“${n.name}” (${n.dataset})`);
    if (names.length > 0) out.push(`   🪪 also ${[...new Set(names)].slice(0, 4).join(', ')}`);
  });
  return out.join('\n');
}
