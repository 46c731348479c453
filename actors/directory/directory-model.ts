// The directory held in memory on each node: every live agent's search fields, what a listing
// shows of it, and its locations, with the indexes a search starts from (the lexemes of its text,
// and each filter's values). It is a copy of PostgreSQL's directory_entries at one generation;
// live-directory.ts keeps it current. Searching it answers exactly what the SQL would (the parity
// tests compare them), without a statement per search.
//
// Agents are numbered (slots), and every index lists slots: a search walks a few thousand small
// integers and marks them in typed arrays, which is what keeps it well under a millisecond on
// 100,000 agents. A list holding many slots (a common word, a category) also has them as a
// bitset, which a search intersects a word of 32 slots at a time (slot-bits.ts). A whole read builds the model in bulk (beginBulk/finishBulk): the text index is
// built once every vector is in, in pieces that give the event loop turns between them.
import type {
  DirectoryModelAgentRow,
  DirectoryModelLocationRow,
  DirectoryModelTenantRow,
} from '../../infra/db/index.js';
import { LexemeIndex, LexemeOrder } from './lexeme-index.js';
import { ShardedMap } from './sharded-map.js';
import { bitsOfSlots, KeyedBits, wantsBits } from './slot-bits.js';
import { parseTsVector, type TsVector } from './text-search.js';
import { orEntryFloat } from './ts-rank.js';
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

/**
 * Values → the slots of the agents holding them, for one field. Empty lists are removed. A value
 * that many agents hold also has its slots as a bitset (slot-bits.ts), kept equal to the list.
 */
export class SlotIndex {
  readonly byValue = new Map<string, number[]>();
  private readonly bits = new KeyedBits<string>();
  /** One past the highest slot ever added: what a bitset must be able to hold. */
  private span = 0;
  /** True while a whole read fills the index: bitsets are made at its end (settle). */
  private bulk = false;

  /** Start a whole read: no bitset is kept until settle(). */
  beginBulk(): void {
    this.bulk = true;
    this.bits.clear();
  }

  /** End a whole read: a bitset for each value that many slots hold, yielding between values. */
  *settle(): Generator<void> {
    this.bulk = false;
    for (const [value, list] of this.byValue) {
      if (!wantsBits(list.length, this.span)) continue;
      this.bits.set(value, bitsOfSlots(list, this.span));
      yield;
    }
  }

  /** True when the value is new to the index. */
  add(value: string, slot: number): boolean {
    if (slot >= this.span) this.span = slot + 1;
    const list = this.byValue.get(value);
    if (list !== undefined) {
      list.push(slot);
      if (!this.bulk) this.bits.added(value, slot, list, this.span);
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
      this.bits.removed(value, slot, list.length, this.span);
    }
    if (list.length > 0) return false;
    this.byValue.delete(value);
    return true;
  }

  get(value: string): readonly number[] {
    return this.byValue.get(value) ?? NONE;
  }

  /** The value's slots as a bitset, when it has one. */
  bitsOf(value: string): Uint32Array | undefined {
    return this.bits.get(value);
  }
}

