// News as text for people: one block per article with its source, time and sentiment label, and
// the sentiment reply naming how its label was made.
import { countryName } from './fips.js';
import type { Article } from './gdelt.js';
import {
  HEADLINE_THRESHOLD,
  LABEL_ICON,
  MEAN_THRESHOLD,
  METHOD_TEXT,
  TONE_THRESHOLD,
  type Label,
  type Method,
  type Scored,
} from './sentiment.js';

export interface Listed extends Article {
  sentiment: Scored;
}

export function spanText(timespan: string): string {
  const m = /^(\d+)(min|h|d|w|m)$/.exec(timespan);
  if (!m) return timespan;
  const unit = { min: 'minute', h: 'hour', d: 'day', w: 'week', m: 'month' }[m[2] as 'h'];
  return `past ${m[1]} ${unit}${m[1] === '1' ? '' : 's'}`;
}

export function scope(timespan: string, country: string | undefined): string {
  return [spanText(timespan), country ? `sources in ${countryName(country)}` : '']
    .filter((s) => s !== '')
    .join(', ');
}

function when(iso: string): string {
  return iso.replace('T', ' ').replace(/:\d{2}Z$/, ' UTC');
}

export function renderArticles(
  heading: string,
  articles: readonly Listed[],
  note: string | undefined
): string {
  if (articles.length === 0) {
    return `📰 No news found for ${heading}.${note ? `\nℹ️ GDELT said: “${note}”` : ''}`;
  }
  const lines = [`📰 News for ${heading}: ${articles.length}`];
  articles.forEach((a, i) => {
    lines.push('', `${i + 1}. ${a.title}`);
    const facts = [
      `🌐 ${a.domain}`,
      a.country ? `📍 ${a.country}` : '',
      `🕒 ${when(a.seenAt)}`,
      `${LABEL_ICON[a.sentiment.label]} ${a.sentiment.label}`,
    ];
    lines.push(`   ${facts.filter((f) => f !== '').join(' · ')}`);
    lines.push(`   🔗 ${a.url}`);
  });
  lines.push('', `Headline labels: ${METHOD_TEXT['local-afinn']}, ±${HEADLINE_THRESHOLD}.`);
  return lines.join('\n');
}

export interface SentimentSummary {
  label: Label | null;
  method: Method | null;
  /** GDELT's average tone over the period (gdelt-tone). */
  tone?: number;
  /** Tone points averaged (gdelt-tone). */
  points?: number;
  /** The mean AFINN sum of the headlines (local-afinn). */
  meanScore?: number;
  headlines: number;
}

export function renderSentiment(
  heading: string,
  s: SentimentSummary,
  headlines: readonly Listed[],
  note: string | undefined
): string {
  if (s.label === null || s.method === null) {
    return `📊 No news found to judge the sentiment of ${heading}.${note ? `\nℹ️ GDELT said: “${note}”` : ''}`;
  }
  const how =
    s.method === 'gdelt-tone'
      ? `from ${METHOD_TEXT['gdelt-tone']}: ${s.tone} over ${s.points} points (neutral within ±${TONE_THRESHOLD})`
      : `from the ${METHOD_TEXT['local-afinn']}: mean ${s.meanScore} over ${s.headlines} headlines (neutral within ±${MEAN_THRESHOLD}); GDELT had no tone for this query`;
  const lines = [
    `📊 Sentiment of news about ${heading}: ${LABEL_ICON[s.label]} ${s.label}`,
    `   ${how}`,
  ];
  if (headlines.length > 0) {
    lines.push('', `Recent headlines (labels: ${METHOD_TEXT['local-afinn']}):`);
    for (const h of headlines) {
      lines.push(`${LABEL_ICON[h.sentiment.label]} ${h.title} (${h.domain})`, `   🔗 ${h.url}`);
    }
  }
  return lines.join('\n');
}
