// The kanban action table and the answer to a request that is not a JSON action.
import {
  describeActions,
  fail,
  runAction,
  type Actions,
  type AgentContext,
  type AgentRequest,
  type AgentResult,
} from '../kit/index.js';
import { boardActions } from './board-actions.js';
import { cardActions } from './card-actions.js';

export const kanbanActions: Actions = { ...boardActions, ...cardActions };

export const EXAMPLE =
  '{"action": "card:create", "title": "Write the launch post", "due_at": "2026-12-01T17:00:00Z", "priority": 1}';

export function helpText(): string {
  return [
    '📋 Kanban takes JSON text with an "action", for example',
    EXAMPLE,
    '',
    'Actions:',
    describeActions(kanbanActions),
    '',
    'Boards are addressed by slug or id, lanes by name or id, cards by id (kb_card_…). Dates are ISO 8601 in UTC.',
    'Add "format": "json" (or accept only application/json) for JSON data.',
  ].join('\n');
}

/** JSON actions run; "help" (or nothing) gets the help text; any other text fails with it. */
export async function handleKanban(req: AgentRequest, ctx: AgentContext): Promise<AgentResult> {
  if (req.json) return runAction(kanbanActions, req.json, req, ctx);
  const text = req.text.trim().toLowerCase();
  if (text === '' || text === 'help' || text === '?') {
    return { text: helpText(), data: { actions: Object.keys(kanbanActions), help: helpText() } };
  }
  fail(`kanban takes JSON text with an "action"; ${helpText()}`);
}
