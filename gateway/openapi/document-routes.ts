// GET /openapi.json and GET /openrpc.json (?dialect=hub|1.0|0.3): built on the first request, once every route is mounted
// (the table is sealed by then), and kept: the routes and methods do not change while it runs.
import type { GatewayDeps } from '../deps.js';
import {
  jsonReply,
  parseQuery,
  type RouteRequest,
  type RouteSpec,
  type RouteTable,
} from '../http/index.js';
import { hubMethodDocs } from '../a2a/method-docs.js';
import { standardMethodNames } from '../a2a/standard-endpoint.js';
import { standardMethodDocs } from '../a2a/standard-method-docs.js';
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

/** Which OpenRPC document: the hub dialect's, or the standard endpoint's in one A2A version. */
type RpcDialect = 'hub' | '1.0' | '0.3';

export function documentRoutes(table: RouteTable, deps: GatewayDeps): RouteSpec[] {
  const openapi = once(() => openApiDocument(table.specs(), INFO));
  const rpcDocs = new Map<RpcDialect, Record<string, unknown>>();
  /** OpenRPC wants an absolute server URL: this hub's, as the caller reached it. */
  const openrpc = (req: RouteRequest): string => {
    const dialect = parseQuery(builtInDocs.openrpc.query, req.query).dialect ?? 'hub';
    const proto = req.headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
    const base = `${proto}://${req.headers.host ?? 'localhost'}`;
    let doc = rpcDocs.get(dialect);
    if (doc === undefined) {
      doc =
        dialect === 'hub'
          ? openRpcDocument(deps.rpc.keys(), hubMethodDocs, { ...INFO, server: '/a2a' })
          : openRpcDocument(
              standardMethodNames(),
              standardMethodDocs[dialect === '1.0' ? 'v1' : 'v0.3'],
              { ...INFO, server: '/agents/:agentId/a2a' }
            );
      rpcDocs.set(dialect, doc);
    }
    const server =
      dialect === 'hub'
        ? { name: 'hub', url: `${base}/a2a` }
        : {
            // `:agentId` rather than a `{agentId}` variable: the meta-schema wants a plain URI.
            name: `A2A ${dialect}`,
            url: `${base}/agents/:agentId/a2a`,
            summary: `:agentId is the agent addressed (id or alias); send A2A-Version: ${dialect}`,
          };
    return JSON.stringify({ ...doc, servers: [server] });
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
