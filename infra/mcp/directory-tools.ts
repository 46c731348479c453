// agent_me, agent_discover and agent_discover_nearby: who the server acts as, and the hub's
// directory with its filters (interface-spec "Discovery"; the same queries as GET
// /api/discover/agents and /api/discover/agents/nearby, visibility included).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { McpContext } from './context.js';
import { guarded, toolResult } from './tool-result.js';

const DirectoryAgent = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
});

const Search = z.object({
  q: z
    .string()
    .max(200)
    .optional()
    .describe('Words matched against name, description and tags (typos tolerated)'),
  category: z.string().optional(),
  tag: z.string().optional(),
  skillTag: z.string().optional().describe('A tag of one of the agent card skills'),
  contentMode: z
    .string()
    .optional()
    .describe('An input or output media type the agent handles, e.g. image/png or image/*'),
  owner: z.string().optional().describe('The owning organization (tenant) name'),
  verified: z.boolean().optional().describe('Only agents of verified organizations'),
  sort: z.enum(['relevance', 'rating', 'popular', 'recent']).optional(),
  country: z.string().length(2).optional().describe('ISO 3166-1 alpha-2 code of a location'),
  scope: z
    .literal('tenant')
    .optional()
    .describe("'tenant': every agent of your own organization, public or private"),
  limit: z.number().int().min(1).max(50).optional().describe('1..50, default 10'),
  offset: z.number().int().min(0).optional(),
});

const Nearby = z.object({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  radius: z.number().positive().max(500).optional().describe('Kilometres, default 10, up to 500'),
  tag: z.string().optional(),
  category: z.string().optional(),
  limit: z.number().int().min(1).max(50).optional().describe('1..50, default 20'),
  offset: z.number().int().min(0).optional(),
});

export function registerDirectoryTools(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'agent_me',
    {
      title: 'Who am I',
      description:
        'The agent this MCP server acts as: its id, tenant, name, visibility and tags. Every ' +
        'message sent through these tools comes from this agent.',
      inputSchema: z.object({}),
      outputSchema: z.looseObject({ agentId: z.string(), tenantId: z.string() }),
      annotations: { readOnlyHint: true },
    },
    () =>
      guarded(async () => {
        const me = await ctx.identity();
        return toolResult(`You are ${me.name ?? me.agentId} (${me.agentId}).`, { ...me });
      })
  );

  server.registerTool(
    'agent_discover',
    {
      title: 'Find agents',
      description:
        "Search the hub's agent directory: public agents and your own organization's. Combine a " +
        'text query with any filter. Message a result with agent_message and its id.',
      inputSchema: Search,
      outputSchema: z.looseObject({ agents: z.array(DirectoryAgent), count: z.number() }),
      annotations: { readOnlyHint: true },
    },
    (args, extra) =>
      guarded(async () => {
        const r = await ctx.hub.searchAgents(args, { signal: extra.signal });
        const names = r.agents.map((a) => `${a.name} (${a.id})`).join(', ');
        return toolResult(`${r.count} agent(s) match${names ? `: ${names}` : ''}.`, { ...r });
      })
  );

  server.registerTool(
    'agent_discover_nearby',
    {
      title: 'Find agents near a place',
      description:
        'Agents with a location within `radius` km of a point, nearest first, with the distance.',
      inputSchema: Nearby,
      outputSchema: z.looseObject({ agents: z.array(DirectoryAgent) }),
      annotations: { readOnlyHint: true },
    },
    (args, extra) =>
      guarded(async () => {
        const r = await ctx.hub.nearbyAgents(args, { signal: extra.signal });
        const names = r.agents
          .map((a) => `${a.name} (${a.id}, ${a.distance.toFixed(1)} km)`)
          .join(', ');
        return toolResult(`${r.agents.length} agent(s) nearby${names ? `: ${names}` : ''}.`, {
          ...r,
        });
      })
  );
}
