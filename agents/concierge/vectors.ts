// Card vectors, cached in memory per embedder, agent and card version: the directory changes
// rarely, requests often. No table: a restart re-embeds what it needs on first use.
import type { Embedder } from '../../infra/embed/index.js';
import type { VisibleAgent } from '../kit/index.js';
import { cardText, skillText, type CardVectors } from './rank.js';

/** Enough for a large directory; past it the oldest entries go (Map keeps insertion order). */
const MAX_ENTRIES = 20_000;

interface Entry {
  updatedAt: number;
  vectors: CardVectors;
}

export interface VectorCache {
  /** The query's vector and every agent's card vectors, embedding only what is not cached. */
  embed(
    embedder: Embedder,
    query: string,
    agents: readonly VisibleAgent[],
    signal?: AbortSignal
  ): Promise<{ query: Float32Array; agents: Array<{ agent: VisibleAgent; vectors: CardVectors }> }>;
  readonly size: number;
}

export function createVectorCache(maxEntries = MAX_ENTRIES): VectorCache {
  const entries = new Map<string, Entry>();
  return {
    get size() {
      return entries.size;
    },
    async embed(embedder, query, agents, signal) {
      const key = (a: VisibleAgent) => `${embedder.id}\u0000${a.id}`;
      const stamp = (a: VisibleAgent) => new Date(a.updatedAt).getTime();
      // Taken before embedding: adding the missing entries may evict some of these.
      const have = new Map<string, CardVectors>();
      const missing: VisibleAgent[] = [];
      for (const a of agents) {
        const e = entries.get(key(a));
        if (e?.updatedAt === stamp(a)) have.set(key(a), e.vectors);
        else missing.push(a);
      }
      // One call for the query and every missing card, so a remote embedder sees one request.
      const texts = [query];
      for (const a of missing) texts.push(cardText(a), ...a.skills.map(skillText));
      const vectors = await embedder.embed(texts, signal);
      let i = 1;
      for (const a of missing) {
        const card = vectors[i++]!;
        const skills = a.skills.map(() => vectors[i++]!);
        have.set(key(a), { card, skills });
        entries.delete(key(a));
        entries.set(key(a), { updatedAt: stamp(a), vectors: { card, skills } });
        if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      }
      return {
        query: vectors[0]!,
        agents: agents.map((a) => ({
          agent: a,
          vectors: have.get(key(a))!,
        })),
      };
    },
  };
}
