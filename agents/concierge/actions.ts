// The concierge's JSON form: {"action": "route" | "research" | "find", "query": …}, the same three
// modes as the text prefixes, with the knobs text cannot carry (deadline, how many agents, …).
import { z } from 'zod';
import { action, type Actions } from '../kit/index.js';
import { find, research, route, FIND_LIMIT } from './concierge.js';
import { MAX_RESEARCH_AGENTS, RESEARCH_AGENTS, RESEARCH_DEADLINE_MS } from './research.js';

/** Bounded by the 60 s a blocking caller waits for the concierge's own answer. */
const MAX_WAIT_MS = 55_000;

const query = z.string().trim().min(1, 'say what you need').max(4000);
const minScore = z.number().min(-1).max(2).optional();

export const actions: Actions = {
  route: action({
    summary: 'send a request to the best agent: query, message?, min_score?, timeout_ms?',
    input: z.object({
      query,
      message: z.string().min(1).max(100_000).optional(),
      min_score: minScore,
      timeout_ms: z.number().int().min(100).max(MAX_WAIT_MS).optional(),
    }),
    run: (i, req, ctx) =>
      route(
        i.query,
        { message: i.message, minScore: i.min_score, timeoutMs: i.timeout_ms },
        req,
        ctx
      ),
  }),
  research: action({
    summary: 'ask several agents and summarize: query, max_agents?, deadline_ms?, min_score?',
    input: z.object({
      query,
      max_agents: z.number().int().min(1).max(MAX_RESEARCH_AGENTS).default(RESEARCH_AGENTS),
      deadline_ms: z.number().int().min(100).max(MAX_WAIT_MS).default(RESEARCH_DEADLINE_MS),
      min_score: minScore,
    }),
    run: (i, req, ctx) =>
      research(
        i.query,
        { maxAgents: i.max_agents, deadlineMs: i.deadline_ms, minScore: i.min_score },
        req,
        ctx
      ),
  }),
  find: action({
    summary: 'list matching agents without calling them: query, limit?, min_score?',
    input: z.object({
      query,
      limit: z.number().int().min(1).max(50).default(FIND_LIMIT),
      min_score: minScore,
    }),
    run: (i, req, ctx) => find(i.query, { limit: i.limit, minScore: i.min_score }, req, ctx),
  }),
};
