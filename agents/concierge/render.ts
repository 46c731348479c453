// The concierge's replies: text for people, and the same content as JSON data.
import type { VisibleAgent } from '../kit/index.js';
import type { Match } from './rank.js';
import { round, type Summary } from './research.js';

/** "Kanban (kanban, agent-kanban-official)": the name a person knows, and both ways to call it. */
export function label(a: Pick<VisibleAgent, 'id' | 'alias' | 'name'>): string {
  return a.alias ? `${a.name} (${a.alias}, ${a.id})` : `${a.name} (${a.id})`;
}

export function matchData(m: Match) {
  return {
    agentId: m.agent.id,
    alias: m.agent.alias,
    name: m.agent.name,
    description: m.agent.description,
    score: round(m.score),
    similarity: round(m.similarity),
    boost: round(m.boost),
    why: m.why,
  };
}

export interface Routed {
  query: string;
  match: Match;
  /** The runners-up, for the JSON form: how close the choice was. */
  others: Match[];
  taskId: string;
  answer: string;
}

export function renderRouted(r: Routed) {
  const text = `🛎️ Routed to ${label(r.match.agent)} — score ${round(r.match.score).toFixed(2)}\n\n${r.answer}`;
  const data = {
    mode: 'route',
    query: r.query,
    agent: { agentId: r.match.agent.id, alias: r.match.agent.alias, name: r.match.agent.name },
    score: round(r.match.score),
    taskId: r.taskId,
    answer: r.answer,
    candidates: [r.match, ...r.others].map(matchData),
  };
  return { text, data };
}

export function renderResearch(s: Summary) {
  const lines = [
    `🔎 Research: ${s.answered} of ${s.asked} agent${s.asked === 1 ? '' : 's'} answered “${s.query}”`,
  ];
  if (s.summary.length > 0) {
    lines.push('', '📋 Summary', ...s.summary.map((x) => `• ${x.sentence} [${x.cite}]`));
  }
  for (const src of s.sources) {
    lines.push(
      '',
      `[${src.cite}] ${label({ id: src.agentId, alias: src.alias, name: src.name })} — score ${src.score.toFixed(2)}`,
      ...src.excerpt.split('\n').map((l) => `  ${l}`)
    );
  }
  if (s.missing.length > 0) {
    lines.push('', '⚠️ No answer from:');
    for (const m of s.missing) {
      const why = m.status === 'timeout' ? `⏱️ timed out: ${m.reason}` : `❌ failed: ${m.reason}`;
      lines.push(`• ${label({ id: m.agentId, alias: m.alias, name: m.name })} — ${why}`);
    }
  }
  return { text: lines.join('\n'), data: { mode: 'research', ...s } };
}

export function renderFind(query: string, matches: readonly Match[], minScore: number) {
  const data = { mode: 'find', query, minScore, matches: matches.map(matchData) };
  if (matches.length === 0) {
    return {
      text: `🔍 No agent matches “${query}” (minimum score ${minScore.toFixed(2)}). Try other words, or the name of a skill.`,
      data,
    };
  }
  const lines = [`🔍 ${matches.length} agent${matches.length === 1 ? '' : 's'} match “${query}”:`];
  matches.forEach((m, i) => {
    lines.push(
      '',
      `${i + 1}. ${label(m.agent)} — score ${round(m.score).toFixed(2)}`,
      `   ${m.agent.description}`,
      `   why: ${why(m)}`
    );
  });
  return { text: lines.join('\n'), data };
}

function why(m: Match): string {
  const parts: string[] = [];
  if (m.why.tags.length > 0) parts.push(`tags ${m.why.tags.join(', ')}`);
  if (m.why.skills.length > 0) parts.push(`skills ${m.why.skills.map((s) => `“${s}”`).join(', ')}`);
  if (m.why.names.length > 0) parts.push(`named by ${m.why.names.join(', ')}`);
  return parts.length > 0 ? parts.join('; ') : 'its card as a whole';
}
