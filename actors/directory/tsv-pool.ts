// Every agent's tsvector in three shared typed arrays instead of three objects per agent (a
// lexeme list and two small typed arrays cost about 700 bytes an agent; here it is about 130):
// lexemes as small integers (each lexeme's text held once), each lexeme's position range, and
// the positions themselves. A vector is materialized as a TsVector only while a search tests or
// ranks that agent.
import { ShardedMap } from './sharded-map.js';
import type { TsVector } from './text-search.js';

export class TsvPool {
  /** Lexeme id → its text, and back. Ids are never reused: a lexeme keeps its id until a reload. */
  private readonly texts: string[] = [];
  private readonly ids = new ShardedMap<number>();
  /** Per entry: a lexeme id, and (one entry further per vector) where its positions start. */
  private lex: Int32Array = new Int32Array(1 << 16);
  private off: Uint32Array = new Uint32Array(1 << 16);
  private pos: Uint16Array = new Uint16Array(1 << 16);
  private lexUsed = 0;
  private posUsed = 0;
  /** Entries and positions held by vectors since replaced: reclaimed by compact(). */
  private lexFree = 0;
  private posFree = 0;
  /** Per slot: first entry and lexeme count (count + 1 entries are used). */
  private start: Uint32Array = new Uint32Array(1024);
  private count: Uint32Array = new Uint32Array(1024);

  /**
   * While a whole read fills an empty pool: vectors go into pages of a fixed size, and compacting
   * copies them into arrays of their size (plus a sixteenth). Growing one array by copying it whole would take
   * one step as long as the array (at a million agents, 100 MB or more in one go).
   */
  private pages: Page[] | undefined;
  /** Per slot, while paged: the page its vector is in (start is then within that page). */
  private pageOf: Uint32Array = new Uint32Array(0);

  /** Take vectors into pages until the next compacting (only while the pool is empty). */
  beginBulk(): void {
    if (this.lexUsed !== 0) throw new Error('TsvPool.beginBulk: the pool is not empty');
    this.pages = [];
    this.pageOf = new Uint32Array(this.start.length);
  }

  /** Store `v` as slot's vector (replacing any it had). */
  put(slot: number, v: TsVector): void {
    this.release(slot);
    const n = v.lexemes.length;
    const p = v.off[n] ?? 0;
    if (slot >= this.start.length) {
      this.start = grow32(this.start, Math.max(slot + 1, this.start.length * 2));
      this.count = grow32(this.count, this.start.length);
      if (this.pages !== undefined) this.pageOf = grow32(this.pageOf, this.start.length);
    }
    if (this.pages !== undefined) {
      this.putPaged(this.pages, slot, v, n, p);
      return;
    }
    this.ensure(n + 1, p);
    const at = this.lexUsed;
    const base = this.posUsed;
    for (let i = 0; i < n; i++) {
      this.lex[at + i] = this.idOf(v.lexemes[i] as string);
      this.off[at + i] = base + (v.off[i] as number);
    }
    this.off[at + n] = base + p;
    this.pos.set(v.pos.subarray(0, p), base);
    this.lexUsed += n + 1;
    this.posUsed += p;
    this.start[slot] = at;
    this.count[slot] = n + 1;
  }

  /** Forget slot's vector. */
  release(slot: number): void {
    const n = slot < this.count.length ? (this.count[slot] as number) : 0;
    if (n === 0) return;
    const at = this.start[slot] as number;
    const off = this.arraysOf(slot).off;
    this.lexFree += n;
    this.posFree += (off[at + n - 1] as number) - (off[at] as number);
    this.count[slot] = 0;
  }

  private putPaged(pages: Page[], slot: number, v: TsVector, n: number, p: number): void {
    let page = pages[pages.length - 1];
    if (
      page === undefined ||
      page.lexUsed + n + 1 > page.lex.length ||
      page.posUsed + p > page.pos.length
    ) {
      const entries = Math.max(PAGE_ENTRIES, n + 1);
      page = {
        lex: new Int32Array(entries),
        off: new Uint32Array(entries),
        pos: new Uint16Array(Math.max(PAGE_POSITIONS, p)),
        lexUsed: 0,
        posUsed: 0,
      };
      pages.push(page);
    }
    const at = page.lexUsed;
    const base = page.posUsed;
    for (let i = 0; i < n; i++) {
      page.lex[at + i] = this.idOf(v.lexemes[i] as string);
      page.off[at + i] = base + (v.off[i] as number);
    }
    page.off[at + n] = base + p;
    page.pos.set(v.pos.subarray(0, p), base);
    page.lexUsed += n + 1;
    page.posUsed += p;
    this.lexUsed += n + 1;
    this.posUsed += p;
    this.pageOf[slot] = pages.length - 1;
    this.start[slot] = at;
    this.count[slot] = n + 1;
  }

  /** The arrays slot's vector is in: its page while paged, else the pool's own. */
  private arraysOf(slot: number): Arrays {
    if (this.pages === undefined) return { lex: this.lex, off: this.off, pos: this.pos };
    return this.pages[this.pageOf[slot] as number] as Page;
  }

  /** Slot's vector, as ts-rank.ts reads one (positions stay in the shared array). */
  get(slot: number): TsVector {
    const entries = this.count[slot] as number;
    const at = this.start[slot] as number;
    const { lex, pos, off } = this.arraysOf(slot);
    const lexemes = new Array<string>(Math.max(0, entries - 1));
    for (let i = 0; i < lexemes.length; i++) lexemes[i] = this.texts[lex[at + i] as number]!;
    return { lexemes, pos, off: off.subarray(at, at + entries) };
  }

