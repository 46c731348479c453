// One MCP server (issue 29) acting as the agent whose API key it holds: the tools, the resources
// and their subscriptions, over any transport. Every hub call goes through the public client
// (@burrow/sdk HubClient), so the hub authenticates it and decides sender, tenant and visibility.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { HubClient, type HubIdentity } from '../../sdk/index.js';
import type { McpContext, McpHub } from './context.js';
import { registerDirectoryTools } from './directory-tools.js';
import { registerMemoryTools } from './memory-tools.js';
import { registerResources } from './resources.js';
import { registerTaskTools } from './task-tools.js';

export interface BurrowMcpOptions {
  /** The hub's base URL (http(s)). */
  readonly url: string;
  /** The API key of the agent the server acts as. */
  readonly apiKey: string;
  /** Reported to clients as the server's version. */
  readonly version?: string;
  /** Progress notifications of a waiting call, this often. Default 2 s. */
  readonly progressIntervalMs?: number;
  /** Default: the global fetch. */
  readonly fetch?: typeof fetch;
}

export interface BurrowMcpServer {
  readonly server: McpServer;
  /** Task subscriptions being followed now. */
  subscriptions(): number;
  /** Ends the task subscriptions and closes the transport. */
  close(): Promise<void>;
}

export function createBurrowMcpServer(opts: BurrowMcpOptions): BurrowMcpServer {
  const hub = new HubClient({
    url: opts.url,
    apiKey: opts.apiKey,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
  return createMcpServerFor(hub, opts);
}

/** The same server over a hub client of the caller's making (tests, other transports). */
export function createMcpServerFor(
  hub: McpHub,
  opts: Pick<BurrowMcpOptions, 'version' | 'progressIntervalMs'> = {}
): BurrowMcpServer {
  let me: Promise<HubIdentity & { agentId: string }> | undefined;
  // Calls shared by every request (the identity) end with the server, not with one request.
  const life = new AbortController();
  const ctx: McpContext = {
    hub,
    progressIntervalMs: opts.progressIntervalMs ?? 2_000,
    identity: () =>
      (me ??= hub.me({ signal: life.signal }).then(
        (id) => {
          if (id.agentId === undefined) {
            throw new TypeError(
              'this is a tenant admin key: the MCP server acts as an agent, give an agent key'
            );
          }
          return { ...id, agentId: id.agentId };
        },
        (err: unknown) => {
          // A failure (hub down) is not kept: the next call asks again.
          me = undefined;
          throw err;
        }
      )),
  };
  const server = new McpServer(
    { name: 'burrow', title: 'Burrow hub', version: opts.version ?? '0.0.0' },
    {
      instructions:
        'Tools to use a Burrow A2A hub as one agent: find agents (agent_discover), message them ' +
        '(agent_message) and follow the tasks (agent_task_status, agent_tasks_pending, ' +
        'burrow://tasks/<id>), read messages sent to you (agent_inbox), and keep private ' +
        'memories (memory_*).',
    }
  );
  registerDirectoryTools(server, ctx);
  registerTaskTools(server, ctx);
  registerMemoryTools(server, ctx);
  const watches = registerResources(server, ctx);
  const previous = server.server.onclose;
  server.server.onclose = () => {
    life.abort();
    watches.close();
    previous?.();
  };
  return {
    server,
    subscriptions: () => watches.size,
    async close() {
      life.abort();
      watches.close();
      await server.close();
    },
  };
}
