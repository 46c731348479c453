// Keeps this node's in-memory directory (directory-model.ts) current and answers searches from
// it. Every answer starts with a fresh read of the directory generation (shared by the requests
// that wait for one, as the answer cache does): when it moved, the agents the missed generations
// changed are read again (0014 migration) before the answer is computed, so an answer reflects
// every directory write that committed before the request, on any node or through any path.
// Until the first whole read has finished, and on a database whose collation does not sort ids
// in byte order, the caller answers with SQL instead (`undefined`).
import { readFileSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  BYTE_ORDER_COLLATIONS,
  directoryGeneration,
  expandQuery,
  foldValues,
  pruneDirectoryChanges,
  readDirectory,
  readDirectoryChunks,
  type AtGeneration,
  type DirectoryChunk,
  type DirectoryPage,
  type DirectorySearch,
  type NearbyAgent,
  type NearbySearch,
  type Queryable,
  type Viewer,
} from '../../infra/db/index.js';
import type { Logger } from '../../runtime/log/index.js';
import { GenerationReader } from './generation-reader.js';
import { DirectoryModel } from './directory-model.js';
import { nearbyModel, reserveNearbyScratch } from './model-nearby.js';
import { searchModel } from './model-search.js';
import { parseTsQuery, type TsQuery } from './text-search.js';

export interface LiveDirectoryOptions {
  /** Recorded changes kept, in generations (a node further behind reads the whole directory). */
  readonly keepGenerations?: number;
  /** How often this node prunes recorded changes, ms; 0 never. */
  readonly pruneEveryMs?: number;
  /** Folded parameter values and query expansions kept. */
  readonly maxKept?: number;
}

interface Expansion {
  readonly generation: bigint;
  readonly tq: TsQuery | null;
  readonly tx: TsQuery | null;
  /** False: PostgreSQL built a query this model cannot evaluate; use SQL for these words. */
  readonly supported: boolean;
}

interface Folded {
  readonly folded: string;
  readonly lower: string;
}

/** Rows a whole read fetches at a time (one round trip of the cursor each). */
const LOAD_CHUNK_ROWS = 500;

/**
 * A whole read runs in small steps (LOAD_STEP rows; FINISH_STEP units of the text index's build:
 * vectors, entries, comparisons), as many per turn of the event loop as fit in LOAD_SLICE_MS, so
 * requests (answered with SQL meanwhile) never wait long behind the load, on a slow machine too.
 */
const LOAD_STEP = 25;
const FINISH_STEP = 1000;
const LOAD_SLICE_MS = 4;

export class LiveDirectory {
  private model = new DirectoryModel();
  private generation: bigint | undefined;
  private usable = true;
  private syncing: Promise<void> | undefined;
  private loading: Promise<void> | undefined;
  private readonly generations: GenerationReader;
  private readonly folds = new Map<string, Folded>();
  private readonly expansions = new Map<string, Expansion>();
  private readonly pruneTimer: NodeJS.Timeout | undefined;
  private readonly maxKept: number;
  private fullReads = 0;
  /** The pieces of the last whole read this code ran without a turn of the loop. */
  private loadSlices = new SliceTimes();

  constructor(
    private readonly sql: Queryable,
    private readonly log: Logger,
    opts: LiveDirectoryOptions = {}
  ) {
    this.maxKept = opts.maxKept ?? 10_000;
    this.generations = new GenerationReader(() => directoryGeneration(sql));
    const every = opts.pruneEveryMs ?? 60_000;
    const keep = opts.keepGenerations ?? 10_000;
    if (every > 0) {
      this.pruneTimer = setInterval(() => {
        pruneDirectoryChanges(sql, keep).catch((err: unknown) =>
          log.warn({ err }, 'directory change pruning failed')
        );
      }, every);
      this.pruneTimer.unref();
    }
  }

  /** Begin the whole read in the background; answers use SQL until it is done. */
  start(): void {
    this.ensureLoading();
  }

  close(): void {
    if (this.pruneTimer !== undefined) clearInterval(this.pruneTimer);
  }

  /** The generation a kept answer must carry to still hold (a fresh read). */
  currentGeneration(): Promise<bigint> {
    return this.generations.current();
  }

