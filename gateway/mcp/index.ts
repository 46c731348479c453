// The /mcp routes: uWS in front of the MCP Streamable HTTP transport (the protocol is infra/mcp's).
export { mcpRoutes, MCP_PATH, type McpEndpoint, type McpRouteDeps } from './mcp-route.js';
