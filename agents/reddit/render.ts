// Reddit posts as text for people: one block per post with its subreddit, score, comments, time
// and sentiment label; the sentiment reply says how its label was made.
import type { Listed, Post } from './listing.js';
import {
  LABEL_ICON,
  MEAN_THRESHOLD,
  METHOD_TEXT,
  POST_THRESHOLD,
  type Overall,
  type Scored,
} from './sentiment.js';

export interface Shown extends Post {
  sentiment: Scored;
}

function when(iso: string): string {
  return iso.replace('T', ' ').replace(/:\d{2}Z$/, ' UTC');
}

function hiddenLine(r: Listed): string {
  return r.hidden > 0
    ? `\n🔞 ${r.hidden} post${r.hidden === 1 ? '' : 's'} marked over 18 left out.`
    : '';
}

export function renderPosts(heading: string, posts: readonly Shown[], r: Listed): string {
  if (r.unavailable !== undefined) {
    return `👽 ${heading} is not available on Reddit (${r.unavailable}).`;
  }
  if (posts.length === 0) return `👽 No Reddit posts found for ${heading}.${hiddenLine(r)}`;
  const lines = [`👽 Reddit posts for ${heading}: ${posts.length}`];
  posts.forEach((p, i) => {
    lines.push('', `${i + 1}. ${p.title}`);
    const facts = [
      `r/${p.subreddit}`,
      `⬆️ ${p.score}`,
      `💬 ${p.comments}`,
      `🕒 ${when(p.createdAt)}`,
      p.flair ? `🏷️ ${p.flair}` : '',
      `${LABEL_ICON[p.sentiment.label]} ${p.sentiment.label}`,
    ];
    lines.push(`   ${facts.filter((f) => f !== '').join(' · ')}`);
    if (p.excerpt) lines.push(`   ${p.excerpt}`);
    lines.push(`   🔗 ${p.permalink}`);
    if (p.link !== p.permalink) lines.push(`   ↗️ ${p.link}`);
  });
  lines.push('', `Labels: ${METHOD_TEXT}, ±${POST_THRESHOLD}.${hiddenLine(r)}`);
  return lines.join('\n');
}

export function renderSentiment(
  heading: string,
  o: Overall | undefined,
  posts: readonly Shown[],
  r: Listed
): string {
  if (r.unavailable !== undefined) {
    return `👽 ${heading} is not available on Reddit (${r.unavailable}).`;
  }
  if (o === undefined) return `📊 No Reddit posts found to judge the sentiment of ${heading}.`;
  const lines = [
    `📊 Reddit sentiment about ${heading}: ${LABEL_ICON[o.label]} ${o.label}`,
    `   from the ${METHOD_TEXT} (Reddit has no tone of its own): mean ${o.meanScore} over ` +
      `${o.posts} posts (neutral within ±${MEAN_THRESHOLD}); 🟢 ${o.counts.positive} · ` +
      `⚪ ${o.counts.neutral} · 🔴 ${o.counts.negative}`,
    '',
  ];
  for (const p of posts.slice(0, 5)) {
    lines.push(`${LABEL_ICON[p.sentiment.label]} ${p.title} (r/${p.subreddit}, ⬆️ ${p.score})`);
    lines.push(`   🔗 ${p.permalink}`);
  }
  return lines.join('\n');
}
