// The directory held in memory on each node: every live agent's search fields, what a listing
// shows of it, and its locations, with the indexes a search starts from (the lexemes of its text,
// and each filter's values). It is a copy of PostgreSQL's directory_entries at one generation;
// live-directory.ts keeps it current. Searching it answers exactly what the SQL would (the parity
// tests compare them), without a statement per search.
//
// Agents are numbered (slots), and every index lists slots in plain arrays: a search walks a few
// thousand small integers and marks them in typed arrays, which is what keeps it well under a
// millisecond on 100,000 agents.
import type {
  DirectoryModelAgentRow,
  DirectoryModelLocationRow,
  DirectoryModelTenantRow,
} from '../../infra/db/index.js';
import { compareLexemes, orEntryTerm, parseTsVector, type TsVector } from './text-search.js';
import { TsvPool } from './tsv-pool.js';

export interface ModelLocation {
  readonly agent: ModelAgent;
  readonly tag: string;
  readonly lat: number;
  readonly lng: number;
  readonly displayName: string;
  readonly country: string;
  readonly position: number;
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

/**
 * What the model keeps of an agent beside its columns (SlotColumns: visibility, verification,
 * rating, usage, creation) and its tsvector (TsvPool). Value lists are the model's shared
 * copies, and empty ones the one EMPTY array: an agent costs its own strings and little more.
 */
export interface ModelAgent {
  readonly slot: number;
  readonly id: string;
  readonly tenantId: string;
  readonly categoryKey: string | null;
  readonly tagKeys: readonly string[];
  readonly skillTags: readonly string[];
  readonly contentModes: readonly string[];
  readonly countries: readonly string[];
  readonly name: string;
  readonly description: string;
  readonly category: string | null;
  readonly tags: readonly string[];
  readonly featured: boolean;
  readonly websiteUrl: string | null;
  readonly docsUrl: string | null;
  /** EMPTY until the agent has a place. */
  locations: readonly ModelLocation[];
}

const EMPTY: readonly never[] = Object.freeze([]);

export interface ModelTenant {
  readonly id: string;
  readonly name: string;
  readonly nameLower: string;
  readonly slug: string;
}

/** Values → the slots of the agents holding them, for one field. Empty lists are removed. */
export class SlotIndex {
  readonly byValue = new Map<string, number[]>();

  /** True when the value is new to the index. */
  add(value: string, slot: number): boolean {
    const list = this.byValue.get(value);
    if (list !== undefined) {
      list.push(slot);
      return false;
    }
    this.byValue.set(value, [slot]);
    return true;
  }

  /** True when the value left the index. */
  remove(value: string, slot: number): boolean {
    const list = this.byValue.get(value);
    if (list === undefined) return false;
    const at = list.lastIndexOf(slot);
    if (at >= 0) {
      // Order inside a list carries no meaning: the last element fills the hole.
      list[at] = list[list.length - 1] as number;
      list.pop();
    }
    if (list.length > 0) return false;
    this.byValue.delete(value);
    return true;
  }

  get(value: string): readonly number[] {
    return this.byValue.get(value) ?? NONE;
  }
}

const NONE: readonly number[] = [];

/** Per lexeme: the slots holding it and, beside each, what it adds to an OR query's rank. */
export interface Posting {
  readonly slots: number[];
  readonly terms: number[];
}

/** Lexemes → postings. Empty postings are removed. */
export class LexemeIndex {
  readonly byValue = new Map<string, Posting>();

  /** True when the lexeme is new to the index. */
  add(lexeme: string, slot: number, term: number): boolean {
    const p = this.byValue.get(lexeme);
    if (p !== undefined) {
      p.slots.push(slot);
      p.terms.push(term);
      return false;
    }
    this.byValue.set(lexeme, { slots: [slot], terms: [term] });
    return true;
  }

