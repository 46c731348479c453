// memory (agent-memory-official): each agent's private long-term memory. It stores short texts,
// recalls them by meaning (embedding cosine), forgets and lists them, always for the hub-verified
// sender only: two agents never see each other's memories, even within one tenant.
import { defineAgent, fail, runAction } from '../kit/index.js';
import { ALIASES, actions } from './actions.js';
import { FORMS, parseRequest } from './parse.js';

export default defineAgent({
  id: 'agent-memory-official',
  alias: 'memory',
  category: 'productivity',
  tags: ['memory', 'remember', 'recall', 'notes', 'semantic search'],
  card: {
    name: 'Memory',
    description:
      'Private long-term memory for your agent: remember notes and facts, recall them by ' +
      'meaning, forget them, and list what you stored. Memories belong to the calling agent only.',
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: 'store',
        name: 'Remember',
        description:
          'Stores a note or fact (up to 8 KiB, optional tags); the same text is kept once.',
        tags: ['remember', 'store', 'note'],
        examples: [
          'Remember this: the staging database moves to eu-west-2 on Friday',
          '{"action":"store","content":"Alice prefers email over calls","tags":["alice"]}',
        ],
      },
      {
        id: 'recall',
        name: 'Recall',
        description: 'Finds the memories closest in meaning to a query, with scores and ids.',
        tags: ['recall', 'search', 'semantic search'],
        examples: [
          'Search memories for: staging database',
          'What do you remember about Alice?',
          '{"action":"recall","query":"database migration","limit":3}',
        ],
      },
      {
        id: 'forget',
        name: 'Forget',
        description: 'Deletes the memories that closely match a query, or one memory by id.',
        tags: ['forget', 'delete'],
        examples: [
          'Forget memories matching: staging database',
          '{"action":"forget","id":"mem_0123456789abcdef01234567"}',
        ],
      },
      {
        id: 'list',
        name: 'List',
        description: 'Lists your memories, newest first, a page at a time.',
        tags: ['list', 'browse'],
        examples: [
          'List my recent memories (limit: 10, offset: 0)',
          '{"action":"list","limit":20,"offset":20}',
        ],
      },
    ],
  },
  handle(req, ctx) {
    if (req.json !== undefined) {
      const name = req.json.action;
      const canonical =
        typeof name === 'string' && Object.hasOwn(ALIASES, name) ? ALIASES[name] : undefined;
      const payload = canonical !== undefined ? { ...req.json, action: canonical } : req.json;
      return runAction(actions, payload, req, ctx);
    }
    const payload = parseRequest(req.text);
    if (payload === undefined) {
      fail(
        `I did not understand that. Ask in one of these forms:\n${FORMS.map((f) => `• ${f}`).join('\n')}\n` +
          'or send JSON {"action": "store" | "recall" | "forget" | "list", …}.'
      );
    }
    return runAction(actions, payload, req, ctx);
  },
});