const NONE: readonly number[] = [];

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
  /** By id; sharded so that no growth of it rehashes a million entries at once. */
  readonly agents = new ShardedMap<ModelAgent>();
  /** slot → agent; holes are free slots. */
  readonly bySlot: Array<ModelAgent | undefined> = [];
  /** slot → the agent's id: sorts that fall to the id compare them without visiting records. */
  readonly idBySlot: Array<string | undefined> = [];
  readonly tenants = new Map<string, ModelTenant>();
  private readonly byNameLower = new Map<string, string>();
  private readonly bySlug = new Map<string, string>();
  /** Every agent's tsvector, by slot. */
  readonly tsvs = new TsvPool();
  /** Lexeme id (tsvs) → the slots holding it. */
  readonly lexemes = new LexemeIndex();
  /** Lexeme ids in PostgreSQL's order of their texts (prefix and OR-rank walks). */
  readonly lexemeOrder = new LexemeOrder(this.tsvs.lexemeTexts);
  /** True while a whole read fills the model: the text index is built at its end. */
  private bulk = false;
  readonly categories = new SlotIndex();
  readonly tags = new SlotIndex();
  readonly skillTags = new SlotIndex();
  readonly contentModes = new SlotIndex();
  readonly countries = new SlotIndex();
  readonly byTenant = new SlotIndex();
  /** cell (latCell * LNG_CELLS + lngCell) → the places in it. */
  readonly cells = new Map<number, Cell>();
  private readonly freeSlots: number[] = [];
  /** What searches read by slot, without touching an agent's record (see SlotColumns). */
  cols = new SlotColumns(1024);
  private readonly tenantOrdinals = new Map<string, number>();
  private stampCounter = 0;

  /** Slot's tsvector (materialized: for the agents a search tests or ranks). */
  tsvOf(slot: number): TsVector {
    return this.tsvs.get(slot);
  }

  /** Start a whole read: agents are put without their postings until finishBulk. */
  beginBulk(): void {
    this.bulk = true;
    this.tsvs.beginBulk();
    for (const index of this.indexes()) index.beginBulk();
  }

  /**
   * Size the columns for `agents` before a whole read puts them, so they are not grown (a copy
   * of every column at once) while it runs.
   */
  reserve(agents: number): void {
    if (!this.bulk || this.bySlot.length > 0 || agents + 1024 <= this.cols.capacity) return;
    this.cols = new SlotColumns(agents + 1024);
  }

  /**
   * End a whole read: vectors packed, the text index built and sorted, columns cut to size. A
   * generator yielding after about `budget` units of work, so no piece holds the loop long.
   */
  *finishBulk(budget: number): Generator<void> {
    yield* this.tsvs.compacting(budget);
    const slots = this.bySlot.length;
    yield* this.lexemes.build(this.tsvs, slots, this.tsvs.lexemeTexts.length, budget);
    yield* this.lexemeOrder.sortAll(budget);
    for (const index of this.indexes()) yield* index.settle();
    // Columns at the agents' number (plus room for some more), not the doubling's capacity.
    const fit = slots + 1024;
    if (fit < this.cols.capacity) {
      const next = new SlotColumns(fit);
      yield* next.copyFrom(this.cols);
      this.cols = next;
    }
    this.bulk = false;
  }

  /** The id of a lexeme some agent's vector held, or undefined. */
  lexemeId(lexeme: string): number | undefined {
    return this.tsvs.idFor(lexeme);
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
    if (!this.bulk) {
      this.tsvs.visit(slot, (id, pos, start, end) => {
        this.lexemes.add(id, slot, orEntryFloat(pos, start, end));
      });
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
    this.idBySlot[slot] = agent.id;
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
    this.idBySlot[slot] = undefined;
    this.freeSlots.push(slot);
    this.tsvs.visit(slot, (lexeme) => this.lexemes.remove(lexeme, slot));
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
  readonly ratingCount: Int32Array;
  readonly usage: Float64Array;
  readonly created: Float64Array;
  readonly seen: Uint32Array;
  readonly marked: Uint32Array;
  /** Float sums and ranks (calc_rank_or's float4): a Float32Array store rounds as it does. */
  readonly sumA: Float32Array;
  readonly sumB: Float32Array;
  readonly rank: Float32Array;

  constructor(readonly capacity: number) {
    this.flags = new Uint8Array(capacity);
    this.tenant = new Int32Array(capacity);
    this.rating = new Float64Array(capacity);
    this.ratingCount = new Int32Array(capacity);
    this.usage = new Float64Array(capacity);
    this.created = new Float64Array(capacity);
    this.seen = new Uint32Array(capacity);
    this.marked = new Uint32Array(capacity);
    this.sumA = new Float32Array(capacity);
    this.sumB = new Float32Array(capacity);
    this.rank = new Float32Array(capacity);
  }

  /** A copy at another capacity (smaller only when the slots above it are free). */
  grown(capacity: number): SlotColumns {
    const next = new SlotColumns(capacity);
    const steps = next.copyFrom(this);
    while (steps.next().done !== true);
    return next;
  }

  /** Copy what `from` holds (as far as this capacity goes), yielding between columns. */
  *copyFrom(from: SlotColumns): Generator<void> {
    const n = Math.min(this.capacity, from.capacity);
    this.flags.set(from.flags.subarray(0, n));
    this.tenant.set(from.tenant.subarray(0, n));
    yield;
    this.rating.set(from.rating.subarray(0, n));
    this.ratingCount.set(from.ratingCount.subarray(0, n));
    yield;
    this.usage.set(from.usage.subarray(0, n));
    yield;
    this.created.set(from.created.subarray(0, n));
    yield;
    this.seen.set(from.seen.subarray(0, n));
    this.marked.set(from.marked.subarray(0, n));
  }
}

const sameList = (a: ArrayLike<unknown>, b: ArrayLike<unknown>): boolean => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};
