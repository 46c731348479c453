// memory_store, memory_recall, memory_forget and memory_list: the official memory agent
// (agents/memory), messaged as this agent with its JSON actions. Memories belong to the agent
// the key speaks for: the hub puts its identity in the envelope, the memory agent scopes by it.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { withProgress, type McpContext, type ToolExtra } from './context.js';
import { viewTask } from './task-view.js';
import { TaskOutcomeError, guarded, toolResult } from './tool-result.js';

const Memory = z.looseObject({ id: z.string(), content: z.string(), tags: z.array(z.string()) });

export function registerMemoryTools(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'memory_store',
    {
      title: 'Remember',
      description:
        'Store a short text (up to 8 KiB) in your private long-term memory, with optional tags. ' +
        'Storing the same text again keeps one memory.',
      inputSchema: z.object({
        content: z.string().min(1),
        tags: z.array(z.string().min(1).max(40)).max(20).optional(),
      }),
      outputSchema: z.looseObject({ memory: Memory, duplicate: z.boolean() }),
    },
    (args, extra) =>
      guarded(async () => {
        const data = await ask(ctx, extra, { action: 'store', ...args });
        const m = data.memory as { id: string };
        const again = data.duplicate === true ? 'Already remembered' : 'Remembered';
        return toolResult(`${again} (${m.id}).`, data);
      })
  );

  server.registerTool(
    'memory_recall',
    {
      title: 'Recall',
      description: 'Your memories closest in meaning to a query, best first, with their scores.',
      inputSchema: z.object({
        query: z.string().min(1).max(2000),
        limit: z.number().int().min(1).max(50).optional().describe('1..50, default 5'),
      }),
      outputSchema: z.looseObject({ results: z.array(Memory.extend({ score: z.number() })) }),
      annotations: { readOnlyHint: true },
    },
    (args, extra) =>
      guarded(async () => {
        const data = await ask(ctx, extra, { action: 'recall', ...args });
        const results = data.results as Array<{ content: string; score: number }>;
        const lines = results.map((r) => `- ${r.content} (${Math.round(r.score * 100)}%)`);
        return toolResult(
          `${results.length} memory(ies) match.${lines.length ? `\n${lines.join('\n')}` : ''}`,
          data
        );
      })
  );

  server.registerTool(
    'memory_forget',
    {
      title: 'Forget',
      description:
        'Delete one memory by `id` (mem_…), or every memory closely matching `query`. Give ' +
        'exactly one of them.',
      inputSchema: z.object({
        id: z.string().optional(),
        query: z.string().min(1).max(2000).optional(),
      }),
      outputSchema: z.looseObject({ forgotten: z.array(Memory) }),
      annotations: { destructiveHint: true },
    },
    (args, extra) =>
      guarded(async () => {
        const data = await ask(ctx, extra, { action: 'forget', ...args });
        const gone = data.forgotten as Array<{ id: string }>;
        return toolResult(`Forgot ${gone.length} memory(ies).`, data);
      })
  );

  server.registerTool(
    'memory_list',
    {
      title: 'List memories',
      description: 'Your memories, newest first, a page at a time.',
      inputSchema: z.object({
        limit: z.number().int().min(1).max(100).optional().describe('1..100, default 10'),
        offset: z.number().int().min(0).optional(),
      }),
      outputSchema: z.looseObject({ total: z.number(), memories: z.array(Memory) }),
      annotations: { readOnlyHint: true },
    },
    (args, extra) =>
      guarded(async () => {
        const data = await ask(ctx, extra, { action: 'list', ...args });
        const total = data.total as number;
        const shown = (data.memories as unknown[]).length;
        return toolResult(`${shown} of ${total} memory(ies).`, data);
      })
  );
}

/** One JSON action to the memory agent, answered as JSON; a failed task is a tool error. */
async function ask(
  ctx: McpContext,
  extra: ToolExtra,
  action: Record<string, unknown>
): Promise<Record<string, unknown>> {
  const task = await withProgress(ctx, extra, 'waiting for the memory agent', () =>
    ctx.hub.send({
      agentId: 'memory',
      text: JSON.stringify({ ...action, format: 'json' }),
      acceptedOutputModes: ['application/json'],
      blocking: true,
      signal: extra.signal,
    })
  );
  const v = viewTask(task);
  if (v.state !== 'completed' || v.data === null || typeof v.data !== 'object') {
    throw new TaskOutcomeError(
      v.state === 'rejected'
        ? 'TASK_REJECTED'
        : v.state === 'canceled'
          ? 'TASK_CANCELED'
          : 'TASK_FAILED',
      v.statusMessage ?? `the memory agent's task is ${v.state}`,
      { taskId: v.taskId, state: v.state }
    );
  }
  return v.data as Record<string, unknown>;
}