  /** True when the lexeme left the index. */
  remove(lexeme: string, slot: number): boolean {
    const p = this.byValue.get(lexeme);
    if (p === undefined) return false;
    const at = p.slots.lastIndexOf(slot);
    if (at >= 0) {
      const last = p.slots.length - 1;
      p.slots[at] = p.slots[last] as number;
      p.terms[at] = p.terms[last] as number;
      p.slots.pop();
      p.terms.pop();
    }
    if (p.slots.length > 0) return false;
    this.byValue.delete(lexeme);
    return true;
  }

  get(lexeme: string): Posting | undefined {
    return this.byValue.get(lexeme);
  }
}

/**
 * Locations bucketed in cells of half a degree of latitude and longitude, so a radius scans only
 * the cells it can reach (a few hundred places around a city, not every place at its latitude).
 */
export const CELL_DEG = 0.5;
export const LAT_CELLS = 180 / CELL_DEG + 1;
export const LNG_CELLS = 360 / CELL_DEG;
export const latCell = (lat: number): number =>
  Math.min(LAT_CELLS - 1, Math.floor((lat + 90) / CELL_DEG));
export const lngCell = (lng: number): number =>
  ((Math.floor((lng + 180) / CELL_DEG) % LNG_CELLS) + LNG_CELLS) % LNG_CELLS;
const cellOf = (lat: number, lng: number): number => latCell(lat) * LNG_CELLS + lngCell(lng);

export class DirectoryModel {
  readonly agents = new Map<string, ModelAgent>();
  /** slot → agent; holes are free slots. */
  readonly bySlot: Array<ModelAgent | undefined> = [];
  readonly tenants = new Map<string, ModelTenant>();
  private readonly byNameLower = new Map<string, string>();
  private readonly bySlug = new Map<string, string>();
  readonly lexemes = new LexemeIndex();
  readonly categories = new SlotIndex();
  readonly tags = new SlotIndex();
  readonly skillTags = new SlotIndex();
  readonly contentModes = new SlotIndex();
  readonly countries = new SlotIndex();
  readonly byTenant = new SlotIndex();
  /** cell (latCell * LNG_CELLS + lngCell) → the places in it. */
  readonly cells = new Map<number, Cell>();
  private readonly freeSlots: number[] = [];
  private sortedLexemes: string[] | null = null;
  /** What searches read by slot, without touching an agent's record (see SlotColumns). */
  cols = new SlotColumns(1024);
  private readonly tenantOrdinals = new Map<string, number>();
  private stampCounter = 0;
  /** Every agent's tsvector, by slot. */
  readonly tsvs = new TsvPool();

  /** Slot's tsvector (materialized: for the agents a search tests or ranks). */
  tsvOf(slot: number): TsVector {
    return this.tsvs.get(slot);
  }

  /** Give back the space replaced vectors held (after a whole read). */
  compact(): void {
    this.tsvs.compact();
    // Columns at the agents' number (plus room for some more), not the doubling's capacity.
    const fit = this.bySlot.length + 1024;
    if (fit < this.cols.capacity) this.cols = this.cols.grown(fit);
  }

  /**
   * Lexemes in PostgreSQL's order (rebuilt after changes): those sharing a prefix are adjacent,
   * and a prefix's lexemes come in the order a tsvector lists them, which ranking sums in.
   */
  lexemeList(): readonly string[] {
    this.sortedLexemes ??= [...this.lexemes.byValue.keys()].sort(compareLexemes);
    return this.sortedLexemes;
  }

  /** A new stamp for `cols.seen` / `cols.marked`: slots carrying it were touched by this search. */
  nextStamp(): number {
    this.stampCounter = (this.stampCounter + 1) >>> 0;
    if (this.stampCounter === 0) {
      this.cols.seen.fill(0);
      this.cols.marked.fill(0);
      this.stampCounter = 1;
    }
    return this.stampCounter;
  }

  /** A small number per tenant, as `cols.tenant` holds it; -1 for a tenant no agent has had. */
  tenantOrdinal(tenantId: string | undefined): number {
    return tenantId === undefined ? -1 : (this.tenantOrdinals.get(tenantId) ?? -1);
  }