  /** True when slot holds exactly `v` (lexemes, positions and weights). */
  same(slot: number, v: TsVector): boolean {
    const entries = this.count[slot] as number;
    const n = v.lexemes.length;
    if (entries !== n + 1) return false;
    const at = this.start[slot] as number;
    const { lex, pos, off } = this.arraysOf(slot);
    const base = off[at] as number;
    for (let i = 0; i <= n; i++) {
      if ((off[at + i] as number) - base !== (v.off[i] ?? 0)) return false;
    }
    for (let i = 0; i < n; i++) {
      if (this.texts[lex[at + i] as number] !== v.lexemes[i]) return false;
    }
    const p = v.off[n] ?? 0;
    for (let j = 0; j < p; j++) if (pos[base + j] !== v.pos[j]) return false;
    return true;
  }

  /** The pool's own copy of a lexeme it holds. */
  text(lexeme: string): string | undefined {
    const id = this.ids.get(lexeme);
    return id === undefined ? undefined : this.texts[id];
  }

  /** Every lexeme's text, by id. */
  get lexemeTexts(): readonly string[] {
    return this.texts;
  }

  /** The id of a lexeme some vector held (ids are never reused), or undefined. */
  idFor(lexeme: string): number | undefined {
    return this.ids.get(lexeme);
  }

  /** Slot's lexemes: each one's id and its positions pos[start..end). */
  visit(
    slot: number,
    each: (id: number, pos: Uint16Array, start: number, end: number) => void
  ): void {
    const entries = slot < this.count.length ? (this.count[slot] as number) : 0;
    if (entries === 0) return;
    const at = this.start[slot] as number;
    const { lex, pos, off } = this.arraysOf(slot);
    for (let i = 0; i + 1 < entries; i++) {
      each(lex[at + i] as number, pos, off[at + i] as number, off[at + i + 1] as number);
    }
  }

  /** Rewrite the arrays without the space of replaced vectors, with a little room to grow. */
  compact(): void {
    const steps = this.compacting(Infinity);
    while (steps.next().done !== true);
  }

  /** compact(), yielding after about `budget` slots (the arrays are swapped in at the end). */
  *compacting(budget: number): Generator<void> {
    // A sixteenth of spare room: grown by the first vector put after a whole read, arrays of
    // hundreds of megabytes at a million agents held the event loop for about 100 ms.
    const entries = this.lexUsed - this.lexFree;
    const positions = this.posUsed - this.posFree;
    const lex = new Int32Array(entries + (entries >>> 4) + 1);
    const off = new Uint32Array(lex.length);
    const pos = new Uint16Array(positions + (positions >>> 4) + 1);
    const start = new Uint32Array(this.start.length);
    let l = 0;
    let p = 0;
    for (let slot = 0; slot < this.count.length; slot++) {
      if (slot % budget === budget - 1) yield;
      const entries = this.count[slot] as number;
      if (entries === 0) continue;
      const at = this.start[slot] as number;
      const src = this.arraysOf(slot);
      const from = src.off[at] as number;
      const to = src.off[at + entries - 1] as number;
      for (let i = 0; i < entries; i++) {
        lex[l + i] = src.lex[at + i] as number;
        off[l + i] = p + (src.off[at + i] as number) - from;
      }
      pos.set(src.pos.subarray(from, to), p);
      start[slot] = l;
      l += entries;
      p += to - from;
    }
    this.pages = undefined;
    this.pageOf = new Uint32Array(0);
    this.start = start;
    this.lex = lex;
    this.off = off;
    this.pos = pos;
    this.lexUsed = l;
    this.posUsed = p;
    this.lexFree = 0;
    this.posFree = 0;
  }

  private idOf(text: string): number {
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.texts.length;
      // A flat copy: the parser's string may be a slice of the whole tsvector's text.
      const flat = JSON.parse(JSON.stringify(text)) as string;
      this.texts.push(flat);
      this.ids.set(flat, id);
    }
    return id;
  }

  private ensure(entries: number, positions: number): void {
    if (this.lexFree > 1 << 16 && this.lexFree * 2 > this.lexUsed) this.compact();
    if (this.lexUsed + entries > this.lex.length) {
      const size = Math.max(this.lexUsed + entries, Math.ceil(this.lex.length * 1.5));
      const lex = new Int32Array(size);
      lex.set(this.lex.subarray(0, this.lexUsed));
      this.lex = lex;
      this.off = grow32(this.off, size);
    }
    if (this.posUsed + positions > this.pos.length) {
      const size = Math.max(this.posUsed + positions, Math.ceil(this.pos.length * 1.5));
      const pos = new Uint16Array(size);
      pos.set(this.pos.subarray(0, this.posUsed));
      this.pos = pos;
    }
  }
}

/** The three arrays a vector's entries and positions are read from. */
interface Arrays {
  readonly lex: Int32Array;
  readonly off: Uint32Array;
  readonly pos: Uint16Array;
}

interface Page extends Arrays {
  lexUsed: number;
  posUsed: number;
}

/** A page's entries (8 bytes each) and positions (2 bytes each): a few MB, allocated at once. */
const PAGE_ENTRIES = 1 << 18;
const PAGE_POSITIONS = 1 << 18;

function grow32(a: Uint32Array, size: number): Uint32Array {
  const b = new Uint32Array(size);
  b.set(a.subarray(0, Math.min(a.length, size)));
  return b;
}
