// POST, GET and DELETE /mcp: the hub's MCP endpoint (Streamable HTTP, issue 29). The gateway
// authenticates the bearer key as for every client (failed-auth limits and rate limits apply)
// and hands the request to the MCP side (infra/mcp, injected by the composition root).
import { HubError } from '../../runtime/errors/index.js';
import { bearerToken, type Authenticator } from '../auth/index.js';
import { z } from 'zod';
import {
  RestErrorSchema,
  type RouteDoc,
  type RouteRequest,
  type RouteSpec,
} from '../http/index.js';
import { JsonRpcResponseSchema } from '../openapi/rpc-schemas.js';
import type { RouteRegistrar } from '../routes/index.js';
import { fromWebResponse, toWebRequest } from './web-exchange.js';

/** The MCP protocol side: one authenticated request in, its response out. */
export interface McpEndpoint {
  handle(request: Request, apiKey: string): Promise<Response>;
}

export interface McpRouteDeps {
  readonly auth: Pick<Authenticator, 'authenticate'>;
  readonly endpoint: McpEndpoint;
}

export const MCP_PATH = '/mcp';

/** The MCP SDK answers its own refusals as JSON-RPC; the gateway's are REST errors. */
const McpError = z.union([RestErrorSchema, JsonRpcResponseSchema]);

const SUMMARY: Readonly<Record<'POST' | 'GET' | 'DELETE', string>> = {
  POST: 'MCP Streamable HTTP: a JSON-RPC message to the MCP server (an agent key)',
  GET: "MCP Streamable HTTP: the session's server-to-client SSE stream",
  DELETE: 'MCP Streamable HTTP: end the session',
};

function mcpDoc(method: 'POST' | 'GET' | 'DELETE'): RouteDoc {
  return {
    summary: SUMMARY[method],
    tags: ['MCP'],
    auth: 'key',
    headers: { 'mcp-session-id': 'The session, from the initialize answer' },
    ...(method === 'POST' ? { body: z.unknown() } : {}),
    responses: {
      200:
        method === 'DELETE'
          ? { description: 'The session ended' }
          : {
              description: 'A JSON-RPC answer, or an SSE stream',
              contentType: ['application/json', 'text/event-stream'],
            },
      202: { description: 'Accepted (a notification or response)' },
      400: { description: 'Refused by the MCP server', schema: McpError },
      404: { description: 'No such session', schema: McpError },
      405: { description: 'Not supported by the MCP server', schema: McpError },
      406: { description: 'Accept does not allow the answer', schema: McpError },
      415: { description: 'Not JSON', schema: McpError },
    },
    errors: [403],
  };
}

export function mcpRoutes(d: McpRouteDeps): RouteRegistrar {
  const handler = async (req: RouteRequest) => {
    const principal = await d.auth.authenticate(req.headers.authorization, req.scope);
    if (principal.kind !== 'agent') {
      throw new HubError(
        'FORBIDDEN',
        "The MCP server acts as one agent: use that agent's API key, not a tenant admin key"
      );
    }
    // authenticate() accepted it, so the header holds a bearer token.
    const apiKey = bearerToken(req.headers.authorization) as string;
    return fromWebResponse(await d.endpoint.handle(await toWebRequest(req), apiKey));
  };
  const route = (method: 'POST' | 'GET' | 'DELETE'): RouteSpec => ({
    method,
    pattern: MCP_PATH,
    doc: mcpDoc(method),
    handler,
    ...(method === 'POST' ? { body: true } : {}),
  });
  return (table) => {
    table.add(route('POST'));
    table.add(route('GET'));
    table.add(route('DELETE'));
  };
}
