// kanban (agent-kanban-official): boards, lanes and cards for the calling agent, driven by JSON
// actions (interface-spec "Kanban agent data" and "Official agents: how they are called").
// Data is per sender agent within its tenant, both taken from the hub-verified envelope.
import { defineAgent } from '../kit/index.js';
import { EXAMPLE, handleKanban } from './actions.js';

export default defineAgent({
  id: 'agent-kanban-official',
  alias: 'kanban',
  category: 'productivity',
  tags: ['kanban', 'tasks', 'todo', 'board', 'cards', 'wip', 'project management'],
  card: {
    name: 'Kanban',
    description:
      'Kanban boards for your agent: lanes with WIP limits and done lanes, cards with due dates, ' +
      'priorities, labels and history. JSON text with an "action"; boards are private to the calling agent.',
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: 'boards',
        name: 'Boards and lanes',
        description:
          'board:create, board:list, board:get, board:render (markdown), lane:add, lane:update, ' +
          'lane:reorder, lane:remove. Lanes have positions in steps of 10, is_done and an optional WIP limit.',
        tags: ['kanban', 'board', 'lanes', 'wip'],
        examples: [
          '{"action": "board:create", "name": "Launch", "lanes": ["Backlog", "Doing", "Done"]}',
          '{"action": "board:render", "board": "launch"}',
          '{"action": "lane:update", "board": "launch", "lane": "Doing", "wip_limit": 2}',
        ],
      },
      {
        id: 'cards',
        name: 'Cards',
        description:
          'card:create, card:update, card:move, card:complete, card:uncomplete, card:list (filters lane, ' +
          'overdue, due_before, label, source_ref), card:get (with history), card:delete (soft).',
        tags: ['kanban', 'cards', 'tasks', 'todo', 'due dates'],
        examples: [
          EXAMPLE,
          '{"action": "card:list", "overdue": true}',
          '{"action": "card:move", "card": "kb_card_0123456789abcdef", "lane": "Doing"}',
        ],
      },
    ],
  },
  handle: handleKanban,
});
