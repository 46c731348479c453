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

/** runtime/inspect's events (@statelyai/inspect's StatelyInspectionEvent), by type. */
const inspected = <T extends string>(type: T, more: z.ZodRawShape) =>
  z.looseObject({
    type: z.literal(type),
    sessionId: z.string().describe('The actor: its system id <kind>:<id>'),
    rootId: z.string(),
    createdAt: z.string().describe('Epoch milliseconds, as a string'),
    id: z.string(),
    _version: z.string(),
    ...more,
  });
const InspectedSnapshot = z.looseObject({
  status: z.string(),
  value: z.unknown(),
  context: z.unknown(),
});
const inspectionFrames = {
  '@xstate.actor': {
    description: 'An actor came into view (one per matching live actor first)',
    schema: inspected('@xstate.actor', {
      name: z.string(),
      definition: z.string().optional(),
      snapshot: InspectedSnapshot,
    }),
  },
  '@xstate.event': {
    description: 'An event was delivered to the actor',
    schema: inspected('@xstate.event', { event: z.looseObject({ type: z.string() }) }),
  },
  '@xstate.snapshot': {
    description: 'The actor moved to a new state',
    schema: inspected('@xstate.snapshot', {
      event: z.looseObject({ type: z.string() }),
      snapshot: InspectedSnapshot,
    }),
  },
};

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
    query: z.strictObject({
      format: z
        .enum(['mermaid', 'dot'])
        .default('mermaid')
        .describe('mermaid (GitHub and most Markdown viewers draw it) or dot (Graphviz)'),
    }),
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
  inspect: {
    ...debug,
    summary: "Live XState inspection events of this node's actors (a WebSocket)",
    description:
      'Upgrade with `Authorization: Bearer <ADMIN_TOKEN>` (or `?token=`, for browsers, which ' +
      'cannot set headers on a WebSocket). Name a kind, an actor id, or both; each event is one ' +
      "text frame in the Stately inspector's format. A bad token or filter is refused before the " +
      'upgrade, with the REST error body.',
    headers: { upgrade: 'websocket', 'sec-websocket-key': 'The WebSocket handshake key' },
    query: z
      .strictObject({
        kind: z
          .string()
          .min(1)
          .max(100)
          .optional()
          .describe('Every actor of this kind (e.g. task); the kinds are those the node runs'),
        id: z.string().min(1).max(200).optional().describe('The one actor with this id'),
        token: z.string().optional().describe('The admin token, when no header can be sent'),
      })
      .refine((q) => q.kind !== undefined || q.id !== undefined, {
        path: ['kind'],
        message: 'name a kind (e.g. kind=task) or an actor id (id=…)',
      }),
    responses: { 101: { description: 'Switching Protocols: inspection events from now on' } },
    errors: [400, 401],
    webSocket: { fromHub: inspectionFrames, fromClient: {} },
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
