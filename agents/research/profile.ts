// An entity's profile and its related entities, assembled from the graph: the node the request
// names, the nodes tied to it by name (same_as, with their scores), where every one was seen and
// how each sighting was joined, and its relations with the record that states each.
import type { Db } from '../../infra/db/index.js';
import type { Provenance } from '../kit/public-data/index.js';
import {
  mentions,
  nodesById,
  relations,
  sameAs,
  type Edge,
  type Found,
  type GraphNode,
  type Mention,
} from './graph.js';

/** How one node joined the profile's entity. */
export type Join =
  | { method: 'root'; how: string; score: number }
  | { method: 'name'; score: number; detail: string; via: Link };

/** Where a fact came from: the dataset, the agent that fetched it, its record and request. */
export interface Link {
  dataset: string;
  agentId: string;
  record: string;
  url: string;
  fetchedAt: string;
}

export interface Member {
  node: GraphNode;
  join: Join;
}

export interface Sighting extends Link {
  nodeId: number;
  name: string;
  /** How the sighting was tied to its node when it was written. */
  joinedBy: string;
}

export interface Relation extends Link {
  relation: string;
  /** out: the entity → other; in: other → the entity. */
  direction: 'out' | 'in';
  method: 'record' | 'identifier' | 'name';
  score: number | null;
  detail: string | null;
  other: GraphNode;
}

export interface DatasetUse {
  dataset: string;
  agents: string[];
  sightings: number;
  relations: number;
  /** identifier, name (with the lowest score), or record: how its facts reached the entity. */
  joins: string[];
}

export interface Profile {
  entity: GraphNode;
  members: Member[];
  sightings: Sighting[];
  relations: Relation[];
  datasets: DatasetUse[];
}

function link(x: Mention | Edge): Link {
  return {
    dataset: x.dataset,
    agentId: x.agentId,
    record: x.record,
    url: x.url,
    fetchedAt: x.fetchedAt.toISOString(),
  };
}

function joinedBy(m: Mention): string {
  if (m.matchedBy === 'identifier') return `identifier ${m.matchKey ?? ''}`.trim();
  if (m.matchedBy === 'name') return `same normalised name ${m.matchKey ?? ''}`.trim();
  return 'first sighting (created the node)';
}

/** The entity and the nodes tied to it directly by name (one same_as step, never a chain). */
export async function cluster(sql: Db, root: Found): Promise<Member[]> {
  const members: Member[] = [
    { node: root, join: { method: 'root', how: root.how, score: root.score } },
  ];
  const edges = await sameAs(sql, [root.id]);
  const others = await nodesById(
    sql,
    edges.map((e) => (e.src === root.id ? e.dst : e.src))
  );
  const seen = new Set([root.id]);
  for (const e of [...edges].sort((a, b) => (b.score ?? 0) - (a.score ?? 0))) {
    const id = e.src === root.id ? e.dst : e.src;
    const n = others.get(id);
    if (n === undefined || seen.has(id)) continue;
    seen.add(id);
    members.push({
      node: n,
      join: { method: 'name', score: e.score ?? 0, detail: e.detail ?? '', via: link(e) },
    });
  }
  return members;
}

export async function profile(sql: Db, root: Found): Promise<Profile> {
  const members = await cluster(sql, root);
  const ids = members.map((m) => m.node.id);
  const idSet = new Set(ids);
  const ms = await mentions(sql, ids);
  const es = await relations(sql, ids);
  const others = await nodesById(sql, [
    ...new Set(es.map((e) => (idSet.has(e.src) ? e.dst : e.src))),
  ]);
  const rels: Relation[] = [];
  for (const e of es) {
    const out = idSet.has(e.src);
    const other = others.get(out ? e.dst : e.src);
    if (other === undefined || (out && idSet.has(e.dst))) continue;
    rels.push({
      ...link(e),
      relation: e.relation,
      direction: out ? 'out' : 'in',
      method: e.method,
      score: e.score,
      detail: e.detail,
      other,
    });
  }
  const sightings = ms.map((m) => ({
    ...link(m),
    nodeId: m.nodeId,
    name: m.name,
    joinedBy: joinedBy(m),
  }));
  return {
    entity: root,
    members,
    sightings,
    relations: rels,
    datasets: datasetUse(members, ms, rels),
  };
}

