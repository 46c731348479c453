// The default embedder (decisions.md §10): deterministic, local, no model download. A text becomes
// a signed feature-hashed vector of its stemmed words, their concept groups, word pairs and
// character trigrams, scaled to unit length. It ranks by shared words, word forms (stems, trigrams
// for typos) and topic (concept groups); it has no grasp of meaning beyond that, which is why an
// OpenAI-compatible endpoint can replace it (EMBEDDINGS_URL).
import type { Embedder } from './embedder.js';
import { CONCEPT_GROUPS, STOPWORDS } from './concepts.js';

const DIMS = 512;
/** Weights: a concept hit counts most, the exact stem a bit more on top, trigrams least. */
const W_CONCEPT = 1;
const W_STEM = 0.6;
const W_PAIR = 0.4;
const W_TRIGRAMS = 0.8;

export function createLocalEmbedder(): Embedder {
  return {
    id: 'local-hash-v1',
    embed: (texts) => Promise.resolve(texts.map(embedText)),
  };
}

/** Light suffix stripping: consistent on both sides matters more than linguistic accuracy. */
export function stem(w: string): string {
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) return w.slice(0, -3) + 'y';
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ing') && w.length > 5) return undouble(w.slice(0, -3));
  if (w.endsWith('ed') && w.length > 4) return undouble(w.slice(0, -2));
  if (w.endsWith('ly') && w.length > 5) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) {
    return w.slice(0, -1);
  }
  return w;
}

function undouble(w: string): string {
  const n = w.length;
  return n > 3 && w[n - 1] === w[n - 2] && !'lsz'.includes(w[n - 1]!) ? w.slice(0, -1) : w;
}

const CONCEPTS: ReadonlyMap<string, string> = (() => {
  const m = new Map<string, string>();
  for (const group of CONCEPT_GROUPS) {
    const head = `~${group[0]!}`;
    for (const word of group) {
      const s = stem(word);
      if (!m.has(s)) m.set(s, head);
    }
  }
  return m;
})();

export function words(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const out: string[] = [];
  for (const w of folded.match(/[a-z0-9]+/g) ?? []) {
    if (!STOPWORDS.has(w)) out.push(stem(w));
  }
  return out;
}

function embedText(text: string): Float32Array {
  const v = new Float32Array(DIMS);
  const stems = words(text);
  let prev: string | undefined;
  for (const s of stems) {
    const concept = CONCEPTS.get(s);
    add(v, concept ?? s, W_CONCEPT);
    if (concept !== undefined) add(v, s, W_STEM);
    if (prev !== undefined) add(v, `${prev} ${concept ?? s}`, W_PAIR);
    prev = concept ?? s;
    const padded = `#${s}#`;
    const n = padded.length - 2;
    const w = W_TRIGRAMS / Math.sqrt(n);
    for (let i = 0; i < n; i++) add(v, `3:${padded.slice(i, i + 3)}`, w);
  }
  let norm = 0;
  for (let i = 0; i < DIMS; i++) norm += v[i]! * v[i]!;
  if (norm > 0) {
    const k = 1 / Math.sqrt(norm);
    for (let i = 0; i < DIMS; i++) v[i]! *= k;
  }
  return v;
}

/** Signed feature hashing: the sign bit keeps colliding features from only ever adding up. */
function add(v: Float32Array, feature: string, weight: number): void {
  let h = 0x811c9dc5;
  for (let i = 0; i < feature.length; i++) {
    h ^= feature.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h >>>= 0;
  const i = h % DIMS;
  v[i] = v[i]! + (h & 0x80000000 ? -weight : weight);
}
