// Fakes for the concierge's unit tests: agents with cards, and a tiny deterministic embedder
// (bag of words over a fixed vocabulary) whose cosines a reader can work out by hand.
import type { Embedder } from '../../infra/embed/index.js';
import type { VisibleAgent } from '../kit/index.js';

export function agent(p: Partial<VisibleAgent> & { id: string; name: string }): VisibleAgent {
  return {
    alias: null,
    tenantId: 'tenant-a',
    description: '',
    category: null,
    tags: [],
    skills: [],
    updatedAt: new Date('2026-01-01T00:00:00Z'),
    ...p,
  };
}

/** One dimension per vocabulary word; unknown words are dropped; vectors are unit length. */
export function vocabularyEmbedder(
  vocabulary: readonly string[],
  id = 'fake-vocab'
): Embedder & {
  calls: string[][];
} {
  const index = new Map(vocabulary.map((w, i) => [w, i]));
  const calls: string[][] = [];
  return {
    id,
    calls,
    embed(texts) {
      calls.push([...texts]);
      return Promise.resolve(
        texts.map((t) => {
          const v = new Float32Array(vocabulary.length);
          for (const w of t.toLowerCase().match(/[a-z]+/g) ?? []) {
            const i = index.get(w);
            if (i !== undefined) v[i]! += 1;
          }
          const norm = Math.hypot(...v);
          return norm === 0 ? v : v.map((x) => x / norm);
        })
      );
    },
  };
}