  putTenant(row: DirectoryModelTenantRow): void {
    const old = this.tenants.get(row.id);
    if (old !== undefined) {
      if (this.byNameLower.get(old.nameLower) === old.id) this.byNameLower.delete(old.nameLower);
      if (this.bySlug.get(old.slug) === old.id) this.bySlug.delete(old.slug);
    }
    this.tenants.set(row.id, {
      id: row.id,
      name: row.name,
      nameLower: row.nameLower,
      slug: row.slug,
    });
    this.byNameLower.set(row.nameLower, row.id);
    this.bySlug.set(row.slug, row.id);
  }

  /** The owner filter's tenant, as the SQL picks it: by lower(name), else by slug; null if none. */
  ownerTenant(ownerLower: string): string | null {
    return this.byNameLower.get(ownerLower) ?? this.bySlug.get(ownerLower) ?? null;
  }

  /**
   * Replace what the model holds of `agentIds` with `rows` and `locations` (an agent without a
   * row left the directory). Tenants of the rows must be put first.
   */
  replaceAgents(
    agentIds: Iterable<string>,
    rows: readonly DirectoryModelAgentRow[],
    locations: readonly DirectoryModelLocationRow[]
  ): void {
    const kept = new Set(rows.map((r) => r.id));
    for (const id of agentIds) if (!kept.has(id)) this.removeAgent(id);
    for (const row of rows) this.upsertAgent(row);
    for (const l of locations) {
      const agent = this.agents.get(l.agentId);
      if (agent === undefined) continue;
      const location: ModelLocation = {
        agent,
        tag: this.canon(l.tag),
        lat: l.lat,
        lng: l.lng,
        displayName: this.canon(l.displayName),
        country: this.canon(l.country),
        position: l.position,
        x: l.x,
        y: l.y,
        z: l.z,
      };
      agent.locations = [...agent.locations, location];
      const key = cellOf(l.lat, l.lng);
      let cell = this.cells.get(key);
      if (cell === undefined) {
        cell = new Cell();
        this.cells.set(key, cell);
      }
      cell.add(location);
    }
  }

  private indexes(): SlotIndex[] {
    return [
      this.categories,
      this.tags,
      this.skillTags,
      this.contentModes,
      this.countries,
      this.byTenant,
    ];
  }

  private takeSlot(): number {
    const slot = this.freeSlots.pop() ?? this.bySlot.length;
    if (slot >= this.cols.capacity) this.cols = this.cols.grown(this.cols.capacity * 2);
    return slot;
  }

  /**
   * Put the agent of `row`. One whose indexed fields are unchanged (a new rating or usage count,
   * the most common change) keeps its slot and index entries: only the record is replaced.
   */
  private upsertAgent(row: DirectoryModelAgentRow): void {
    const old = this.agents.get(row.id);
    const tsv = parseTsVector(row.tsv);
    if (old !== undefined && this.sameIndexEntries(old, row, tsv)) {
      this.dropLocations(old);
      this.place(row, old.slot);
      return;
    }
    if (old !== undefined) this.removeAgent(old.id);
    const agent = this.place(row, this.takeSlot());
    const slot = agent.slot;
    this.tsvs.put(slot, tsv);
    for (let i = 0; i < tsv.lexemes.length; i++) {
      const lexeme = tsv.lexemes[i] as string;
      if (this.lexemes.add(this.lexemeKey(lexeme), slot, orEntryTerm(tsv, i))) {
        this.sortedLexemes = null;
      }
    }
    if (agent.categoryKey !== null) this.categories.add(agent.categoryKey, slot);
    for (const v of agent.tagKeys) this.tags.add(v, slot);
    for (const v of agent.skillTags) this.skillTags.add(v, slot);
    for (const v of agent.contentModes) this.contentModes.add(v, slot);
    for (const v of agent.countries) this.countries.add(v, slot);
    this.byTenant.add(agent.tenantId, slot);
  }

