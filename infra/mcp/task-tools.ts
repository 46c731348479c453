// agent_message, agent_task_status, agent_task_cancel, agent_tasks_pending and agent_inbox: the
// hub's SendMessage, GetTask, CancelTask and ListTasks (interface-spec "JSON-RPC on the hub"),
// called with the agent's own key, so sender, tenant and visibility are the hub's to decide.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { HubTask, Part } from '../../sdk/index.js';
import { withProgress, type McpContext } from './context.js';
import { OPEN_STATES, firstMessageText, summarize, viewTask, type TaskView } from './task-view.js';
import { guarded, toolResult } from './tool-result.js';

const TaskOut = z.looseObject({
  taskId: z.string(),
  contextId: z.string(),
  state: z.string(),
  reply: z.string(),
});

const TaskList = z.object({ tasks: z.array(z.looseObject({ taskId: z.string() })) });

const Message = z.object({
  agentId: z
    .string()
    .min(1)
    .optional()
    .describe('The recipient: an agent id or an alias such as echo or memory'),
  text: z.string().min(1).describe('The message text'),
  data: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Structured input, sent as an application/json data part after the text'),
  contextId: z
    .string()
    .optional()
    .describe('Continue a conversation; without agentId the message goes to its other party'),
  taskId: z.string().optional().describe('Answer a task that is input-required'),
  acceptedOutputModes: z.array(z.string()).optional().describe('e.g. ["application/json"]'),
  ttlSeconds: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('How long the hub may queue it for an offline recipient; 0: fail at once instead'),
});

const Limit = z.number().int().min(1).max(100).optional().describe('1..100, default 20');

