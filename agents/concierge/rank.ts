// Ranking the directory against a request (decisions.md §10): each agent's card and each of its
// skills are embedded; an agent scores the best cosine of the query with its card or any one skill,
// plus a small, capped boost for words of the query that name the agent (its tags, alias, name).
import { cosine } from '../../infra/embed/index.js';
import type { VisibleAgent } from '../kit/index.js';
import { words } from './parse.js';

/**
 * The least score that counts as a match. With the local hash embedder, unrelated requests score up
 * to about 0.2 against a card (a few hashed features collide; nonsense words score highest, having
 * the fewest features), while requests an agent is for score 0.4 and more; remote models spread
 * unrelated texts over 0.05–0.2 as well. Callers who know their embedder may pass `min_score`.
 */
export const MIN_SCORE = 0.25;
/** Per distinct query word that names the agent. */
export const WORD_BOOST = 0.05;
/** Word hits break near-ties and rescue terse cards; they never outweigh a real semantic match. */
export const MAX_BOOST = 0.15;

/** The vectors of one agent: its whole card, and each skill in card order. */
export interface CardVectors {
  card: Float32Array;
  skills: Float32Array[];
}

export interface Match {
  agent: VisibleAgent;
  /** similarity + boost, the ranking key. */
  score: number;
  /** The best cosine of the query with the card or one skill. */
  similarity: number;
  boost: number;
  why: {
    /** Tags of the agent named by the query. */
    tags: string[];
    /** Skills most like the query (by cosine), or named by it; best first, at most three. */
    skills: string[];
    /** Query words that hit the agent's alias or name. */
    names: string[];
  };
}

/** The text embedded for an agent's card: everything a caller would read to pick it. */
export function cardText(a: VisibleAgent): string {
  const lines = [
    `${a.name}${a.alias ? ` (${a.alias})` : ''}: ${a.description}`,
    a.category ? `Category: ${a.category}` : '',
    a.tags.length > 0 ? `Tags: ${a.tags.join(', ')}` : '',
    ...a.skills.map(skillText),
  ];
  return lines.filter((l) => l !== '').join('\n');
}

export function skillText(s: VisibleAgent['skills'][number]): string {
  const parts = [`${s.name}: ${s.description}`];
  if (s.tags.length > 0) parts.push(`Tags: ${s.tags.join(', ')}`);
  if (s.examples.length > 0) parts.push(`Examples: ${s.examples.join('; ')}`);
  return parts.join('\n');
}

/** Every agent scored against the query, best first (ties by id, so the order is stable). */
export function rank(
  query: string,
  queryVector: Float32Array,
  agents: ReadonlyArray<{ agent: VisibleAgent; vectors: CardVectors }>
): Match[] {
  const q = new Set(words(query));
  const matches = agents.map(({ agent, vectors }) => score(q, queryVector, agent, vectors));
  return matches.sort((x, y) => y.score - x.score || (x.agent.id < y.agent.id ? -1 : 1));
}

/** Matches at or above the minimum, at most `limit`. */
export function above(matches: readonly Match[], minScore: number, limit: number): Match[] {
  return matches.filter((m) => m.score >= minScore).slice(0, limit);
}

function score(
  q: ReadonlySet<string>,
  qv: Float32Array,
  agent: VisibleAgent,
  vectors: CardVectors
): Match {
  const skillScores = agent.skills.map((s, i) => ({
    skill: s,
    cos: vectors.skills[i] ? cosine(qv, vectors.skills[i]) : 0,
    named: hits(q, [s.name, ...s.tags]).length > 0,
  }));
  const similarity = Math.max(cosine(qv, vectors.card), ...skillScores.map((s) => s.cos), 0);
  const tags = agent.tags.filter((t) => hits(q, [t]).length > 0);
  const names = hits(q, [agent.alias ?? '', agent.name]);
  const distinct = new Set([...tags.flatMap((t) => hits(q, [t])), ...names]);
  const boost = Math.min(MAX_BOOST, WORD_BOOST * distinct.size);
  const skills = skillScores
    .filter((s) => s.named || s.cos >= MIN_SCORE)
    .sort((x, y) => y.cos - x.cos)
    .slice(0, 3)
    .map((s) => s.skill.name);
  return { agent, score: similarity + boost, similarity, boost, why: { tags, skills, names } };
}

/**
 * Words too common in agent names and requests to say anything about the agent ("Weather Agent"
 * must not be boosted for every request that says "agent").
 */
const STOP = new Set(
  (
    'the and for with from about this that what which who how when where will can you your our ' +
    'please agent bot official'
  ).split(' ')
);

/** The query words found among the words of `texts`. */
function hits(q: ReadonlySet<string>, texts: readonly string[]): string[] {
  const found = new Set<string>();
  for (const t of texts) {
    for (const w of words(t)) if (w.length >= 3 && !STOP.has(w) && q.has(w)) found.add(w);
  }
  return [...found];
}
