// Tasks as the MCP tools show them: the hub-dialect task plus what a reader wants first (the
// recipient, the reply text, the first JSON data part parsed), and the one-line summaries.
import type { HubTask, Part, TaskState } from '../../sdk/index.js';

/** States a task can still move from. */
export const OPEN_STATES: readonly TaskState[] = ['submitted', 'working', 'input-required'];

export interface TaskView {
  taskId: string;
  contextId: string;
  state: TaskState;
  /** The recipient agent (the hub's `metadata.agentId`). */
  agentId: string | null;
  /** The status text: a failed task's reason, an input-required question. */
  statusMessage: string | null;
  timestamp: string | null;
  /** The text parts of every artifact, one artifact per line. */
  reply: string;
  /** The first `application/json` data part of the artifacts, parsed; null when none. */
  data: unknown;
  task: HubTask;
}

export function viewTask(task: HubTask): TaskView {
  const parts = (task.artifacts ?? []).flatMap((a) => a.parts);
  const agentId = task.metadata?.agentId;
  return {
    taskId: task.id,
    contextId: task.contextId,
    state: task.status.state,
    agentId: typeof agentId === 'string' ? agentId : null,
    statusMessage: task.status.message ?? null,
    timestamp: task.status.timestamp ?? null,
    reply: (task.artifacts ?? [])
      .map((a) => textOf(a.parts))
      .filter((t) => t !== '')
      .join('\n'),
    data: jsonData(parts),
    task,
  };
}

export function textOf(parts: readonly Part[]): string {
  return parts
    .filter((p): p is Extract<Part, { kind: 'text' }> => p.kind === 'text')
    .map((p) => p.text)
    .join(' ');
}

function jsonData(parts: readonly Part[]): unknown {
  for (const p of parts) {
    if (p.kind !== 'data' || !p.mimeType.startsWith('application/json')) continue;
    try {
      return JSON.parse(p.data) as unknown;
    } catch {
      // The agent labelled text as JSON: the reply text still carries it.
    }
  }
  return null;
}

/** "task-… to agent-…: completed — <reply or status text>", cut to one readable line. */
export function summarize(v: TaskView): string {
  const to = v.agentId ? ` to ${v.agentId}` : '';
  const said = v.reply || v.statusMessage || '';
  const tail = said === '' ? '' : `: ${said.length > 500 ? `${said.slice(0, 500)}…` : said}`;
  return `Task ${v.taskId}${to} is ${v.state}${tail}`;
}

/** The text of the first message of a task (what its sender wrote), for inbox listings. */
export function firstMessageText(task: HubTask): string {
  const first = (task.messages ?? task.history ?? [])[0];
  return first ? textOf(first.parts) : '';
}
