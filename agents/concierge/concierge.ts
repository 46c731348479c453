// The three things the concierge does, on the hub's directory and forwarding (kit services):
// route to the best agent, research with several, find without calling anyone. Every call goes
// out on behalf of the verified sender, so the agents called see the caller, not the concierge.
import { OFFICIAL_ALIASES } from '../../infra/db/index.js';
import { ensureHubError } from '../../runtime/errors/index.js';
import { fail, type AgentContext, type AgentRequest, type VisibleAgent } from '../kit/index.js';
import { above, rank, MIN_SCORE, type Match } from './rank.js';
import { label, renderFind, renderResearch, renderRouted } from './render.js';
import { fanOut, round, seconds, synthesize, type Settled } from './research.js';
import { createVectorCache } from './vectors.js';

export const CONCIERGE_ID = 'agent-concierge-official';
/** The research agent (agent-research): cross-dataset research over the entity graph. */
export const RESEARCH_AGENT_ID = OFFICIAL_ALIASES.research;

/**
 * The agents a `research:` question goes to. The research agent asks the public-data agents
 * itself and names every dataset it used: when it is the best match, its one answer is the
 * research, not one voice among several.
 */
export function whomToAsk(matched: readonly Match[]): Match[] {
  return matched[0]?.agent.id === RESEARCH_AGENT_ID ? matched.slice(0, 1) : [...matched];
}
/** Below the 60 s a blocking caller waits, so the caller hears why rather than a bare timeout. */
export const ROUTE_TIMEOUT_MS = 45_000;
export const FIND_LIMIT = 5;

const cache = createVectorCache();

export interface RouteOptions {
  /** What to send, when it differs from the query used for matching. */
  message?: string;
  minScore?: number;
  timeoutMs?: number;
}

export async function route(query: string, o: RouteOptions, req: AgentRequest, ctx: AgentContext) {
  const minScore = o.minScore ?? MIN_SCORE;
  const ranked = await candidates(query, req, ctx);
  const best = ranked[0];
  if (!best || best.score < minScore) fail(noMatch(query, best, minScore));
  const timeoutMs = o.timeoutMs ?? ROUTE_TIMEOUT_MS;
  const started = ctx.now();
  let answer;
  try {
    answer = await ctx.hub.forward(req.envelope, {
      agentId: best.agent.id,
      text: o.message ?? query,
      signal: ctx.signal,
      timeoutMs,
    });
  } catch (err) {
    fail(`${label(best.agent)} ${errorReason(err, ctx)}`);
  }
  if (answer.state !== 'completed') {
    // The hub cancels a forwarded task that runs out of time; say so rather than "canceled".
    const late = answer.state === 'canceled' && ctx.now() - started >= timeoutMs;
    fail(
      `${label(best.agent)} ${late ? `did not answer within ${seconds(timeoutMs)}` : stateReason(answer, timeoutMs)}`
    );
  }
  return renderRouted({
    query,
    match: best,
    others: above(ranked.slice(1), minScore, 2),
    taskId: answer.taskId,
    answer: answer.text,
  });
}

export interface ResearchOptions {
  deadlineMs: number;
  maxAgents: number;
  minScore?: number;
}

export async function research(
  query: string,
  o: ResearchOptions,
  req: AgentRequest,
  ctx: AgentContext
) {
  const minScore = o.minScore ?? MIN_SCORE;
  const ranked = await candidates(query, req, ctx);
  const matched = above(ranked, minScore, o.maxAgents);
  if (matched.length === 0) fail(noMatch(query, ranked[0], minScore));
  const chosen = whomToAsk(matched);
  const outcomes = await fanOut(
    chosen,
    async (m, signal): Promise<Settled> => {
      try {
        const a = await ctx.hub.forward(req.envelope, {
          agentId: m.agent.id,
          text: query,
          signal,
          timeoutMs: o.deadlineMs,
        });
        if (a.state === 'completed') return { status: 'answered', taskId: a.taskId, text: a.text };
        if (!SETTLED.has(a.state) || (a.state === 'canceled' && signal.aborted)) {
          return { status: 'timeout', afterMs: o.deadlineMs };
        }
        return { status: 'failed', reason: bare(stateReason(a, o.deadlineMs)) };
      } catch (err) {
        if (signal.aborted) return { status: 'timeout', afterMs: o.deadlineMs };
        return { status: 'failed', reason: bare(errorReason(err, ctx)) };
      }
    },
    o.deadlineMs,
    ctx.signal
  );
  if (ctx.signal.aborted) fail('the research was canceled before the agents answered');
  const summary = synthesize(query, outcomes);
  if (summary.answered === 0) {
    const reasons = summary.missing.map(
      (m) => `${label({ id: m.agentId, alias: m.alias, name: m.name })}: ${m.reason}`
    );
    fail(`no agent answered “${query}” (${summary.asked} asked) — ${reasons.join('; ')}`);
  }
  return renderResearch(summary);
}

export async function find(
  query: string,
  o: { limit: number; minScore?: number },
  req: AgentRequest,
  ctx: AgentContext
) {
  const minScore = o.minScore ?? MIN_SCORE;
  const ranked = await candidates(query, req, ctx);
  return renderFind(query, above(ranked, minScore, o.limit), minScore);
}

/**
 * The directory as the sender sees it, ranked. The concierge itself is left out (it would only
 * route to itself), and so is the sender: a request is never bounced back to whoever sent it.
 */
async function candidates(query: string, req: AgentRequest, ctx: AgentContext): Promise<Match[]> {
  const visible = await ctx.hub.visibleAgents(req.envelope);
  const others = visible.filter(
    (a: VisibleAgent) => a.id !== CONCIERGE_ID && a.id !== req.senderId
  );
  if (others.length === 0) return [];
  const embedded = await cache.embed(ctx.embedder, query, others, ctx.signal);
  return rank(query, embedded.query, embedded.agents);
}

function noMatch(query: string, best: Match | undefined, minScore: number): string {
  const closest = best
    ? ` (closest: ${label(best.agent)} at ${round(best.score).toFixed(2)}, below the minimum ${minScore.toFixed(2)})`
    : ' (no agent is visible to you)';
  return `no agent matched “${query}”${closest}; say it in other words, or browse with "find: <words>"`;
}

/** States after which a task will not change by itself; anything else means it ran out of time. */
const SETTLED = new Set(['completed', 'failed', 'canceled', 'rejected', 'input-required']);

function stateReason(a: { state: string; text: string; taskId: string }, timeoutMs: number) {
  const said = a.text.trim() === '' ? '' : `: ${a.text.trim()}`;
  switch (a.state) {
    case 'failed':
      return `failed${said || ': no reason given'}`;
    case 'rejected':
      return `rejected the request${said}`;
    case 'canceled':
      return `canceled the task${said}`;
    case 'input-required':
      return `needs more input${said} — continue with it directly (task ${a.taskId})`;
    default:
      return `did not answer within ${seconds(timeoutMs)}`;
  }
}

function errorReason(err: unknown, ctx: AgentContext): string {
  if (ctx.signal.aborted) return 'did not answer before the request was canceled';
  const e = ensureHubError(err);
  if (e.code === 'INTERNAL') {
    ctx.log.error({ err }, 'forward failed');
    return 'could not be reached (the hub failed unexpectedly)';
  }
  return `failed: ${e.message}`;
}

/** The research summary already says "failed"; keep only what the agent said. */
function bare(reason: string): string {
  return reason.startsWith('failed: ') ? reason.slice('failed: '.length) : reason;
}
