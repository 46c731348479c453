// Resources: every official agent's card (burrow://agents/<id>/card; any agent the key may see
// reads the same way) and a task's state (burrow://tasks/<id>), with resources/subscribe on a
// task: the hub's SubscribeToTask stream turns each change into notifications/resources/updated.
import {
  McpError,
  ErrorCode,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { HubError } from '../../sdk/index.js';
import type { McpContext, McpHub } from './context.js';
import { viewTask } from './task-view.js';

/** The official tenant's slug (infra/db official-tenant.ts); the directory shows it per agent. */
const OFFICIAL_SLUG = 'official';
const TASK_URI = /^burrow:\/\/tasks\/([^/?#]+)$/;

export const taskUri = (taskId: string): string => `burrow://tasks/${encodeURIComponent(taskId)}`;
export const cardUri = (agentId: string): string =>
  `burrow://agents/${encodeURIComponent(agentId)}/card`;

export function registerResources(server: McpServer, ctx: McpContext): TaskWatches {
  server.registerResource(
    'agent-card',
    new ResourceTemplate('burrow://agents/{agentId}/card', {
      list: async () => ({
        resources: (await officialAgents(ctx.hub)).map((a) => ({
          uri: cardUri(a.id),
          name: `${a.name} card`,
          description: a.description,
          mimeType: 'application/json',
        })),
      }),
    }),
    {
      title: 'Agent card',
      description: "An agent's card (skills, input and output modes) as the hub serves it",
      mimeType: 'application/json',
    },
    async (uri, vars) =>
      asResourceError(async () => {
        const detail = await ctx.hub.agentDetail(one(vars.agentId));
        return json(uri.href, detail.agent.agentCard);
      })
  );

  server.registerResource(
    'task',
    new ResourceTemplate('burrow://tasks/{taskId}', { list: undefined }),
    {
      title: 'Task',
      description:
        'A task you sent or received, as the hub reports it; subscribe to be told of each change',
      mimeType: 'application/json',
    },
    async (uri, vars) =>
      asResourceError(async () => {
        const v = viewTask(await ctx.hub.getTask(one(vars.taskId)));
        return json(uri.href, v);
      })
  );

  const watches = new TaskWatches(ctx.hub, (uri) => server.server.sendResourceUpdated({ uri }));
  server.server.registerCapabilities({ resources: { subscribe: true } });
  server.server.setRequestHandler(SubscribeRequestSchema, async (req) => {
    await asResourceError(() => watches.watch(req.params.uri));
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, (req) => {
    watches.stop(req.params.uri);
    return {};
  });
  return watches;
}

/**
 * One hub task stream per subscribed task URI. A stream ends with its task (a terminal state);
 * the subscription then has nothing more to report and is dropped.
 */
export class TaskWatches {
  private readonly live = new Map<string, AbortController>();

  constructor(
    private readonly hub: McpHub,
    private readonly updated: (uri: string) => Promise<void>
  ) {}

  /** Subscribes to `uri`. A task the caller may not read fails as GetTask does (-32001). */
  async watch(uri: string): Promise<void> {
    const m = TASK_URI.exec(uri);
    // Cards change only when their owner edits them; a subscription to one is accepted and quiet.
    if (m === null || this.live.has(uri)) return;
    const taskId = decodeURIComponent(m[1] as string);
    const seen = await this.hub.getTask(taskId);
    const ac = new AbortController();
    this.live.set(uri, ac);
    void this.follow(uri, taskId, stamp(seen), ac);
  }

  stop(uri: string): void {
    this.live.get(uri)?.abort();
    this.live.delete(uri);
  }

  close(): void {
    for (const ac of this.live.values()) ac.abort();
    this.live.clear();
  }

  get size(): number {
    return this.live.size;
  }

  private async follow(uri: string, taskId: string, seen: string, ac: AbortController) {
    try {
      for await (const event of this.hub.subscribe(taskId, { signal: ac.signal })) {
        // The stream opens with the task as it stands: news only if it moved since the check.
        if (event.kind === 'task' && stamp(event) === seen) continue;
        await this.updated(uri).catch(() => undefined);
      }
    } catch {
      // The hub went away for longer than the client's reconnects, or the watch was stopped:
      // either way there is nothing left to report; the client can read and subscribe again.
    } finally {
      if (this.live.get(uri) === ac) this.live.delete(uri);
    }
  }
}

function stamp(t: { status: { state: string; timestamp?: string } }): string {
  return `${t.status.state}@${t.status.timestamp ?? ''}`;
}

async function officialAgents(hub: McpHub) {
  const out: Array<{ id: string; name: string; description: string }> = [];
  for (let offset = 0; ; offset += 50) {
    const page = await hub.searchAgents({ owner: 'Burrow', limit: 50, offset, sort: 'recent' });
    out.push(...page.agents.filter((a) => a.tenantSlug === OFFICIAL_SLUG));
    if (page.agents.length < 50 || offset + 50 >= page.count) return out;
  }
}

function one(v: string | string[] | undefined): string {
  return decodeURIComponent(Array.isArray(v) ? (v[0] ?? '') : (v ?? ''));
}

function json(uri: string, value: unknown) {
  return {
    contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }],
  };
}

/**
 * Resource reads and subscriptions answer JSON-RPC errors, not tool results: a hub refusal keeps
 * its JSON-RPC number (e.g. -32001 for a task the caller may not read) and its code in `data`.
 */
async function asResourceError<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof HubError) {
      throw new McpError(err.rpcCode ?? ErrorCode.InternalError, err.message, {
        code: err.code,
        ...(err.data !== undefined ? { data: err.data } : {}),
      });
    }
    throw err;
  }
}
