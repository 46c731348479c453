// The per-agent A2A routes in GET /openapi.json: agent cards and the standard JSON-RPC endpoint.
import { z } from 'zod';
import type { RouteDoc } from '../http/index.js';
import { jsonRpcDoc } from '../routes/route-docs.js';

const card = (summary: string, negotiated: boolean): RouteDoc => ({
  summary,
  tags: ['A2A'],
  auth: 'optionalKey',
  headers: {
    ...(negotiated ? { 'a2a-version': 'Picks the card shape: 1.0 (default) or 0.3' } : {}),
    'if-none-match': 'An ETag from an earlier answer: 304 when unchanged',
  },
  responses: {
    200: {
      description: 'The agent card (ETag, Cache-Control)',
      schema: z.looseObject({ name: z.string() }),
    },
    304: { description: 'Not Modified' },
  },
  errors: [404],
});

export const a2aDocs = {
  card: card('The agent card, in the shape A2A-Version asks for', true),
  cardRegistered: card('The agent card as registered (the older well-known path)', false),
  standard: {
    ...jsonRpcDoc(
      'Standard A2A JSON-RPC (v1.0 or v0.3 by A2A-Version) addressed to this agent; methods in /openrpc.json?dialect=1.0 and ?dialect=0.3',
      'key'
    ),
    headers: { 'a2a-version': '1.0, or 0.3 (also when absent); anything else is -32009' },
    openRpc: { '1.0': '/openrpc.json?dialect=1.0', '0.3': '/openrpc.json?dialect=0.3' },
  },
  hubKeys: {
    summary: "The hub's public keys (JWKS) that verify the x-hub envelopes it signs",
    tags: ['A2A'],
    auth: 'none',
    responses: {
      200: z.object({
        keys: z.array(z.looseObject({ kty: z.string(), kid: z.string() })).min(1),
      }),
    },
  },
} satisfies Record<string, RouteDoc>;
