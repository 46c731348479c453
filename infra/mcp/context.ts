// What every tool and resource of one MCP server shares: the hub client acting with the agent's
// key, its identity (asked once), and how long calls report progress.
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { HubClient, HubIdentity } from '../../sdk/index.js';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The hub calls the MCP server makes: the public client API, nothing else. */
export type McpHub = Pick<
  HubClient,
  | 'me'
  | 'searchAgents'
  | 'nearbyAgents'
  | 'agentDetail'
  | 'send'
  | 'getTask'
  | 'cancelTask'
  | 'allTasks'
  | 'subscribe'
>;

export interface McpContext {
  readonly hub: McpHub;
  /** The agent the key speaks for; asked once, then kept (a key never changes its agent). */
  identity(): Promise<HubIdentity & { agentId: string }>;
  /** Progress notifications of a long call, this often. */
  readonly progressIntervalMs: number;
}

/** The hub's blocking wait (interface-spec Limits): the total a waiting call reports against. */
export const BLOCKING_WAIT_SECONDS = 60;

/**
 * Runs `run`, sending `notifications/progress` every `intervalMs` while it lasts, when the client
 * asked for progress (a `progressToken`). Progress is the seconds waited, of the hub's 60.
 */
export async function withProgress<T>(
  ctx: McpContext,
  extra: ToolExtra,
  message: string,
  run: () => Promise<T>
): Promise<T> {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return run();
  const started = Date.now();
  const timer = setInterval(() => {
    const progress = Math.round((Date.now() - started) / 100) / 10;
    // A client that went away cannot be told; the call itself still answers or fails.
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress, total: BLOCKING_WAIT_SECONDS, message },
      })
      .catch(() => undefined);
  }, ctx.progressIntervalMs);
  try {
    return await run();
  } finally {
    clearInterval(timer);
  }
}
