// Finished directory answers (search, nearby, categories) kept per node, each with the directory
// generation it was read at (0013 migration). An answer is served again only after a fresh read of
// the generation — started after the request arrived — shows no directory write committed since,
// on any node or through any path (PATCH, CLI, update_card, ratings, usage recount). Keys hold the
// viewer's tenant, so one tenant's private agents never reach another's answer.

export interface AnswerCacheOptions {
  /** Upper bound on the kept bodies and keys, in UTF-16 code units (≈ bytes for JSON). */
  readonly maxChars: number;
}

interface Entry {
  readonly generation: bigint;
  readonly body: string;
}

/** Least recently used first out, bounded by size. */
export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  private chars = 0;

  constructor(private readonly options: AnswerCacheOptions) {}

  /** The body kept for `key` if it was read at `generation`; a stale one is dropped. */
  get(key: string, generation: bigint): string | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.generation !== generation) {
      if (entry !== undefined && entry.generation < generation) this.delete(key, entry);
      return undefined;
    }
    // Re-inserted: Map order is the recency order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.body;
  }

  /** Whether anything is kept for `key` (at any generation). */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Keep `body`, read at `generation`, unless a newer answer is kept already. */
  set(key: string, generation: bigint, body: string): void {
    const size = key.length + body.length;
    if (size > this.options.maxChars) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      if (old.generation > generation) return;
      this.delete(key, old);
    }
    this.entries.set(key, { generation, body });
    this.chars += size;
    for (const [k, e] of this.entries) {
      if (this.chars <= this.options.maxChars) break;
      this.delete(k, e);
    }
  }

  /** How many answers and how many characters are kept. */
  size(): { entries: number; chars: number } {
    return { entries: this.entries.size, chars: this.chars };
  }

  private delete(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.chars -= key.length + entry.body.length;
  }
}