  /** The search answered from memory, or undefined: answer it with SQL. */
  async search(
    viewer: Viewer,
    s: DirectorySearch
  ): Promise<AtGeneration<DirectoryPage> | undefined> {
    const folds = await this.foldAll([s.category, s.tag, s.skillTag, s.contentMode, s.owner]);
    for (let attempt = 0; attempt < 3; attempt++) {
      const generation = await this.synced();
      if (generation === undefined) return undefined;
      let tq: TsQuery | null = null;
      let tx: TsQuery | null = null;
      if (s.words.length > 0) {
        const e = await this.expansion(s.words, generation);
        if (!e.supported) return undefined;
        // The lexicon moved between the two reads: sync again so both are of one generation.
        if (e.generation !== this.generation) continue;
        tq = e.tq;
        tx = e.tx;
      }
      const result = searchModel(this.model, viewer, {
        search: s,
        tq,
        tx,
        categoryKey: s.category === undefined ? undefined : folds.get(s.category)?.folded,
        tagKey: s.tag === undefined ? undefined : folds.get(s.tag)?.folded,
        skillTagKey: s.skillTag === undefined ? undefined : folds.get(s.skillTag)?.folded,
        contentMode: s.contentMode === undefined ? undefined : folds.get(s.contentMode)?.lower,
        ownerTenantId: s.owner === undefined ? undefined : this.ownerTenant(folds.get(s.owner)),
      });
      return { result, generation: String(this.generation) };
    }
    return undefined;
  }

  /** The nearby search answered from memory, or undefined: answer it with SQL. */
  async nearby(
    viewer: Viewer,
    s: NearbySearch
  ): Promise<AtGeneration<{ agents: NearbyAgent[]; count: number }> | undefined> {
    const folds = await this.foldAll([s.tag, s.category]);
    const generation = await this.synced();
    if (generation === undefined) return undefined;
    const result = nearbyModel(this.model, viewer, {
      search: s,
      tagKey: s.tag === undefined ? undefined : folds.get(s.tag)?.folded,
      categoryKey: s.category === undefined ? undefined : folds.get(s.category)?.folded,
    });
    return { result, generation: String(generation) };
  }

  /** Figures for /debug. */
  stats(): {
    usable: boolean;
    loaded: boolean;
    generation: string | null;
    agents: number;
    fullReads: number;
    /** The longest piece of the last whole read run without a turn of the loop, ms. */
    longestLoadSliceMs: number;
    /** The longest such piece in this thread's CPU time, ms: what a loaded machine does not inflate. */
    longestLoadSliceCpuMs: number;
  } {
    return {
      usable: this.usable,
      loaded: this.generation !== undefined,
      generation: this.generation === undefined ? null : String(this.generation),
      agents: this.model.agentCount,
      fullReads: this.fullReads,
      longestLoadSliceMs: this.loadSlices.longestMs,
      longestLoadSliceCpuMs: this.loadSlices.longestCpuMs,
    };
  }

  private ownerTenant(owner: Folded | undefined): string | null {
    return owner === undefined ? null : this.model.ownerTenant(owner.lower);
  }

  /**
   * The model brought to a generation read after this call began, or undefined when it cannot
   * answer (not loaded yet, or not usable here).
   */
  private async synced(): Promise<bigint | undefined> {
    if (!this.usable) return undefined;
    if (this.generation === undefined) {
      this.ensureLoading();
      return undefined;
    }
    const wanted = await this.generations.current();
    try {
      while (this.generation < wanted) {
        const from: bigint | undefined = this.generation;
        this.syncing ??= this.readChanges().finally(() => {
          this.syncing = undefined;
        });
        await this.syncing;
        if (this.generation === from || this.generation === undefined) {
          // The database's generation went back (a restored backup), or the changes since this
          // model's are no longer all recorded: start over from a whole read, answering with SQL
          // until it is complete.
          this.generation = undefined;
          this.ensureLoading();
          return undefined;
        }
      }
    } catch (err) {
      // PostgreSQL answers the request itself then (or fails it the way a SQL answer would).
      this.log.warn({ err }, 'directory changes could not be read; answering with SQL');
      return undefined;
    }
    return this.generation;
  }

  private ensureLoading(): void {
    if (this.generation !== undefined || this.loading !== undefined || !this.usable) return;
    const started = Date.now();
    this.loading = this.loadWhole()
      .then((agents) => {
        if (agents === undefined) return;
        this.log.info({ agents, ms: Date.now() - started }, 'directory loaded into memory');
      })
      .catch((err: unknown) => this.log.warn({ err }, 'directory load failed; using SQL'))
      .finally(() => {
        this.loading = undefined;
      });
  }

