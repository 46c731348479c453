// Checks of the API documents (GET /openapi.json, /openrpc.json) shared by the unit, integration
// and e2e tests: the OpenAPI document against the OpenAPI 3.1 schema (@seriousme/
// openapi-schema-validator), the OpenRPC one against the OpenRPC meta-schema, every JSON Schema in
// them compiled by Ajv (2020-12), and real answers checked against the document.
import { Validator } from '@seriousme/openapi-schema-validator';
import * as openRpcMeta from '@open-rpc/meta-schema';
import { Ajv as Ajv07 } from 'ajv';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as <A extends Ajv07 | Ajv2020>(ajv: A) => A;

type Json = Record<string, unknown>;

// The package's types declare only the document's TypeScript types; the value is its JSON Schema.
const { openrpcDocument } = openRpcMeta as unknown as { openrpcDocument: Json };

/** Errors of an OpenAPI document against the OpenAPI 3.1 schema, and of its JSON Schemas. */
export async function openApiErrors(doc: unknown): Promise<unknown[]> {
  const result = await new Validator().validate(doc as Json);
  if (!result.valid) return (result.errors as unknown[] | undefined) ?? ['invalid'];
  const ajv = newAjv();
  const errors: unknown[] = [];
  for (const item of Object.values(((doc as Json).paths ?? {}) as Record<string, Json>)) {
    for (const op of Object.values(item) as Json[]) {
      for (const p of (op.parameters ?? []) as Json[]) errors.push(...schemaErrors(ajv, p.schema));
      const bodies = [
        (op.requestBody as Json | undefined)?.content,
        ...Object.values((op.responses ?? {}) as Record<string, Json>).map((r) => r.content),
      ];
      for (const content of bodies) {
        for (const media of Object.values((content ?? {}) as Record<string, Json>)) {
          if (media.schema !== undefined) errors.push(...schemaErrors(ajv, media.schema));
        }
      }
    }
  }
  return errors;
}

/** Errors of an OpenRPC document against the meta-schema, and of its JSON Schemas. */
export function openRpcErrors(doc: unknown): unknown[] {
  const ajv = addFormats(new Ajv07({ strict: false, validateSchema: false, allErrors: true }));
  // The meta-schema points its JSON Schemas at json-schema.tools; they are compiled below instead.
  for (const $id of ['https://meta.json-schema.tools', 'https://meta.json-schema.tools/']) {
    ajv.addSchema({
      $id,
      definitions: { JSONSchemaObject: { properties: { $ref: { type: 'string' } } } },
    });
  }
  const { $schema: _unused, ...meta } = openrpcDocument;
  const validate = ajv.compile(meta);
  const errors: unknown[] = validate(doc) ? [] : [...(validate.errors ?? [])];
  const schemas = newAjv();
  for (const m of ((doc as Json).methods ?? []) as Json[]) {
    for (const p of (m.params ?? []) as Json[]) errors.push(...schemaErrors(schemas, p.schema));
    errors.push(...schemaErrors(schemas, (m.result as Json | undefined)?.schema));
  }
  return errors;
}

function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv;
}

function schemaErrors(ajv: Ajv2020, schema: unknown): unknown[] {
  try {
    ajv.compile(schema as Json);
    return [];
  } catch (err) {
    return [String(err)];
  }
}

/** What a real answer is checked against: its operation's response for the status. */
export interface Answer {
  readonly method: string;
  /** The route pattern as the document writes it, e.g. /api/agents/{agentId}. */
  readonly path: string;
  readonly status: number;
  readonly contentType: string | null;
  readonly body: string;
}

/** Validates answers against an OpenAPI document; each problem is a sentence. */
export class AnswerChecker {
  private readonly ajv = newAjv();
  private readonly compiled = new Map<string, ValidateFunction>();
  /** "METHOD path" of every operation an answer was checked for. */
  readonly seen = new Set<string>();

  constructor(private readonly doc: Json) {}

  /** Every "METHOD path" the document describes. */
  operations(): string[] {
    const out: string[] = [];
    for (const [path, item] of Object.entries(this.doc.paths as Record<string, Json>)) {
      for (const method of Object.keys(item)) out.push(`${method.toUpperCase()} ${path}`);
    }
    return out;
  }

  check(a: Answer): string[] {
    const key = `${a.method} ${a.path}`;
    const op = (this.doc.paths as Record<string, Json | undefined>)[a.path]?.[
      a.method.toLowerCase()
    ] as Json | undefined;
    if (op === undefined) return [`${key}: not in the document`];
    this.seen.add(key);
    const response = (op.responses as Record<string, Json | undefined>)[String(a.status)];
    if (response === undefined) return [`${key}: status ${a.status} is not documented`];
    const content = response.content as Record<string, Json> | undefined;
    if (content === undefined) {
      return a.body === '' ? [] : [`${key} ${a.status}: documented without a body, got one`];
    }
    const type = (a.contentType ?? '').split(';')[0]?.trim() ?? '';
    const media = content[type];
    if (media === undefined) {
      return [`${key} ${a.status}: content type ${type} is not documented`];
    }
    if (media.schema === undefined) return [];
    const id = `${key} ${a.status} ${type}`;
    let validate = this.compiled.get(id);
    if (validate === undefined) {
      validate = this.ajv.compile(media.schema as Json);
      this.compiled.set(id, validate);
    }
    let body: unknown;
    try {
      body = JSON.parse(a.body);
    } catch {
      return [`${key} ${a.status}: the body is not JSON`];
    }
    if (validate(body)) return [];
    return [
      `${key} ${a.status}: ${this.ajv.errorsText(validate.errors)} in ${a.body.slice(0, 300)}`,
    ];
  }

  /**
   * Validates a WebSocket frame against the operation's `x-websocket-frames`: by its `type`, or as
   * `jsonrpc` when it is a JSON-RPC frame.
   */
  checkFrame(path: string, direction: 'fromHub' | 'fromClient', frame: Json): string[] {
    const op = (this.doc.paths as Record<string, Json | undefined>)[path]?.get as Json | undefined;
    const frames = op?.['x-websocket-frames'] as Record<string, Record<string, Json>> | undefined;
    if (frames === undefined) return [`GET ${path}: no x-websocket-frames`];
    const type = 'jsonrpc' in frame ? 'jsonrpc' : String(frame.type);
    const entry = frames[direction]?.[type];
    if (entry === undefined) return [`GET ${path}: ${direction} frame ${type} is not documented`];
    const id = `GET ${path} ${direction} ${type}`;
    let validate = this.compiled.get(id);
    if (validate === undefined) {
      validate = this.ajv.compile(entry.schema as Json);
      this.compiled.set(id, validate);
    }
    if (validate(frame)) return [];
    return [`${id}: ${this.ajv.errorsText(validate.errors)} in ${JSON.stringify(frame)}`];
  }
}
