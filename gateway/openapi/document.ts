// The OpenAPI 3.1 document of the mounted routes, built from each RouteSpec's doc (route-doc.ts):
// zod schemas become JSON Schema 2020-12 with z.toJSONSchema (request schemas as their input,
// answers as their output), `:param` segments become path parameters.
import { z } from 'zod';
import {
  RestErrorSchema,
  errorStatuses,
  type ResponseDoc,
  type RouteAuth,
  type RouteDoc,
  type WebSocketDoc,
  type DocumentedPath,
} from '../http/index.js';
import { JsonRpcResponseSchema } from './rpc-schemas.js';

export type JsonSchema = Record<string, unknown>;

export interface DocumentInfo {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  304: 'Not Modified',
  400: 'Bad request: the error names the field or parameter',
  401: 'No key, or a key that is not valid',
  403: 'The key may not do this',
  404: 'Not found (or not visible to this key)',
  409: 'Conflict',
  413: 'The body is over the limit',
  429: 'Too many requests (Retry-After says when to retry)',
  500: 'Internal error',
  502: 'An upstream failed',
  503: 'A dependency is down',
};

const SECURITY: Readonly<Record<RouteAuth, readonly Record<string, string[]>[] | undefined>> = {
  none: [],
  key: [{ apiKey: [] }],
  optionalKey: [{}, { apiKey: [] }],
  adminKey: [{ apiKey: [] }],
  adminToken: [{ adminToken: [] }],
  metricsToken: [{ metricsToken: [] }],
};

/** A zod schema as JSON Schema 2020-12; refinements and transforms are not representable. */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    reused: 'inline',
  }) as JsonSchema;
  delete out.$schema;
  return out;
}

/** `/api/agents/:agentId/keys` → `/api/agents/{agentId}/keys`. */
export function openApiPath(pattern: string): string {
  return pattern.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function pathParams(pattern: string): string[] {
  return [...pattern.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] as string);
}

function responseDoc(r: ResponseDoc | z.ZodType): ResponseDoc {
  return r instanceof z.ZodType ? { description: 'OK', schema: r } : r;
}

function response(status: number, r: ResponseDoc): Record<string, unknown> {
  const description = r.description || STATUS_TEXT[status] || String(status);
  const out: Record<string, unknown> = { description };
  if (r.headers !== undefined) out.headers = r.headers;
  if (r.schema === undefined && r.contentType === undefined) return out;
  const media = r.schema === undefined ? {} : { schema: jsonSchema(r.schema, 'output') };
  const types = r.contentType === undefined ? ['application/json'] : [r.contentType].flat();
  out.content = Object.fromEntries(types.map((t) => [t, media]));
  return out;
}

function operation(spec: DocumentedPath): Record<string, unknown> {
  const doc: RouteDoc = spec.doc;
  const parameters: Record<string, unknown>[] = pathParams(spec.pattern).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (doc.query !== undefined) {
    const q = jsonSchema(doc.query, 'input');
    const props = (q.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((q.required ?? []) as string[]);
    for (const [name, schema] of Object.entries(props)) {
      parameters.push({ name, in: 'query', required: required.has(name), schema });
    }
  }
  for (const [name, description] of Object.entries(doc.headers ?? {})) {
    parameters.push({
      name,
      in: 'header',
      required: false,
      description,
      schema: { type: 'string' },
    });
  }
  const hasBody = spec.body !== undefined && spec.body !== false;
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(doc.responses)) {
    responses[status] = response(Number(status), responseDoc(r));
  }
  const errorBody = doc.jsonRpc === true ? JsonRpcResponseSchema : RestErrorSchema;
  for (const status of errorStatuses(doc, hasBody)) {
    responses[String(status)] = response(status, {
      description: STATUS_TEXT[status] ?? String(status),
      schema: errorBody,
    });
  }
  const op: Record<string, unknown> = {
    operationId: operationId(spec),
    summary: doc.summary,
    tags: [...doc.tags],
    security: SECURITY[doc.auth],
    responses,
  };
  if (doc.description !== undefined) op.description = doc.description;
  if (parameters.length > 0) op.parameters = parameters;
  if (doc.body !== undefined) {
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: jsonSchema(doc.body, 'input') } },
    };
  }
  if (doc.jsonRpc === true) op['x-openrpc'] = doc.openRpc ?? '/openrpc.json';
  if (doc.webSocket !== undefined) op['x-websocket-frames'] = webSocketFrames(doc.webSocket);
  return op;
}

/** The frames of a WebSocket path by direction: each type with its description and JSON Schema. */
function webSocketFrames(ws: WebSocketDoc): Record<string, unknown> {
  const side = (frames: WebSocketDoc['fromHub']) =>
    Object.fromEntries(
      Object.entries(frames).map(([type, f]) => [
        type,
        { description: f.description, schema: jsonSchema(f.schema, 'output') },
      ])
    );
  return { fromHub: side(ws.fromHub), fromClient: side(ws.fromClient) };
}

/** `GET /api/agents/:agentId/keys` → `get_api_agents_agentId_keys`: unique per method and path. */
function operationId(spec: DocumentedPath): string {
  const path = spec.pattern
    .replace(/[:.]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
  return `${spec.method.toLowerCase()}_${path || 'root'}${spec.pattern.endsWith('/') ? '_slash' : ''}`;
}

export function openApiDocument(
  specs: readonly DocumentedPath[],
  info: DocumentInfo
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of specs) {
    const path = openApiPath(spec.pattern);
    const item = (paths[path] ??= {});
    item[spec.method.toLowerCase()] = operation(spec);
  }
  return {
    openapi: '3.1.1',
    info: { title: info.title, version: info.version, description: info.description },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An agent key or a tenant admin key (burrow keys create-admin)',
        },
        adminToken: { type: 'http', scheme: 'bearer', description: 'The operator ADMIN_TOKEN' },
        metricsToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'METRICS_TOKEN (ADMIN_TOKEN when unset)',
        },
      },
    },
  };
}