function datasetUse(members: Member[], ms: Mention[], rels: Relation[]): DatasetUse[] {
  const by = new Map<string, DatasetUse>();
  const use = (dataset: string) => {
    let u = by.get(dataset);
    if (u === undefined) {
      u = { dataset, agents: [], sightings: 0, relations: 0, joins: [] };
      by.set(dataset, u);
    }
    return u;
  };
  const add = (xs: string[], x: string) => {
    if (!xs.includes(x)) xs.push(x);
  };
  const nameScore = new Map(
    members.flatMap((m) => (m.join.method === 'name' ? [[m.node.id, m.join.score] as const] : []))
  );
  for (const m of ms) {
    const u = use(m.dataset);
    u.sightings += 1;
    add(u.agents, m.agentId);
    const s = nameScore.get(m.nodeId);
    if (s !== undefined) add(u.joins, `name match ${s.toFixed(2)}`);
    else if (m.matchedBy === 'identifier') add(u.joins, `identifier ${m.matchKey ?? ''}`.trim());
    else add(u.joins, m.matchedBy === 'name' ? 'same normalised name' : 'same node');
  }
  for (const r of rels) {
    const u = use(r.dataset);
    u.relations += 1;
    add(u.agents, r.agentId);
    if (r.method === 'name') add(u.joins, `inferred from names ${(r.score ?? 0).toFixed(2)}`);
    else add(u.joins, r.method === 'identifier' ? 'identifier' : 'stated by the record');
  }
  return [...by.values()].sort((a, b) => a.dataset.localeCompare(b.dataset));
}

export interface Hop {
  other: GraphNode;
  /** The neighbour in between, and the two relations. */
  via: GraphNode;
  first: Relation;
  second: Relation;
}

export interface RelatedView {
  entity: GraphNode;
  members: Member[];
  direct: Relation[];
  twoSteps: Hop[];
}

/** Entities one and two links away (never through a same_as step), each with both links. */
export async function related(sql: Db, root: Found, limit: number): Promise<RelatedView> {
  const p = await profile(sql, root);
  const inCluster = new Set(p.members.map((m) => m.node.id));
  const neighbours = new Map<number, Relation>();
  for (const r of p.relations) if (!neighbours.has(r.other.id)) neighbours.set(r.other.id, r);
  const es = await relations(sql, [...neighbours.keys()], 2000);
  const far = await nodesById(sql, [
    ...new Set(es.flatMap((e) => [e.src, e.dst]).filter((id) => !neighbours.has(id))),
  ]);
  const hops: Hop[] = [];
  const taken = new Set<number>();
  for (const e of es) {
    const fromSrc = neighbours.has(e.src) && !neighbours.has(e.dst);
    const mid = fromSrc ? e.src : e.dst;
    const end = fromSrc ? e.dst : e.src;
    if (!neighbours.has(mid) || inCluster.has(end) || neighbours.has(end) || taken.has(end)) {
      continue;
    }
    const other = far.get(end);
    const via = neighbours.get(mid)!;
    if (other === undefined) continue;
    taken.add(end);
    hops.push({
      other,
      via: via.other,
      first: via,
      second: {
        ...link(e),
        relation: e.relation,
        direction: fromSrc ? 'out' : 'in',
        method: e.method,
        score: e.score,
        detail: e.detail,
        other,
      },
    });
    if (hops.length >= limit) break;
  }
  return {
    entity: p.entity,
    members: p.members,
    direct: p.relations.slice(0, limit),
    twoSteps: hops,
  };
}

/** The graph facts a reply shows, as the kit's provenance: one entry per upstream request. */
export function provenanceOf(links: readonly Link[], startedAt: number): Provenance[] {
  const seen = new Map<string, Provenance>();
  for (const l of links) {
    const key = `${l.dataset}\n${l.url}\n${l.fetchedAt}`;
    if (seen.has(key)) continue;
    let endpoint = l.url;
    try {
      endpoint = new URL(l.url).pathname;
    } catch {
      // A URL the graph could not parse is shown whole.
    }
    seen.set(key, {
      source: l.dataset,
      endpoint,
      params: { record: l.record, agent: l.agentId },
      retrievedAt: l.fetchedAt,
      url: l.url,
      // Fetched before this request began: the graph held it already.
      cached: Date.parse(l.fetchedAt) < startedAt,
    });
  }
  return [...seen.values()];
}
