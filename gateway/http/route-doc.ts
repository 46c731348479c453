// What a route tells the API documents (GET /openapi.json): part of the route's own definition,
// so a route cannot be mounted without one (RouteSpec.doc is required) and the document is built
// from the zod schemas, never written by hand. Path parameters come from the pattern.
import { z } from 'zod';

/**
 * Who may call: nobody in particular, any API key (agent or tenant admin), an optional key (it
 * widens what is seen), a tenant admin key, or the operator's ADMIN_TOKEN / METRICS_TOKEN.
 */
export type RouteAuth = 'none' | 'key' | 'optionalKey' | 'adminKey' | 'adminToken' | 'metricsToken';

export interface ResponseDoc {
  readonly description: string;
  /** The body: JSON when `contentType` is absent. No schema and no content type: no body. */
  readonly schema?: z.ZodType;
  readonly contentType?: string | readonly string[];
  /** Response headers, as OpenAPI header objects by name. */
  readonly headers?: Readonly<Record<string, Record<string, unknown>>>;
}

export interface RouteDoc {
  readonly summary: string;
  readonly description?: string;
  /** Groups in the document (Discovery, Management, A2A, Monitoring, Debug, ...). */
  readonly tags: readonly string[];
  readonly auth: RouteAuth;
  /** The query string, one property per parameter (values as strings). */
  readonly query?: z.ZodObject;
  /** The JSON request body. */
  readonly body?: z.ZodType;
  /** Request headers the route reads besides Authorization. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Answers by status: a zod schema is a JSON body described by `summary`. */
  readonly responses: Readonly<Record<number, ResponseDoc | z.ZodType>>;
  /**
   * Statuses answered with the REST error body beyond those every route of its kind has (400 with a
   * query or body, 401/429 with a key, 413 with a body, 500 always): 403, 404, 409, 503...
   */
  readonly errors?: readonly number[];
  /** A JSON-RPC endpoint: its methods are in GET /openrpc.json. */
  readonly jsonRpc?: boolean;
  /** Where that endpoint's OpenRPC document is (by dialect), when not GET /openrpc.json. */
  readonly openRpc?: string | Readonly<Record<string, string>>;
  /**
   * A WebSocket upgrade: it answers 101 and refuses in frames, never with a REST error; the frame
   * types go into the operation as `x-websocket-frames`.
   */
  readonly webSocket?: WebSocketDoc;
}

export interface WebSocketFrameDoc {
  readonly description: string;
  readonly schema: z.ZodType;
}

/** The JSON frames of a WebSocket, by `type` (JSON-RPC frames under the key `jsonrpc`). */
export interface WebSocketDoc {
  readonly fromHub: Readonly<Record<string, WebSocketFrameDoc>>;
  readonly fromClient: Readonly<Record<string, WebSocketFrameDoc>>;
}

/** decisions.md §6: `{"error":{code,message,details?},"message"}`. */
export const RestErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
  message: z.string(),
});

/** The statuses a route answers with the REST error body, implied ones included. */
export function errorStatuses(doc: RouteDoc, hasBody: boolean): number[] {
  const out = new Set<number>(doc.errors ?? []);
  // A refused socket is told in an auth_error frame and a 4401 close, after the 101.
  if (doc.webSocket !== undefined) return [...out].sort((a, b) => a - b);
  if (doc.jsonRpc === true) {
    // JSON-RPC errors travel with 200 except these (decisions.md §6), in a JSON-RPC body.
    for (const status of [401, 413, 429]) out.add(status);
    return [...out].sort((a, b) => a - b);
  }
  if (doc.query !== undefined || doc.body !== undefined) out.add(400);
  if (doc.auth !== 'none') out.add(401);
  if (doc.auth === 'key' || doc.auth === 'optionalKey' || doc.auth === 'adminKey') out.add(429);
  if (doc.auth === 'adminKey') out.add(403);
  if (hasBody) out.add(413);
  out.add(500);
  for (const status of Object.keys(doc.responses)) out.delete(Number(status));
  return [...out].sort((a, b) => a - b);
}
