// Sentiment of Reddit posts as positive, neutral or negative. Reddit gives no tone of its own, so
// every label is the local classifier's: AFINN-165 word valences (the `sentiment` package: each
// English word -5…+5, a preceding negation flips it) summed over a post's title and the start of
// its text; the reply says so.
import Sentiment from 'sentiment';

export type Label = 'positive' | 'neutral' | 'negative';
export const METHOD = 'local-afinn';
export const METHOD_TEXT = 'local classifier (AFINN-165 word valences on titles and text)';

/** A post's sum of 2 or more (one clearly positive word) is positive; -2 or less, negative. */
export const POST_THRESHOLD = 2;
/** The mean of the posts' sums beyond ±0.5 leans; inside, neutral. */
export const MEAN_THRESHOLD = 0.5;

const afinn = new Sentiment();

export interface Scored {
  label: Label;
  score: number;
  method: typeof METHOD;
}

export function classify(text: string): Scored {
  const score = afinn.analyze(text).score;
  const label: Label =
    score >= POST_THRESHOLD ? 'positive' : score <= -POST_THRESHOLD ? 'negative' : 'neutral';
  return { label, score, method: METHOD };
}

export interface Overall {
  label: Label;
  meanScore: number;
  counts: Record<Label, number>;
  posts: number;
  method: typeof METHOD;
}

export function overall(scored: readonly Scored[]): Overall | undefined {
  if (scored.length === 0) return undefined;
  const mean = scored.reduce((a, s) => a + s.score, 0) / scored.length;
  const counts: Record<Label, number> = { positive: 0, neutral: 0, negative: 0 };
  for (const s of scored) counts[s.label]++;
  const label: Label =
    mean >= MEAN_THRESHOLD ? 'positive' : mean <= -MEAN_THRESHOLD ? 'negative' : 'neutral';
  return {
    label,
    meanScore: Math.round(mean * 100) / 100,
    counts,
    posts: scored.length,
    method: METHOD,
  };
}

export const LABEL_ICON: Record<Label, string> = {
  positive: '🟢',
  neutral: '⚪',
  negative: '🔴',
};
