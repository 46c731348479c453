// The OpenRPC 1.3 document of the JSON-RPC methods a handler map serves (POST /a2a): one entry per
// accepted name (aliases included), from the method docs' zod schemas. A served name without a doc
// is listed under `x-undocumented`, which the document tests require to be empty.
import { normalizeMethod } from '../../runtime/protocol/index.js';
import { jsonSchema, type DocumentInfo } from './document.js';

export interface RpcMethodDoc {
  readonly summary: string;
  readonly params: Parameters<typeof jsonSchema>[0];
  readonly result: Parameters<typeof jsonSchema>[0];
  readonly streaming?: boolean;
}

export function openRpcDocument(
  served: Iterable<string>,
  docs: Readonly<Record<string, RpcMethodDoc>>,
  info: DocumentInfo & { readonly server: string }
): Record<string, unknown> {
  const methods: Record<string, unknown>[] = [];
  const undocumented: string[] = [];
  for (const name of [...served].sort()) {
    const canonical = normalizeMethod(name) ?? name;
    const doc = docs[name] ?? docs[canonical];
    if (doc === undefined) {
      undocumented.push(name);
      continue;
    }
    methods.push({
      name,
      summary: canonical === name ? doc.summary : `${doc.summary} (another name of ${canonical})`,
      // By name: the hub reads params as one object (decisions.md §1).
      paramStructure: 'by-name',
      params: [
        {
          name: 'params',
          description: 'The params object',
          required: true,
          schema: jsonSchema(doc.params, 'input'),
        },
      ],
      result: { name: 'result', schema: jsonSchema(doc.result, 'output') },
      ...(doc.streaming === true ? { 'x-streaming': 'text/event-stream on HTTP' } : {}),
    });
  }
  return {
    openrpc: '1.3.2',
    info: { title: info.title, version: info.version, description: info.description },
    servers: [{ name: 'hub', url: info.server }],
    methods,
    ...(undocumented.length > 0 ? { 'x-undocumented': undocumented } : {}),
  };
}
