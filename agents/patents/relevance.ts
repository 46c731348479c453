// Relevance percentages (interface-spec: patents' results carry them): from the upstream's score
// when every result has one, otherwise the cosine of the hub's embedder (infra/embed) between the
// request and each patent's title and abstract. The reply states which.
import { cosine, type Embedder } from '../../infra/embed/index.js';
import type { Patent } from './patent.js';

export interface Ranked extends Patent {
  /** 0–100; null when nothing was ranked (a list by assignee without a topic). */
  relevance: number | null;
}

export type RelevanceBasis =
  | { method: 'upstream-score' }
  | { method: 'embedder'; embedder: string; over: 'title and abstract' }
  | { method: 'none' };

/** The text a patent is judged by. */
export function patentText(p: Patent): string {
  return p.abstract ? `${p.title}. ${p.abstract}` : p.title;
}

/** Best first (ties keep the upstream's order). */
export async function rank(
  patents: readonly Patent[],
  reference: string,
  embedder: Embedder,
  signal: AbortSignal
): Promise<{ ranked: Ranked[]; basis: RelevanceBasis }> {
  if (patents.length === 0) return { ranked: [], basis: { method: 'none' } };
  let scores: number[];
  let basis: RelevanceBasis;
  if (patents.every((p) => typeof p.score === 'number')) {
    const max = Math.max(...patents.map((p) => p.score!));
    scores = patents.map((p) => (max > 0 ? (p.score! / max) * 100 : 0));
    basis = { method: 'upstream-score' };
  } else {
    const [ref, ...vs] = await embedder.embed([reference, ...patents.map(patentText)], signal);
    scores = vs.map((v) => Math.max(0, Math.min(1, cosine(ref!, v))) * 100);
    basis = { method: 'embedder', embedder: embedder.id, over: 'title and abstract' };
  }
  const ranked = patents
    .map((p, i) => ({ p: { ...p, relevance: Math.round(scores[i]!) }, i }))
    .sort((a, b) => b.p.relevance - a.p.relevance || a.i - b.i)
    .map((x) => x.p);
  return { ranked, basis };
}

export function basisText(b: RelevanceBasis, source: string): string {
  switch (b.method) {
    case 'upstream-score':
      return `Relevance: ${source}'s own score, as a percentage of the best match.`;
    case 'embedder':
      return (
        `Relevance: the hub's embedder (${b.embedder}) over title and abstract ` +
        `(title alone where ${source} gives no abstract); ${source} gives no score.`
      );
    case 'none':
      return '';
    default: {
      const never: never = b;
      throw new Error(`unknown relevance basis ${String(never)}`);
    }
  }
}
