// JSON-RPC 2.0 envelopes, for the JSON-RPC routes in GET /openapi.json and the contract tests.
import { z } from 'zod';

export const RpcIdSchema = z.union([z.string(), z.number(), z.null()]);

export const RpcErrorObjectSchema = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});

export const JsonRpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.string(),
  params: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional(),
  id: RpcIdSchema.optional(),
});

/** A response: exactly one of `result` and `error`. */
export const JsonRpcResponseSchema = z.union([
  z.object({ jsonrpc: z.literal('2.0'), id: RpcIdSchema, result: z.unknown() }),
  z.object({ jsonrpc: z.literal('2.0'), id: RpcIdSchema, error: RpcErrorObjectSchema }),
]);
