// The built-in routes in GET /openapi.json: health, metrics, POST /a2a, the API documents, debug.
import { z } from 'zod';
import type { RouteDoc } from '../http/index.js';
import { JsonRpcRequestSchema, JsonRpcResponseSchema } from '../openapi/rpc-schemas.js';

const CheckStatus = z.enum(['ok', 'down']);

const Health = z.object({
  status: z.enum(['ok', 'degraded']),
  timestamp: z.number().int(),
  checks: z.record(z.string(), CheckStatus),
});

const debug = { tags: ['Debug'], auth: 'adminToken' } as const;

/** POST /a2a and the per-agent endpoints: the methods are in GET /openrpc.json. */
export function jsonRpcDoc(summary: string, auth: RouteDoc['auth'], errors?: number[]): RouteDoc {
  return {
    summary,
    tags: ['JSON-RPC'],
    auth,
    jsonRpc: true,
    body: JsonRpcRequestSchema,
    responses: {
      200: {
        description: 'A JSON-RPC response (errors too), or an SSE stream for streaming methods',
        schema: JsonRpcResponseSchema,
      },
      204: { description: 'A notification (no id): run, and answered without a body' },
    },
    ...(errors === undefined ? {} : { errors }),
  };
}

export const builtInDocs = {
  health: {
    summary: 'Whether the hub and its dependencies answer',
    tags: ['Monitoring'],
    auth: 'none',
    responses: {
      200: { description: 'Up (degraded: an optional part is down)', schema: Health },
      503: { description: 'NATS or PostgreSQL is down', schema: Health },
    },
  },
  metrics: {
    summary: 'Prometheus metrics of this node',
    tags: ['Monitoring'],
    auth: 'metricsToken',
    responses: {
      200: { description: 'Prometheus text exposition', contentType: 'text/plain' },
    },
  },
  a2a: jsonRpcDoc('The hub dialect of JSON-RPC (interface-spec); methods in /openrpc.json', 'key'),
  openapi: {
    summary: 'This document',
    tags: ['Documents'],
    auth: 'none',
    responses: { 200: z.record(z.string(), z.unknown()) },
  },
  openrpc: {
    summary: 'The OpenRPC document of the JSON-RPC methods of one endpoint',
    tags: ['Documents'],
    auth: 'none',
    query: z.strictObject({
      dialect: z
        .enum(['hub', '1.0', '0.3'])
        .optional()
        .describe(
          'hub (default): POST /a2a and JSON-RPC frames on /ws; 1.0 or 0.3: ' +
            'POST /agents/{agentId}/a2a with that A2A-Version'
        ),
    }),
    responses: { 200: z.record(z.string(), z.unknown()) },
  },
  machines: {
    ...debug,
    summary: 'The registered state machines',
    responses: { 200: z.object({ machines: z.array(z.string()) }) },
  },
  machine: {
    ...debug,
    summary: "A machine's definition (machine.toJSON())",
    responses: { 200: z.record(z.string(), z.unknown()) },
    errors: [404],
  },
  machineGraph: {
    ...debug,
    summary: "A machine's states and transitions as Mermaid or DOT",
    query: z.object({ format: z.enum(['mermaid', 'dot']).optional() }),
    responses: {
      200: {
        description: 'Mermaid or DOT text',
        contentType: ['text/vnd.mermaid', 'text/vnd.graphviz'],
      },
    },
    errors: [404],
  },
  actor: {
    ...debug,
    summary: "A live actor's snapshot",
    responses: { 200: z.object({ systemId: z.string(), snapshot: z.unknown() }) },
    errors: [404],
  },
  queue: {
    ...debug,
    summary: "An agent's offline queue",
    responses: { 200: z.record(z.string(), z.unknown()) },
    errors: [404],
  },
  cluster: {
    ...debug,
    summary: "The cluster's nodes and partitions",
    responses: { 200: z.record(z.string(), z.unknown()) },
  },
  dashboard: {
    summary: 'The web dashboard (a single-page app; every path under it serves the app)',
    tags: ['Dashboard'],
    auth: 'none',
    responses: {
      200: { description: 'The page or one of its assets', contentType: ['text/html', '*/*'] },
      404: {
        description: 'No such asset, or the dashboard was not built',
        contentType: 'text/plain',
      },
    },
  },
} satisfies Record<string, RouteDoc>;
