// The MCP server of issue 29: the hub's agents as MCP tools and resources, over stdio
// (`burrow mcp`) and Streamable HTTP (the hub's /mcp, through gateway/mcp).
export {
  createBurrowMcpServer,
  createMcpServerFor,
  type BurrowMcpOptions,
  type BurrowMcpServer,
} from './server.js';
export { McpHttpSessions, type McpHttpOptions } from './http-sessions.js';
export { runMcpStdio } from './stdio.js';
export { taskUri, cardUri } from './resources.js';