export function registerTaskTools(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'agent_message',
    {
      title: 'Message an agent',
      description:
        'Send a message to an agent and wait (up to 60 s) for its reply. When the recipient is ' +
        'offline the hub queues the message and this returns at once with `queued: true`; follow ' +
        'the task with agent_task_status or by subscribing to burrow://tasks/<taskId>.',
      inputSchema: Message,
      outputSchema: TaskOut.extend({ queued: z.boolean() }),
    },
    (args, extra) =>
      guarded(async () => {
        const parts: Part[] =
          args.data === undefined
            ? []
            : [{ kind: 'data', mimeType: 'application/json', data: JSON.stringify(args.data) }];
        const task = await withProgress(
          ctx,
          extra,
          `waiting for ${args.agentId ?? 'the other party'}`,
          () =>
            ctx.hub.send({
              ...(args.agentId !== undefined ? { agentId: args.agentId } : {}),
              text: args.text,
              parts,
              ...(args.contextId !== undefined ? { contextId: args.contextId } : {}),
              ...(args.taskId !== undefined ? { taskId: args.taskId } : {}),
              ...(args.acceptedOutputModes !== undefined
                ? { acceptedOutputModes: args.acceptedOutputModes }
                : {}),
              ...(args.ttlSeconds !== undefined ? { ttlSeconds: args.ttlSeconds } : {}),
              blocking: true,
              signal: extra.signal,
            })
        );
        const v = viewTask(task);
        // A blocking send answers `submitted` only when the hub queued the message (decisions
        // "SendMessage" step 6): the recipient has no connection to deliver to.
        const queued = v.state === 'submitted';
        const note = queued
          ? ' The recipient is offline: the hub queued the message and delivers it when the recipient connects.'
          : v.state === 'working'
            ? ' No answer within 60 s; the task goes on.'
            : '';
        return toolResult(`${summarize(v)}${note}`, { ...plain(v), queued });
      })
  );

  server.registerTool(
    'agent_task_status',
    {
      title: 'Task status',
      description: 'A task you sent or received: its state, reply and messages.',
      inputSchema: z.object({
        taskId: z.string().min(1),
        historyLength: z.number().int().min(0).optional().describe('Messages to include'),
      }),
      outputSchema: TaskOut,
      annotations: { readOnlyHint: true },
    },
    (args, extra) =>
      guarded(async () => {
        const task = await ctx.hub.getTask(args.taskId, {
          signal: extra.signal,
          ...(args.historyLength !== undefined ? { historyLength: args.historyLength } : {}),
        });
        const v = viewTask(task);
        return toolResult(summarize(v), plain(v));
      })
  );

  server.registerTool(
    'agent_task_cancel',
    {
      title: 'Cancel a task',
      description:
        'Cancel a task you sent that has not ended; a message still queued for an offline ' +
        'recipient is withdrawn.',
      inputSchema: z.object({ taskId: z.string().min(1) }),
      outputSchema: TaskOut,
      annotations: { destructiveHint: true, idempotentHint: false },
    },
    (args, extra) =>
      guarded(async () => {
        const v = viewTask(await ctx.hub.cancelTask(args.taskId, { signal: extra.signal }));
        return toolResult(summarize(v), plain(v));
      })
  );

  server.registerTool(
    'agent_tasks_pending',
    {
      title: 'My open tasks',
      description:
        'Tasks this agent sent that have not ended (submitted, working or input-required), ' +
        'newest first.',
      inputSchema: z.object({ limit: Limit }),
      outputSchema: TaskList,
      annotations: { readOnlyHint: true },
    },
    (args, extra) =>
      guarded(async () => {
        const me = await ctx.identity();
        const tasks = await openTasks(
          ctx,
          (t) => t.metadata?.agentId !== me.agentId,
          args.limit,
          extra.signal
        );
        const lines = tasks.map((v) => `- ${summarize(v)}`).join('\n');
        return toolResult(`${tasks.length} open task(s) you sent.${lines ? `\n${lines}` : ''}`, {
          tasks: tasks.map(plain),
        });
      })
  );

  server.registerTool(
    'agent_inbox',
    {
      title: 'Inbox',
      description:
        'Messages waiting for this agent: tasks sent to it that it has not answered, newest ' +
        'first. Reply with agent_message and the contextId.',
      inputSchema: z.object({ limit: Limit }),
      outputSchema: TaskList,
      annotations: { readOnlyHint: true },
    },
    (args, extra) =>
      guarded(async () => {
        const me = await ctx.identity();
        const tasks = await openTasks(
          ctx,
          (t) => t.metadata?.agentId === me.agentId,
          args.limit,
          extra.signal
        );
        const entries = tasks.map((v) => ({ ...plain(v), text: firstMessageText(v.task) }));
        const lines = tasks.map(
          (v) => `- ${v.taskId} (${v.state}, ${v.contextId}): ${firstMessageText(v.task)}`
        );
        return toolResult(
          `${entries.length} message(s) waiting.${lines.length ? `\n${lines.join('\n')}` : ''}`,
          { tasks: entries }
        );
      })
  );
}

/** The view without the raw task's message list twice (`messages` and `history` are one list). */
function plain(v: TaskView): Record<string, unknown> {
  const { history: _history, ...task } = v.task;
  return { ...v, task };
}

/** Open tasks of the caller that `keep` accepts, newest first, at most `limit` (default 20). */
async function openTasks(
  ctx: McpContext,
  keep: (t: HubTask) => boolean,
  limit = 20,
  signal?: AbortSignal
): Promise<TaskView[]> {
  const found: TaskView[] = [];
  // One state at a time (ListTasks filters on one); each list is newest first, so the newest
  // `limit` of every state hold the newest `limit` overall.
  for (const status of OPEN_STATES) {
    let kept = 0;
    const pages = ctx.hub.allTasks({ status, pageSize: 100, historyLength: 1 }, { signal });
    for await (const t of pages) {
      if (!keep(t)) continue;
      found.push(viewTask(t));
      if (++kept >= limit) break;
    }
  }
  found.sort((a, b) => (b.timestamp ?? '').localeCompare(a.timestamp ?? ''));
  return found.slice(0, limit);
}
