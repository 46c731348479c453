// Sentiment as positive, neutral or negative (the spec), from GDELT's own tone where it has one,
// else from a local classifier: AFINN-165 word valences (the `sentiment` package: each English
// word scored -5…+5, a preceding negation flips a word) summed over a headline. Every label says
// which of the two made it.
import Sentiment from 'sentiment';

export type Label = 'positive' | 'neutral' | 'negative';
export type Method = 'gdelt-tone' | 'local-afinn';

/** GDELT's average tone (about -10…+10 in practice) beyond ±1.5 is a leaning; inside, neutral. */
export const TONE_THRESHOLD = 1.5;
/** A headline's AFINN sum of 2 or more (one clearly positive word) is positive; -2 or less, negative. */
export const HEADLINE_THRESHOLD = 2;
/** The mean of headline sums beyond ±0.5 leans; inside, neutral. */
export const MEAN_THRESHOLD = 0.5;

const afinn = new Sentiment();

export function toneLabel(tone: number): Label {
  if (tone >= TONE_THRESHOLD) return 'positive';
  if (tone <= -TONE_THRESHOLD) return 'negative';
  return 'neutral';
}

export interface Scored {
  label: Label;
  /** The AFINN sum. */
  score: number;
  method: 'local-afinn';
}

export function classify(text: string): Scored {
  const score = afinn.analyze(text).score;
  const label: Label =
    score >= HEADLINE_THRESHOLD
      ? 'positive'
      : score <= -HEADLINE_THRESHOLD
        ? 'negative'
        : 'neutral';
  return { label, score, method: 'local-afinn' };
}

/** The overall label of several headlines by the local classifier: their mean AFINN sum. */
export function overall(scores: readonly number[]): { label: Label; mean: number } | undefined {
  if (scores.length === 0) return undefined;
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  const label: Label =
    mean >= MEAN_THRESHOLD ? 'positive' : mean <= -MEAN_THRESHOLD ? 'negative' : 'neutral';
  return { label, mean: Math.round(mean * 100) / 100 };
}

export function mean(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  return Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 100) / 100;
}

export const LABEL_ICON: Record<Label, string> = {
  positive: '🟢',
  neutral: '⚪',
  negative: '🔴',
};

export const METHOD_TEXT: Record<Method, string> = {
  'gdelt-tone': 'GDELT’s average tone',
  'local-afinn': 'local classifier (AFINN-165 word valences on headlines)',
};