  private place(row: DirectoryModelAgentRow, slot: number): ModelAgent {
    const tagKeys = this.canonList(row.tagKeys);
    const tags = Array.isArray(row.tags) ? this.canonList(row.tags) : EMPTY;
    const agent: ModelAgent = {
      slot,
      id: row.id,
      tenantId: this.canon(row.tenantId),
      categoryKey: row.categoryKey === null ? null : this.canon(row.categoryKey),
      tagKeys,
      skillTags: this.canonList(row.skillTags),
      contentModes: this.sharedList(row.contentModes),
      countries: this.sharedList(row.countries),
      name: row.name,
      description: row.description,
      category: row.category === null ? null : this.canon(row.category),
      // Tags already in their folded form (the common case) share the one list.
      tags: sameList(tags, tagKeys) ? tagKeys : tags,
      featured: row.featured,
      websiteUrl: row.websiteUrl,
      docsUrl: row.docsUrl,
      locations: EMPTY,
    };
    this.bySlot[slot] = agent;
    this.agents.set(agent.id, agent);
    const c = this.cols;
    c.flags[slot] = (row.public ? PUBLIC : 0) | (row.tenantVerified ? VERIFIED : 0);
    let ordinal = this.tenantOrdinals.get(agent.tenantId);
    if (ordinal === undefined) {
      ordinal = this.tenantOrdinals.size;
      this.tenantOrdinals.set(agent.tenantId, ordinal);
    }
    c.tenant[slot] = ordinal;
    c.rating[slot] = row.ratingAvg;
    c.ratingCount[slot] = row.ratingCount;
    c.usage[slot] = Number(row.usageCount);
    c.created[slot] = Number(row.createdUs);
    return agent;
  }

  /** Lists of few distinct combinations (content modes, countries), each held once. */
  private readonly lists = new Map<string, readonly string[]>();

  private sharedList(values: readonly string[]): readonly string[] {
    if (values.length === 0) return EMPTY;
    const key = values.join('\u0000');
    let list = this.lists.get(key);
    if (list === undefined) {
      list = this.canonList(values);
      this.lists.set(key, list);
    }
    return list;
  }

  /** The shared copies of a list's values; the one EMPTY array for an empty list. */
  private canonList(values: readonly string[]): readonly string[] {
    return values.length === 0 ? EMPTY : values.map((v) => this.canon(v));
  }

  /** The pool's copy of a lexeme it holds (flat, held once for the pool and the index). */
  private lexemeKey(lexeme: string): string {
    return this.tsvs.text(lexeme) ?? lexeme;
  }

  private sameIndexEntries(old: ModelAgent, row: DirectoryModelAgentRow, tsv: TsVector): boolean {
    return (
      old.tenantId === row.tenantId &&
      old.categoryKey === row.categoryKey &&
      // Positions and weights too: the postings keep each lexeme's share of the rank.
      this.tsvs.same(old.slot, tsv) &&
      sameList(old.tagKeys, row.tagKeys) &&
      sameList(old.skillTags, row.skillTags) &&
      sameList(old.contentModes, row.contentModes) &&
      sameList(old.countries, row.countries)
    );
  }

  private dropLocations(agent: ModelAgent): void {
    for (const l of agent.locations) {
      const key = cellOf(l.lat, l.lng);
      const cell = this.cells.get(key);
      if (cell === undefined) continue;
      cell.remove(l);
      if (cell.places.length === 0) this.cells.delete(key);
    }
    agent.locations = EMPTY;
  }

  /** One flat copy of each filter value (see canon). */
  private readonly pool = new Map<string, string>();

  /** The shared copy of a filter value when some agent holds it (compares by identity), else itself. */
  known(value: string): string {
    return this.pool.get(value) ?? value;
  }

  /**
   * The shared flat copy of a filter value. postgres.js builds array elements a character at a
   * time, as chains of string pieces that every comparison walks again; a flat copy compares in
   * one pass and is stored once however many agents hold it.
   */
  private canon(value: string): string {
    let flat = this.pool.get(value);
    if (flat === undefined) {
      flat = JSON.parse(JSON.stringify(value)) as string;
      this.pool.set(flat, flat);
    }
    return flat;
  }