  /**
   * Read the whole directory into a new model, a chunk per turn of the event loop, and swap it in
   * when complete (the old one, if any, answers nothing meanwhile: SQL does). The number of
   * agents, or undefined when this database cannot be answered from memory.
   */
  private async loadWhole(): Promise<number | undefined> {
    const model = new DirectoryModel();
    model.beginBulk();
    const slices = new SliceTimes();
    const onChunk = async (chunk: DirectoryChunk): Promise<void> => {
      for (const t of chunk.tenants) model.putTenant(t);
      // Rows in pieces of a few ms each (a new model: no agent to remove, and every location's
      // agent came in an earlier chunk).
      const { agents, locations } = chunk;
      for (let a = 0, l = 0; a < agents.length || l < locations.length;) {
        const t0 = slices.begin();
        do {
          if (a < agents.length) model.replaceAgents([], agents.slice(a, (a += LOAD_STEP)), []);
          else model.replaceAgents([], [], locations.slice(l, (l += LOAD_STEP)));
        } while (
          (a < agents.length || l < locations.length) &&
          performance.now() - t0 < LOAD_SLICE_MS
        );
        slices.end();
        await nextTurn();
      }
    };
    // Columns sized for the snapshot's agents at once: grown, they would be copied whole.
    const read = await readDirectoryChunks(this.sql, LOAD_CHUNK_ROWS, onChunk, (agents) =>
      model.reserve(agents)
    );
    if (!BYTE_ORDER_COLLATIONS.has(read.collation)) {
      this.usable = false;
      this.log.warn(
        { collation: read.collation },
        'directory searches use SQL: the database collation does not sort ids by bytes'
      );
      return undefined;
    }
    // Small steps, run until a slice's time is spent: slices stay short on a slow machine too.
    const steps = model.finishBulk(FINISH_STEP);
    for (let done = false; !done;) {
      const t0 = slices.begin();
      while (!(done = steps.next().done === true) && performance.now() - t0 < LOAD_SLICE_MS);
      slices.end();
      if (!done) await nextTurn();
    }
    this.loadSlices = slices;
    reserveNearbyScratch(model.cols.seen.length);
    this.model = model;
    this.generation = BigInt(read.generation);
    this.fullReads++;
    return model.agentCount;
  }

  private async readChanges(): Promise<void> {
    const read = await readDirectory(this.sql, String(this.generation));
    if (read.full) {
      // Too far behind to catch up change by change: a whole read replaces the model.
      this.generation = undefined;
      return;
    }
    const generation = BigInt(read.generation);
    if (this.generation !== undefined && generation <= this.generation) return;
    for (const t of read.tenants) this.model.putTenant(t);
    this.model.replaceAgents(read.changedAgents, read.agents, read.locations);
    this.generation = generation;
  }

  /** The typo expansions of `words`, computed by PostgreSQL at the model's generation. */
  private async expansion(words: readonly string[], generation: bigint): Promise<Expansion> {
    const key = JSON.stringify(words);
    const kept = this.expansions.get(key);
    if (kept !== undefined && kept.generation === generation) return kept;
    const read = await expandQuery(this.sql, words);
    const tq = read.tq === null ? null : parseTsQuery(read.tq);
    const tx = read.tx === null ? null : parseTsQuery(read.tx);
    const e: Expansion = {
      generation: BigInt(read.generation),
      tq,
      tx,
      supported: (read.tq === null || tq !== null) && (read.tx === null || tx !== null),
    };
    if (BigInt(read.generation) > generation) {
      // Newer than the model: bring the model up so the caller's retry can use it.
      await this.synced();
    }
    keep(this.expansions, key, e, this.maxKept);
    return e;
  }

  /** burrow_fold() and lower() of each defined value, read from PostgreSQL once per value. */
  private async foldAll(values: ReadonlyArray<string | undefined>): Promise<Map<string, Folded>> {
    const out = new Map<string, Folded>();
    const missing: string[] = [];
    for (const v of values) {
      if (v === undefined) continue;
      const kept = this.folds.get(v);
      if (kept === undefined) missing.push(v);
      else out.set(v, kept);
    }
    if (missing.length > 0) {
      for (const row of await foldValues(this.sql, missing)) {
        const f = { folded: row.folded, lower: row.lower };
        keep(this.folds, row.value, f, this.maxKept);
        out.set(row.value, f);
      }
    }
    return out;
  }
}

/** The longest of a series of synchronous pieces of work, in wall time and in CPU time. */
class SliceTimes {
  longestMs = 0;
  longestCpuMs = 0;
  private t0 = 0;
  private cpu0 = 0;

  begin(): number {
    this.cpu0 = threadCpuMs();
    this.t0 = performance.now();
    return this.t0;
  }

  end(): void {
    this.longestMs = Math.max(this.longestMs, performance.now() - this.t0);
    this.longestCpuMs = Math.max(this.longestCpuMs, threadCpuMs() - this.cpu0);
  }
}

/**
 * This thread's CPU time, ms: on Linux from /proc/thread-self/schedstat (time other processes
 * or V8's helper threads ran is not in it), elsewhere the process's.
 */
function threadCpuMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]) / 1e6;
  } catch {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1000;
  }
}

/** Bounded map: the oldest entry leaves first. */
function keep<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  if (map.size >= max) {
    const oldest = map.keys().next();
    if (oldest.done !== true) map.delete(oldest.value);
  }
  map.set(key, value);
}
