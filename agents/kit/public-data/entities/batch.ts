// What an agent tells the entity graph after an upstream answered: nodes and edges grouped by the
// upstream record that stated them, each record with the provenance of the request that fetched
// it. Building a batch does no I/O; `recordEntities` writes it.
import type { Provenance } from '../upstream.js';
import { normIdentifier, normName } from './names.js';

/** The node kinds of the graph (migration 0020). */
export const KINDS = [
  'company',
  'person',
  'award',
  'filing',
  'patent',
  'trial',
  'lobbying_filing',
  'facility',
  'product',
] as const;
export type Kind = (typeof KINDS)[number];

/** Where a record came from: the dataset, the request (keys left out) and when it answered. */
export interface Origin {
  dataset: string;
  url: string;
  fetchedAt: string;
}

export interface NodeFact {
  kind: Kind;
  name: string;
  norm: string;
  /** Normalised identifiers, scheme → value. */
  ids: Record<string, string>;
  attrs: Record<string, unknown>;
  record: string;
  origin: Origin;
}

export interface EdgeFact {
  src: number;
  dst: number;
  relation: string;
  record: string;
  origin: Origin;
  /**
   * The upstream does not state the link; it is inferred from names: how well the name `of` is
   * found in the name `in` (pg_trgm word_similarity of the normalised names) is kept as the score,
   * and the edge is dropped below the graph's threshold.
   */
  byName?: { of: string; in: string };
}

export interface NodeOptions {
  /** Identifiers by scheme (SCHEMES in names.ts): values are normalised, bad ones left out. */
  ids?: Record<string, string | undefined>;
  /** Facts worth showing in a profile (city, status, dates); kept small. */
  attrs?: Record<string, unknown>;
}

/** Nodes and edges stated by one upstream record. */
export interface RecordScope {
  /** A node; undefined (and nothing recorded) when the name is blank. */
  node(kind: Kind, name: string | undefined, o?: NodeOptions): number | undefined;
  /** An edge stated by the record; nothing when either end is undefined. */
  edge(
    src: number | undefined,
    relation: string,
    dst: number | undefined,
    o?: { byName?: { of: string; in: string } }
  ): void;
}

export class EntityBatch {
  readonly nodes: NodeFact[] = [];
  readonly edges: EdgeFact[] = [];

  constructor(readonly agentId: string) {}

  /** Everything added through the scope carries `record` and the provenance `from`. */
  record(record: string, from: Provenance | Origin): RecordScope {
    const origin: Origin =
      'dataset' in from
        ? from
        : { dataset: from.source, url: from.url, fetchedAt: from.retrievedAt };
    return {
      node: (kind, name, o = {}) => {
        const display = name?.replace(/\s+/g, ' ').trim() ?? '';
        if (display === '') return undefined;
        const ids: Record<string, string> = {};
        for (const [scheme, raw] of Object.entries(o.ids ?? {})) {
          const v = raw === undefined ? undefined : normIdentifier(scheme, raw);
          if (v !== undefined) ids[scheme] = v;
        }
        this.nodes.push({
          kind,
          name: display.slice(0, 500),
          norm: normName(display).slice(0, 500),
          ids,
          attrs: o.attrs ?? {},
          record,
          origin,
        });
        return this.nodes.length - 1;
      },
      edge: (src, relation, dst, o = {}) => {
        if (src === undefined || dst === undefined || src === dst) return;
        this.edges.push({ src, dst, relation, record, origin, ...o });
      },
    };
  }

  get empty(): boolean {
    return this.nodes.length === 0;
  }
}
