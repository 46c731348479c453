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
import { PUBLIC, SlotColumns, VERIFIED } from './slot-columns.js';
import { parseTsVector, type TsVector } from './text-search.js';
import { orEntryFloat } from './ts-rank.js';
import { TsvPool } from './tsv-pool.js';
import { mergeSortSteps } from './merge-sort.js';

/**
 * One place of an agent: what a nearby answer shows of it besides its coordinates, which its cell
 * keeps in number arrays (a double in a record is an object of its own to the collector).
 */
export interface ModelLocation {
  readonly slot: number;
  /** Its cell's key (cellOf). */
  readonly cell: number;
  readonly displayName: string;
  readonly country: string;
}

/**
 * An agent's filter values (what its index entries were made from), decoded from the one string
 * the model keeps of them per slot (see DirectoryModel.keysBySlot).
 */
export interface AgentKeys {
  readonly categoryKey: string | null;
  readonly tagKeys: readonly string[];
  readonly skillTags: readonly string[];
  readonly contentModes: readonly string[];
  readonly countries: readonly string[];
}

/** What a listing shows of an agent beyond its columns, decoded from its slot's string. */
export interface AgentListing {
  readonly name: string;
  readonly description: string;
  readonly category: string | null;
  readonly tags: string[];
  readonly featured: boolean;
  readonly websiteUrl: string | null;
  readonly docsUrl: string | null;
}

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
  /** id → slot; sharded so that no growth of it rehashes a million entries at once. */
  readonly slots = new ShardedMap<number>();
  /** slot → the agent's id (sorts that fall to the id compare these); holes are free slots. */
  readonly idBySlot: Array<string | undefined> = [];
  /**
   * slot → the agent's filter values, and what its listing shows, each as one JSON string
   * (keysOf, listingOf decode them). An agent costs the heap its id and these two flat strings,
   * which the collector marks without looking inside, instead of a record holding a dozen
   * references and lists of its own: at a million agents, those seven or so objects per agent
   * made each full collection long enough to stall searches (issue 31).
   */
  readonly keysBySlot: Array<string | undefined> = [];
  readonly listingBySlot: Array<string | undefined> = [];
  /** slot → its places, for the agents that have any. */
  readonly locationsBySlot = new Map<number, ModelLocation[]>();
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
  /** ordinal → tenant id (cols.tenant holds the ordinal). */
  private readonly tenantIds: string[] = [];
  private stampCounter = 0;

  /** How many agents the model holds. */
  get agentCount(): number {
    return this.slots.size;
  }

  /** One past the highest slot in use or free: what a bitset over slots must hold. */
  get slotSpan(): number {
    return this.idBySlot.length;
  }

  /** The tenant of the agent at `slot`. */
  tenantIdOf(slot: number): string {
    return this.tenantIds[this.cols.tenant[slot] as number] as string;
  }

  /** The filter values of the agent at `slot`. */
  keysOf(slot: number): AgentKeys {
    const [categoryKey, tagKeys, skillTags, contentModes, countries] = JSON.parse(
      this.keysBySlot[slot] as string
    ) as [string | null, string[], string[], string[], string[]];
    return { categoryKey, tagKeys, skillTags, contentModes, countries };
  }

  /** What a listing shows of the agent at `slot` beyond its columns. */
  listingOf(slot: number): AgentListing {
    const [name, description, category, tags, featured, websiteUrl, docsUrl] = JSON.parse(
      this.listingBySlot[slot] as string
    ) as [string, string, string | null, string[], boolean, string | null, string | null];
    return { name, description, category, tags, featured, websiteUrl, docsUrl };
  }

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
    if (!this.bulk || this.idBySlot.length > 0 || agents + 1024 <= this.cols.capacity) return;
    this.cols = new SlotColumns(agents + 1024);
  }

  /**
   * End a whole read: vectors packed, the text index built and sorted, columns cut to size. A
   * generator yielding after about `budget` units of work, so no piece holds the loop long.
   */
  *finishBulk(budget: number): Generator<void> {
    yield* this.tsvs.compacting(budget);
    const slots = this.idBySlot.length;
    yield* this.lexemes.build(this.tsvs, slots, this.tsvs.lexemeTexts.length, budget);
    yield* this.lexemeOrder.sortAll(budget);
    yield* this.orderIds(budget);
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
      const slot = this.slots.get(l.agentId);
      if (slot === undefined) continue;
      const key = cellOf(l.lat, l.lng);
      const location: ModelLocation = {
        slot,
        cell: key,
        displayName: this.canon(l.displayName),
        country: this.canon(l.country),
      };
      const places = this.locationsBySlot.get(slot);
      if (places === undefined) this.locationsBySlot.set(slot, [location]);
      else places.push(location);
      let cell = this.cells.get(key);
      if (cell === undefined) {
        cell = new Cell();
        this.cells.set(key, cell);
      }
      cell.add(location, l);
    }
  }

  /** True when slot a's id sorts before slot b's (bytes; PostgreSQL's C collation, see load). */
  idBefore(a: number, b: number): boolean {
    const order = this.cols.idOrder;
    const oa = order[a] as number;
    const ob = order[b] as number;
    if (oa !== 0 && ob !== 0) return oa < ob;
    return (this.idBySlot[a] as string) < (this.idBySlot[b] as string);
  }

  /** Every slot's place in id order (what ties of a search's sort fall back on), in steps. */
  private *orderIds(budget: number): Generator<void> {
    const ids = this.idBySlot;
    const slots = new Int32Array(this.slots.size);
    let n = 0;
    for (let slot = 0; slot < ids.length; slot++) if (ids[slot] !== undefined) slots[n++] = slot;
    const sorted = yield* mergeSortSteps(
      slots.subarray(0, n),
      (x, y) => (ids[x] as string) < (ids[y] as string),
      budget
    );
    const order = this.cols.idOrder;
    for (let i = 0; i < n; i++) order[sorted[i] as number] = i + 1;
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
    const slot = this.freeSlots.pop() ?? this.idBySlot.length;
    if (slot >= this.cols.capacity) this.cols = this.cols.grown(this.cols.capacity * 2);
    // A new agent has no place in the id order until the next whole read.
    this.cols.idOrder[slot] = 0;
    return slot;
  }

  /**
   * Put the agent of `row`. One whose indexed fields are unchanged (a new rating or usage count,
   * the most common change) keeps its slot and index entries: only the record is replaced.
   */
  private upsertAgent(row: DirectoryModelAgentRow): void {
    const old = this.slots.get(row.id);
    const tsv = parseTsVector(row.tsv);
    const keys = keysJson(row);
    if (
      old !== undefined &&
      this.keysBySlot[old] === keys &&
      this.tenantIdOf(old) === row.tenantId &&
      // Positions and weights too: the postings keep each lexeme's share of the rank.
      this.tsvs.same(old, tsv)
    ) {
      this.dropLocations(old);
      this.place(row, old, keys);
      return;
    }
    if (old !== undefined) this.removeAgent(row.id);
    const slot = this.takeSlot();
    this.place(row, slot, keys);
    this.tsvs.put(slot, tsv);
    if (!this.bulk) {
      this.tsvs.visit(slot, (id, pos, start, end) => {
        this.lexemes.add(id, slot, orEntryFloat(pos, start, end));
      });
    }
    // Index keys as the model's shared flat copies (see canon).
    if (row.categoryKey !== null) this.categories.add(this.canon(row.categoryKey), slot);
    for (const v of row.tagKeys) this.tags.add(this.canon(v), slot);
    for (const v of row.skillTags) this.skillTags.add(this.canon(v), slot);
    for (const v of row.contentModes) this.contentModes.add(this.canon(v), slot);
    for (const v of row.countries) this.countries.add(this.canon(v), slot);
    this.byTenant.add(this.canon(row.tenantId), slot);
  }

  private place(row: DirectoryModelAgentRow, slot: number, keys: string): void {
    this.idBySlot[slot] = row.id;
    this.keysBySlot[slot] = keys;
    this.listingBySlot[slot] = flatJson([
      row.name,
      row.description,
      row.category,
      Array.isArray(row.tags) ? row.tags : [],
      row.featured,
      row.websiteUrl,
      row.docsUrl,
    ]);
    this.slots.set(row.id, slot);
    const c = this.cols;
    c.setFlags(slot, (row.public ? PUBLIC : 0) | (row.tenantVerified ? VERIFIED : 0));
    const tenantId = this.canon(row.tenantId);
    let ordinal = this.tenantOrdinals.get(tenantId);
    if (ordinal === undefined) {
      ordinal = this.tenantOrdinals.size;
      this.tenantOrdinals.set(tenantId, ordinal);
      this.tenantIds.push(tenantId);
    }
    c.tenant[slot] = ordinal;
    c.rating[slot] = row.ratingAvg;
    c.ratingCount[slot] = row.ratingCount;
    c.usage[slot] = Number(row.usageCount);
    c.created[slot] = Number(row.createdUs);
  }

  private dropLocations(slot: number): void {
    const places = this.locationsBySlot.get(slot);
    if (places === undefined) return;
    for (const l of places) {
      const key = l.cell;
      const cell = this.cells.get(key);
      if (cell === undefined) continue;
      cell.remove(l);
      if (cell.places.length === 0) this.cells.delete(key);
    }
    this.locationsBySlot.delete(slot);
  }

  /** One flat copy of each filter value (see canon). */
  private readonly pool = new Map<string, string>();

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
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    const keys = this.keysOf(slot);
    const tenantId = this.tenantIdOf(slot);
    this.slots.delete(id);
    this.idBySlot[slot] = undefined;
    this.keysBySlot[slot] = undefined;
    this.listingBySlot[slot] = undefined;
    this.cols.setFlags(slot, 0);
    this.cols.idOrder[slot] = 0;
    this.freeSlots.push(slot);
    this.tsvs.visit(slot, (lexeme) => this.lexemes.remove(lexeme, slot));
    this.tsvs.release(slot);
    if (keys.categoryKey !== null) this.categories.remove(keys.categoryKey, slot);
    for (const v of keys.tagKeys) this.tags.remove(v, slot);
    for (const v of keys.skillTags) this.skillTags.remove(v, slot);
    for (const v of keys.contentModes) this.contentModes.remove(v, slot);
    for (const v of keys.countries) this.countries.remove(v, slot);
    this.byTenant.remove(tenantId, slot);
    this.dropLocations(slot);
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
  readonly lat: number[] = [];
  readonly lng: number[] = [];
  readonly slot: number[] = [];
  readonly position: number[] = [];

  add(l: ModelLocation, at: DirectoryModelLocationRow): void {
    this.places.push(l);
    this.x.push(at.x);
    this.y.push(at.y);
    this.z.push(at.z);
    this.lat.push(at.lat);
    this.lng.push(at.lng);
    this.slot.push(l.slot);
    this.position.push(at.position);
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
      this.lat,
      this.lng,
      this.slot,
      this.position,
    ] as unknown[][]) {
      list[at] = list[last];
      list.pop();
    }
  }
}

/**
 * JSON text as one flat string. V8's JSON.stringify returns a tree of string pieces (a cons string
 * of several objects); decoding the text's UTF-8 bytes makes the single object the model means to
 * keep (lone surrogates are escaped by JSON.stringify, so the bytes are always well-formed).
 */
const flatJson = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString();

/** An agent's filter values as the one string the model keeps (equal strings: equal values). */
const keysJson = (row: DirectoryModelAgentRow): string =>
  flatJson([row.categoryKey, row.tagKeys, row.skillTags, row.contentModes, row.countries]);
