// The agent WebSocket in GET /openapi.json (decisions.md §2): the upgrade answers 101, and from then
// on everything is JSON frames, listed here by type with their schemas (`x-websocket-frames`).
// Refusals are frames too: `auth_error` then close 4401, or an `error` frame naming the field.
import { z } from 'zod';
import { AgentCardInput } from '../../runtime/protocol/index.js';
import { HubTaskSchema } from '../a2a/method-docs.js';
import type { RouteDoc } from '../http/index.js';
import { JsonRpcRequestSchema, JsonRpcResponseSchema } from '../openapi/rpc-schemas.js';

const Id = z.union([z.string(), z.number()]).optional().describe('Echoed on the answer');
const Part = z.looseObject({ kind: z.enum(['text', 'file', 'data']) });

const fromHub = {
  welcome: {
    description: 'Always the first frame: the key was accepted; queued messages follow',
    schema: z.object({ type: z.literal('welcome'), agentId: z.string() }),
  },
  message: {
    description: 'A message for this agent: answer it with task_response frames',
    schema: z.object({
      type: z.literal('message'),
      from: z.string().describe('The sender agent id'),
      taskId: z.string(),
      contextId: z.string(),
      payload: z.looseObject({
        role: z.enum(['user', 'agent']),
        parts: z.array(Part),
        messageId: z.string(),
      }),
      timestamp: z.number().int().describe('Epoch milliseconds'),
      configuration: z.record(z.string(), z.unknown()).optional(),
      metadata: z.record(z.string(), z.unknown()).optional(),
    }),
  },
  task_update: {
    description: 'A task this agent sent changed state (hub dialect)',
    schema: z.object({ type: z.literal('task_update'), task: HubTaskSchema }),
  },
  pong: { description: 'The answer to ping', schema: z.object({ type: z.literal('pong') }) },
  card_updated: {
    description: 'update_card was stored: the card as the hub keeps it',
    schema: z.object({ type: z.literal('card_updated'), agentCard: z.unknown(), id: Id }),
  },
  error: {
    description: 'A frame was refused; names the field when one is at fault',
    schema: z.object({
      type: z.literal('error'),
      error: z.string().describe('UPPER_SNAKE code'),
      message: z.string(),
      field: z.string().optional(),
      taskId: z.string().optional(),
      id: Id,
    }),
  },
  auth_error: {
    description: 'The key was refused (or no auth frame came in time); the socket closes with 4401',
    schema: z.object({ type: z.literal('auth_error'), error: z.string() }),
  },
  jsonrpc: {
    description: 'The answer to a JSON-RPC frame, with its id',
    schema: JsonRpcResponseSchema,
  },
} as const;

const fromClient = {
  auth: {
    description: 'Older clients: the key in the first frame, within 5 s, instead of the header',
    schema: z.object({ type: z.literal('auth'), token: z.string() }),
  },
  task_response: {
    description: "The recipient's reply to a message: a state, and artifacts in chunks",
    schema: z.object({
      type: z.literal('task_response'),
      taskId: z.string(),
      status: z.object({
        state: z.enum(['completed', 'failed', 'input-required', 'rejected', 'working']),
        message: z.string().optional(),
      }),
      artifact: z
        .object({
          artifactId: z.string(),
          name: z.string().optional(),
          mimeType: z.string().optional(),
          parts: z.array(Part),
        })
        .optional(),
      lastChunk: z.boolean().optional().describe('false: more artifact chunks follow'),
      id: Id,
    }),
  },
  received: {
    description: 'Optional: the message frame of this task arrived (never answered)',
    schema: z.object({ type: z.literal('received'), taskId: z.string(), id: Id }),
  },
  ping: { description: 'Answered with pong', schema: z.object({ type: z.literal('ping') }) },
  update_card: {
    description: "Replace this agent's card; answered with card_updated or error",
    schema: z.object({ type: z.literal('update_card'), agentCard: AgentCardInput, id: Id }),
  },
  jsonrpc: {
    description: 'Any method of POST /a2a (GET /openrpc.json), answered on the socket',
    schema: JsonRpcRequestSchema,
  },
} as const;

export const wsRouteDoc: RouteDoc = {
  summary: 'The agent WebSocket: messages in, replies out, without polling',
  description:
    'Upgrade with `Authorization: Bearer <key>` (or send an `auth` frame within 5 s). The hub ' +
    'answers 101 and sends `welcome` first; then `message` and `task_update` frames arrive and ' +
    'the agent answers with `task_response`. Frames are JSON objects with a `type`, or JSON-RPC ' +
    '2.0 requests dispatched like POST /a2a. A refused key gets `auth_error` and close code 4401.',
  tags: ['A2A'],
  auth: 'key',
  headers: { upgrade: 'websocket', 'sec-websocket-key': 'The WebSocket handshake key' },
  responses: { 101: { description: 'Switching Protocols: JSON frames from now on' } },
  webSocket: { fromHub, fromClient },
};