  private removeAgent(id: string): void {
    const agent = this.agents.get(id);
    if (agent === undefined) return;
    const slot = agent.slot;
    this.agents.delete(id);
    this.bySlot[slot] = undefined;
    this.freeSlots.push(slot);
    for (const lexeme of this.tsvs.lexemesOf(slot)) {
      if (this.lexemes.remove(lexeme, slot)) this.sortedLexemes = null;
    }
    this.tsvs.release(slot);
    if (agent.categoryKey !== null) this.categories.remove(agent.categoryKey, slot);
    for (const v of agent.tagKeys) this.tags.remove(v, slot);
    for (const v of agent.skillTags) this.skillTags.remove(v, slot);
    for (const v of agent.contentModes) this.contentModes.remove(v, slot);
    for (const v of agent.countries) this.countries.remove(v, slot);
    this.byTenant.remove(agent.tenantId, slot);
    this.dropLocations(agent);
  }
}

/**
 * The places of one cell, their coordinates and slots in parallel arrays of plain numbers, which
 * a radius scan reads front to back without visiting each place's record.
 */
export class Cell {
  readonly places: ModelLocation[] = [];
  readonly x: number[] = [];
  readonly y: number[] = [];
  readonly z: number[] = [];
  readonly slot: number[] = [];
  readonly position: number[] = [];

  add(l: ModelLocation): void {
    this.places.push(l);
    this.x.push(l.x);
    this.y.push(l.y);
    this.z.push(l.z);
    this.slot.push(l.agent.slot);
    this.position.push(l.position);
  }

  remove(l: ModelLocation): void {
    const at = this.places.indexOf(l);
    if (at < 0) return;
    const last = this.places.length - 1;
    for (const list of [
      this.places,
      this.x,
      this.y,
      this.z,
      this.slot,
      this.position,
    ] as unknown[][]) {
      list[at] = list[last];
      list.pop();
    }
  }
}

export const PUBLIC = 1;
export const VERIFIED = 2;

/**
 * Per slot, what a search checks and sorts by, in typed arrays: reading them costs no walk to an
 * agent's record (scattered in memory), which is what a search over thousands of candidates
 * spends its time on otherwise. Also the search's scratch: stamps and sums by slot.
 */
export class SlotColumns {
  readonly flags: Uint8Array;
  readonly tenant: Int32Array;
  readonly rating: Float64Array;
  readonly ratingCount: Float64Array;
  readonly usage: Float64Array;
  readonly created: Float64Array;
  readonly seen: Uint32Array;
  readonly marked: Uint32Array;
  readonly sumA: Float64Array;
  readonly sumB: Float64Array;
  readonly rank: Float64Array;

  constructor(readonly capacity: number) {
    this.flags = new Uint8Array(capacity);
    this.tenant = new Int32Array(capacity);
    this.rating = new Float64Array(capacity);
    this.ratingCount = new Float64Array(capacity);
    this.usage = new Float64Array(capacity);
    this.created = new Float64Array(capacity);
    this.seen = new Uint32Array(capacity);
    this.marked = new Uint32Array(capacity);
    this.sumA = new Float64Array(capacity);
    this.sumB = new Float64Array(capacity);
    this.rank = new Float64Array(capacity);
  }

  /** A copy at another capacity (smaller only when the slots above it are free). */
  grown(capacity: number): SlotColumns {
    const next = new SlotColumns(capacity);
    const n = Math.min(capacity, this.capacity);
    next.flags.set(this.flags.subarray(0, n));
    next.tenant.set(this.tenant.subarray(0, n));
    next.rating.set(this.rating.subarray(0, n));
    next.ratingCount.set(this.ratingCount.subarray(0, n));
    next.usage.set(this.usage.subarray(0, n));
    next.created.set(this.created.subarray(0, n));
    next.seen.set(this.seen.subarray(0, n));
    next.marked.set(this.marked.subarray(0, n));
    return next;
  }
}

const sameList = (a: ArrayLike<unknown>, b: ArrayLike<unknown>): boolean => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};
