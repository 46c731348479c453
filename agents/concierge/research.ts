// `research:`: the same question to several agents at once, each given until one shared deadline,
// then one summary that cites every agent, including those that failed or ran out of time.
import type { Match } from './rank.js';

/** Agents asked by default: enough for a second opinion without flooding the directory. */
export const RESEARCH_AGENTS = 3;
export const MAX_RESEARCH_AGENTS = 6;
/** How long research waits for answers by default; an answer after it is reported as a timeout. */
export const RESEARCH_DEADLINE_MS = 20_000;

/** How one agent's part of the research ended. */
export type Settled =
  | { status: 'answered'; taskId: string; text: string }
  | { status: 'failed'; reason: string }
  | { status: 'timeout'; afterMs: number };

export type Outcome = Settled & { match: Match };

/**
 * Asks every match in parallel and settles each by the deadline. `ask` gets a signal aborted at
 * the deadline or with `signal`; it resolves with the answer's text or throws/resolves a failure.
 * The race against the deadline is ours, so a slow `ask` never holds the summary back.
 */
export async function fanOut(
  matches: readonly Match[],
  ask: (m: Match, signal: AbortSignal) => Promise<Settled>,
  deadlineMs: number,
  signal: AbortSignal
): Promise<Outcome[]> {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), deadlineMs);
  const onAbort = () => stop.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  const expired = new Promise<'deadline'>((resolve) => {
    if (stop.signal.aborted) resolve('deadline');
    stop.signal.addEventListener('abort', () => resolve('deadline'), { once: true });
  });
  try {
    return await Promise.all(
      matches.map(async (match): Promise<Outcome> => {
        const asked = ask(match, stop.signal).then(
          (o): Outcome => ({ ...o, match }),
          (err: unknown) => ({ match, status: 'failed' as const, reason: reasonOf(err) })
        );
        const first = await Promise.race([asked, expired]);
        if (first !== 'deadline') return first;
        return { match, status: 'timeout', afterMs: deadlineMs };
      })
    );
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    // Whatever is still running is canceled now, not at its own timeout.
    stop.abort();
  }
}

export interface Summary {
  query: string;
  asked: number;
  answered: number;
  /** One sentence from each answer, in rank order, with its citation number. */
  summary: Array<{ cite: number; sentence: string }>;
  sources: Array<{
    cite: number;
    agentId: string;
    alias: string | null;
    name: string;
    score: number;
    taskId: string;
    answer: string;
    excerpt: string;
  }>;
  missing: Array<{
    agentId: string;
    alias: string | null;
    name: string;
    score: number;
    status: 'failed' | 'timeout';
    reason: string;
  }>;
}

/**
 * An extractive summary: no model writes prose here, so the summary is each answer's lead
 * sentence with a citation, and each source keeps the first lines of its answer.
 */
export function synthesize(query: string, outcomes: readonly Outcome[]): Summary {
  const sources: Summary['sources'] = [];
  const missing: Summary['missing'] = [];
  for (const o of outcomes) {
    const who = {
      agentId: o.match.agent.id,
      alias: o.match.agent.alias,
      name: o.match.agent.name,
      score: round(o.match.score),
    };
    if (o.status === 'answered' && o.text.trim() !== '') {
      sources.push({
        cite: sources.length + 1,
        ...who,
        taskId: o.taskId,
        answer: o.text,
        excerpt: excerpt(o.text),
      });
    } else if (o.status === 'answered') {
      missing.push({ ...who, status: 'failed', reason: 'answered with no text' });
    } else if (o.status === 'failed') {
      missing.push({ ...who, status: 'failed', reason: o.reason });
    } else {
      missing.push({ ...who, status: 'timeout', reason: `no answer within ${seconds(o.afterMs)}` });
    }
  }
  return {
    query,
    asked: outcomes.length,
    answered: sources.length,
    summary: sources.map((s) => ({ cite: s.cite, sentence: leadSentence(s.answer) })),
    sources,
    missing,
  };
}

/** The first non-empty lines of an answer, at most `maxLines` lines and `maxChars` characters. */
export function excerpt(text: string, maxLines = 4, maxChars = 400): string {
  const lines = text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
  let out = lines.slice(0, maxLines).join('\n');
  if (out.length > maxChars) out = out.slice(0, maxChars - 1).trimEnd() + '…';
  else if (lines.length > maxLines) out += '\n…';
  return out;
}

/** The first sentence of an answer (or its first line), at most 200 characters. */
export function leadSentence(text: string): string {
  const first = text.trim().split('\n')[0]!.trim();
  const m = /^(.+?[.!?])(\s|$)/u.exec(first);
  const s = m ? m[1]! : first;
  return s.length > 200 ? s.slice(0, 199).trimEnd() + '…' : s;
}

export function round(score: number): number {
  return Math.round(score * 100) / 100;
}

export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
