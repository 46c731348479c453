// GET /openapi.json and GET /openrpc.json: built on the first request, once every route is mounted
// (the table is sealed by then), and kept: the routes and methods do not change while it runs.
import type { GatewayDeps } from '../deps.js';
import { jsonReply, type RouteRequest, type RouteSpec, type RouteTable } from '../http/index.js';
import { hubMethodDocs } from '../a2a/method-docs.js';
import { builtInDocs } from '../routes/route-docs.js';
import { openApiDocument } from './document.js';
import { openRpcDocument } from './openrpc.js';

const INFO = {
  title: 'Burrow',
  version: '0.1.0',
  description: 'An A2A hub: agents talk to each other with JSON-RPC 2.0 over HTTP and WebSocket.',
} as const;

const CACHE = { 'cache-control': 'public, max-age=300' } as const;

/** The JSON text of a document built once, on first use. */
function once(build: () => unknown): () => string {
  let text: string | undefined;
  return () => (text ??= JSON.stringify(build()));
}

export function documentRoutes(table: RouteTable, deps: GatewayDeps): RouteSpec[] {
  const openapi = once(() => openApiDocument(table.specs(), INFO));
  let rpcDoc: Record<string, unknown> | undefined;
  /** OpenRPC wants an absolute server URL: this hub's, as the caller reached it. */
  const openrpc = (req: RouteRequest): string => {
    const proto = req.headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
    const server = `${proto}://${req.headers.host ?? 'localhost'}/a2a`;
    rpcDoc ??= openRpcDocument(deps.rpc.keys(), hubMethodDocs, { ...INFO, server });
    return JSON.stringify({ ...rpcDoc, servers: [{ name: 'hub', url: server }] });
  };
  return [
    {
      method: 'GET',
      pattern: '/openapi.json',
      doc: builtInDocs.openapi,
      handler: () => ({ ...jsonReply(200, null, CACHE), body: openapi() }),
    },
    {
      method: 'GET',
      pattern: '/openrpc.json',
      doc: builtInDocs.openrpc,
      handler: (req) => ({ ...jsonReply(200, null, CACHE), body: openrpc(req) }),
    },
  ];
}
