// JSON requests with an `action`: each action names a zod schema for its input and a handler.
// The router answers the caller's mistakes (no action, an unknown one, a bad field) with a failed
// task that says what to fix, and never lets a caller's field choose tenant or sender: schemas are
// plain z.object()s, which drop keys they do not declare.
import type { z } from 'zod';
import { HubError } from '../../runtime/errors/index.js';
import type { AgentContext, AgentRequest, AgentResult } from './types.js';

export interface Action<S extends z.ZodType = z.ZodType> {
  /** One line for the help text, e.g. "create a card: board?, title, due_at?, …". */
  summary: string;
  input: S;
  run(input: z.output<S>, req: AgentRequest, ctx: AgentContext): Promise<AgentResult>;
}

export type Actions = Record<string, Action>;

/** Typed at the definition, erased in the table. */
export function action<S extends z.ZodType>(a: Action<S>): Action {
  return a;
}

/** Fail the task with a message for the caller (not logged as an agent error). */
export function fail(message: string): never {
  throw new HubError('UNPROCESSABLE', message);
}

/** Keys the router reads itself; never part of an action's input. */
const ROUTER_KEYS = new Set(['action', 'format']);

/** Run `payload.action` from `actions` with the rest of `payload` as its validated input. */
export function runAction(
  actions: Actions,
  payload: Record<string, unknown>,
  req: AgentRequest,
  ctx: AgentContext
): Promise<AgentResult> {
  const name = payload.action;
  if (typeof name !== 'string' || name === '') {
    fail(`say which action to run: add "action" with one of ${names(actions)}`);
  }
  const a = Object.hasOwn(actions, name) ? actions[name] : undefined;
  if (!a) fail(`unknown action "${name}"; use one of ${names(actions)}`);
  const input: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(payload)) if (!ROUTER_KEYS.has(k)) input[k] = v;
  const parsed = a.input.safeParse(input, { reportInput: true });
  if (!parsed.success) fail(`${name}: ${describeIssues(parsed.error)}`);
  return a.run(parsed.data, req, ctx);
}

/** The actions and their one-line summaries, for a help reply. */
export function describeActions(actions: Actions): string {
  return Object.entries(actions)
    .map(([name, a]) => `• ${name}: ${a.summary}`)
    .join('\n');
}

/** "`title` is required; `priority` must be an integer" — field paths first, at most three. */
export function describeIssues(error: z.ZodError): string {
  const shown = error.issues.slice(0, 3).map((i) => {
    const path = i.path.length > 0 ? `\`${i.path.map(String).join('.')}\`` : 'the input';
    if (i.code === 'invalid_type' && i.input === undefined) return `${path} is required`;
    if (i.code === 'unrecognized_keys') return `unknown field(s) ${i.keys.join(', ')}`;
    return `${path}: ${i.message}`;
  });
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : '';
  return shown.join('; ') + more;
}

function names(actions: Actions): string {
  return Object.keys(actions)
    .map((n) => `"${n}"`)
    .join(', ');
}
