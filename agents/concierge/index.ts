// concierge (agent-concierge-official): finds the agent for a request by meaning and forwards it
// as the caller; `research:` asks several agents and cites each; `find:` lists agents without
// calling them (interface-spec "Official agents"; decisions.md §10 for the embedder).
import { defineAgent, fail, runAction } from '../kit/index.js';
import { actions } from './actions.js';
import { CONCIERGE_ID, FIND_LIMIT, find, research, route } from './concierge.js';
import { Modes, parseRequest, USAGE } from './parse.js';
import { RESEARCH_AGENTS, RESEARCH_DEADLINE_MS } from './research.js';

export default defineAgent({
  id: CONCIERGE_ID,
  alias: 'concierge',
  category: 'productivity',
  tags: ['concierge', 'router', 'directory', 'discovery', 'research'],
  card: {
    name: 'Concierge',
    description:
      'Finds the right agent for a request and forwards it on your behalf; researches a question with several agents; lists agents that match.',
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: 'route',
        name: 'Route',
        description:
          'Sends a plain-language request to the single best-matching agent, as you, and returns its answer with the agent named.',
        tags: ['routing', 'forward'],
        examples: ['will it rain in Paris tomorrow?', 'ping'],
      },
      {
        id: 'research',
        name: 'Research',
        description:
          'Asks several matching agents in parallel and returns a summary citing each answer, naming those that failed or timed out.',
        tags: ['research', 'fan-out', 'summary'],
        examples: ['research: notice period in a services contract'],
      },
      {
        id: 'find',
        name: 'Find',
        description:
          'Lists the agents that match a query with their scores and why they matched, without calling them.',
        tags: ['directory', 'discovery', 'search'],
        examples: ['find: weather forecast', '{"action":"find","query":"contracts","limit":3}'],
      },
    ],
  },
  handle(req, ctx) {
    if (req.json) return runAction(actions, req.json, req, ctx);
    const intent = parseRequest(req.text);
    if (!intent) fail(USAGE);
    if (intent.query === '') {
      fail(
        `say what to ${intent.mode} after "${intent.mode}:", e.g. "${intent.mode}: weather forecast"`
      );
    }
    switch (intent.mode) {
      case Modes.route:
        return route(intent.query, {}, req, ctx);
      case Modes.research:
        return research(
          intent.query,
          { maxAgents: RESEARCH_AGENTS, deadlineMs: RESEARCH_DEADLINE_MS },
          req,
          ctx
        );
      case Modes.find:
        return find(intent.query, { limit: FIND_LIMIT }, req, ctx);
      default: {
        const never: never = intent.mode;
        return fail(`unknown mode ${String(never)}`);
      }
    }
  },
});
